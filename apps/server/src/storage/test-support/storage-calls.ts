import type { FastifyInstance } from 'fastify';
import { beforeAll, expect } from 'vitest';
import type { TestUser } from '../../test-support/users.js';
import { type Driver, startStorageApp, TEST_PUBLIC_URL } from './storage-app.js';
import { type FormPart, multipart, signUpCast } from './upload-requests.js';

export type As = TestUser | 'service' | undefined;

/** The storage API as the tests call it, through app.inject, as a user, the service key or nobody. */
export function storageCalls({
  app,
  projectId,
  serviceKey,
}: {
  app: FastifyInstance;
  projectId: string;
  serviceKey: string;
}) {
  const as = (who: As) => (who === 'service' ? { authorization: `Bearer ${serviceKey}` } : who ? who.headers : {});
  return {
    upload: (who: As, parts: FormPart[]) => {
      const { payload, contentType } = multipart(parts);
      return app.inject({
        method: 'POST',
        url: `/api/storage/${projectId}/upload`,
        headers: { ...as(who), 'content-type': contentType },
        payload,
      });
    },
    download: (who: As, query: string) =>
      app.inject({ method: 'GET', url: `/api/storage/${projectId}/download?${query}`, headers: as(who) }),
    remove: (who: As, payload: unknown) =>
      app.inject({
        method: 'DELETE',
        url: `/api/storage/${projectId}/remove`,
        headers: { ...as(who), 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      }),
    /** GET (or HEAD) of a public URL, the way a browser would, without credentials. */
    fetchFile: (publicUrl: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') => {
      expect(publicUrl.startsWith(`${TEST_PUBLIC_URL}/files/`)).toBe(true);
      const url = new URL(publicUrl);
      return app.inject({ method, url: url.pathname + url.search, headers });
    },
  };
}

/** The parts of a simple upload: the file first, then its path, as the published client sends them. */
export const fileAt = (path: string, bytes: Buffer | string, fileName = path.split('/').pop()!): FormPart[] => [
  { name: 'file', fileName, bytes: Buffer.from(bytes) },
  { name: 'path', value: path },
];

export type StorageTestContext = Awaited<ReturnType<typeof startStorageApp>> &
  ReturnType<typeof storageCalls> & { cast: Awaited<ReturnType<typeof signUpCast>> };

/**
 * The storage app on `driver` for the calling describe block, with its people signed up:
 * the returned object is filled in by a beforeAll hook.
 */
export function useStorageApp(driver: Driver): StorageTestContext {
  const context = {} as StorageTestContext;
  beforeAll(async () => {
    const started = await startStorageApp(driver);
    Object.assign(context, started, storageCalls(started), { cast: await signUpCast(started.app) });
  });
  return context;
}
