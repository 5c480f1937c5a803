import type { FastifyInstance } from 'fastify';
import { afterAll } from 'vitest';
import { buildTestApp } from '../../test-support/test-server.js';
import { signUpUser } from '../../test-support/users.js';
import type { OpenAiPeer } from '../../test-support/openai-peer.js';
import type { DownloadFile } from '../provider.js';

export const TEST_PUBLIC_URL = 'https://files.fieldassist.test';
/** A stored file's public URL: the origin, /files/, an unguessable folder and the file's name. */
export const storedFileUrl = (name: RegExp) => new RegExp(`^${TEST_PUBLIC_URL}/files/[0-9a-f]{32}/${name.source}$`);

export interface AiAppOptions {
  /** Answer through this peer (AI_BASE_URL); without it, the local provider answers. */
  peer?: OpenAiPeer;
  rateLimitPerMinute?: number;
  maxOutputTokens?: number;
  timeoutMs?: number;
}

/**
 * The real app, listening on loopback, with the AI routes on the local provider or on an
 * OpenAI-compatible peer. The settings are passed as the environment too. Generated files
 * are stored by the real storage module; downloads of user URLs are answered from `downloads`.
 */
export async function startAiApp(options: AiAppOptions = {}) {
  const env: Record<string, string> = {
    PUBLIC_URL: TEST_PUBLIC_URL,
    AI_MAX_OUTPUT_TOKENS: String(options.maxOutputTokens ?? 2000),
    AI_RATE_LIMIT_PER_MINUTE: String(options.rateLimitPerMinute ?? 1000),
    AI_TIMEOUT_MS: String(options.timeoutMs ?? 10_000),
    ...(options.peer
      ? {
          AI_BASE_URL: options.peer.baseUrl,
          AI_API_KEY: 'peer-key',
          AI_MODEL: 'peer-model',
          AI_IMAGE_MODEL: 'peer-image',
          AI_SPEECH_MODEL: 'peer-speech',
          AI_TRANSCRIBE_MODEL: 'peer-transcribe',
        }
      : {}),
  };
  // The internet the server would download user URLs from: answered from `downloads`.
  const downloads = new Map<string, { bytes: Uint8Array; contentType?: string }>();
  const downloadFile: DownloadFile = async (url) => {
    const file = downloads.get(url.href);
    if (!file) throw new Error(`unexpected download of ${url.href}`);
    return file;
  };
  const { app, projectId, serviceKey } = await buildTestApp(env, { downloadFile });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const user = await signUpUser(app, { role: 'technician', projectId });
  /** The bytes of a file the server stored (a generated image or speech), read through its public URL. */
  const readStored = async (publicUrl: string) =>
    (await app.inject({ method: 'GET', url: new URL(publicUrl).pathname })).rawPayload;
  afterAll(() => app.close());
  return { app: app as FastifyInstance, url, projectId, serviceKey, user, downloads, readStored };
}
