import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { signUpUser, type TestUser } from '../../test-support/users.js';

export const MB = 1024 * 1024;

export type FormPart =
  { name: string; value: string } | { name: string; fileName: string; contentType?: string; bytes: Buffer };

/** A multipart/form-data body, parts in the given order (as a browser's FormData sends them). */
export function multipart(parts: FormPart[]) {
  const boundary = `----fieldassist${randomBytes(8).toString('hex')}`;
  const chunks = parts.flatMap((part) => {
    const header =
      'bytes' in part
        ? `Content-Disposition: form-data; name="${part.name}"; filename="${part.fileName}"\r\nContent-Type: ${part.contentType ?? 'application/octet-stream'}`
        : `Content-Disposition: form-data; name="${part.name}"`;
    return [
      Buffer.from(`--${boundary}\r\n${header}\r\n\r\n`),
      'bytes' in part ? part.bytes : Buffer.from(part.value),
      Buffer.from('\r\n'),
    ];
  });
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The form around a file whose bytes are streamed separately: what goes before them and after. */
export function multipartAround(path: string, fileName: string) {
  const marker = Buffer.from(`@@file-${randomBytes(8).toString('hex')}@@`);
  const { payload, contentType } = multipart([
    { name: 'path', value: path },
    { name: 'file', fileName, bytes: marker },
  ]);
  const at = payload.indexOf(marker);
  return { before: payload.subarray(0, at), after: payload.subarray(at + marker.length), contentType };
}

/** A POST over a real socket whose body the test writes piece by piece (and may cut off). */
export function openUpload(url: string, headers: Record<string, string | number>) {
  const req = request(url, { method: 'POST', headers });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
  response.catch(() => undefined);
  const write = (chunk: Buffer) =>
    new Promise<void>((resolve, reject) => req.write(chunk, (error) => (error ? reject(error) : resolve())));
  return { req, response, write };
}

/** Polls `check` until it passes (the server finishes cleaning up after the response). */
export async function eventually(check: () => Promise<void>, timeoutMs = 10_000) {
  const started = Date.now();
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() - started > timeoutMs) throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** The people of the storage tests: the first account is the admin. */
export async function signUpCast(app: FastifyInstance) {
  const admin = await signUpUser(app, { email: `admin-${randomBytes(3).toString('hex')}@example.com` });
  expect(admin.role).toBe('admin');
  return {
    admin,
    technician: await signUpUser(app, { role: 'technician' }),
    manager: await signUpUser(app, { role: 'manager' }),
    viewer: await signUpUser(app, { role: 'viewer' }),
    alice: await signUpUser(app, { role: null }),
    bob: await signUpUser(app, { role: 'viewer' }),
  } satisfies Record<string, TestUser>;
}

// Node's fetch in a process of its own: in the test's process, client and server share one
// event loop, which hides how a separate client sees the server close the connection.
const fetchUploadScript = `
const [url, authorization, path, megabytes, mode] = process.argv.slice(1);
const file = new Blob([new Uint8Array(Number(megabytes) * 1024 * 1024).fill(1)]);
const form = new FormData();
form.append('path', path);
form.append('file', file, 'upload.bin');
let body = form;
const init = { method: 'POST', headers: { authorization } };
if (mode === 'stream') {
  const whole = new Response(form);
  init.headers['content-type'] = whole.headers.get('content-type');
  body = whole.body;
  init.duplex = 'half';
}
try {
  const res = await fetch(url, { ...init, body });
  console.log(JSON.stringify({ status: res.status, body: await res.json() }));
} catch (error) {
  console.log(JSON.stringify({ error: String(error), cause: String(error.cause) }));
}`;

/**
 * Uploads a file of `megabytes` MB with Node's fetch from a child process, as FormData
 * (a Content-Length) or as a stream of unknown length; answers what that client saw.
 */
export async function fetchUploadFromAnotherProcess(opts: {
  url: string;
  authorization: string;
  path: string;
  megabytes: number;
  mode: 'form' | 'stream';
}) {
  const { stdout } = await promisify(execFile)(process.execPath, [
    '--input-type=module',
    '-e',
    fetchUploadScript,
    opts.url,
    opts.authorization,
    opts.path,
    String(opts.megabytes),
    opts.mode,
  ]);
  return JSON.parse(stdout) as { status?: number; body?: Record<string, unknown>; error?: string; cause?: string };
}
