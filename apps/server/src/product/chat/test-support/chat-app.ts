import { ZChatSource, ZChatSuggestion } from '@fieldassist/client/chat-sources';
import { z } from 'zod';
import type pg from 'pg';
import { afterAll } from 'vitest';
import type { Role } from '../../../auth/caller.js';
import type { OpenAiPeer } from '../../../test-support/openai-peer.js';
import { buildTestApp } from '../../../test-support/test-server.js';
import { signUpUser, type TestUser } from '../../../test-support/users.js';
import { dataParts, readSseLines } from '../../../test-support/sse.js';

export const TEST_PUBLIC_URL = 'https://files.fieldassist.test';

/** A small library with known text on known pages; one manual is a system planner. */
export const LIBRARY = [
  {
    id: 'manual_pump',
    title: 'CP-200 Centrifugal Pump Service Manual',
    type: 'manual',
    pages: [
      'Installation. Mount the CP-200 pump on a level concrete plinth and align the coupling to within 0.05 mm.',
      'Error code E42: the CP-200 lost its prime. Close the discharge valve, open the priming plug and fill the casing with water until it overflows, then restart.',
      'Mechanical seal replacement. Order seal kit part number PN-4471-B. Drain the casing and torque the impeller nut to 45 Nm on reassembly.',
      'Bearing noise. A grinding CP-200 has a dry or worn motor bearing; regrease with lithium grease every 2000 hours.',
    ],
  },
  {
    id: 'manual_boiler',
    title: 'GB-90 Gas Boiler Installation Guide',
    type: 'manual',
    pages: [
      'Flue installation. The GB-90 flue rises 3 degrees towards the terminal so condensate drains back.',
      'Fault F28: no ignition. Check that the gas isolation valve is open and that the ignition electrode gap is 3 to 4 mm.',
      'Annual service. Clean the heat exchanger, replace the siphon seal and check the flue gas analysis.',
      'Low pressure fault F22: top the system up to 1.2 bar through the filling loop and look for leaks.',
    ],
  },
  {
    id: 'manual_chiller',
    title: 'RC-50 Rooftop Chiller Manual',
    type: 'manual',
    pages: [
      'Commissioning. Check the phase rotation of the RC-50 before the compressors start.',
      'Alarm A07: high head pressure. Clean the condenser coils and check the condenser fans turn freely.',
      'Draining the RC-50 for winter: open the drain cocks on both evaporator headers.',
      'Refrigerant charge. The RC-50 holds 18 kg of R-410A per circuit.',
    ],
  },
  {
    id: 'manual_planner',
    title: 'Plant Room System Planner',
    type: 'system_planner',
    pages: [
      'Chiller loop isolation: close valve V-17 on the secondary loop and apply lockout tag LT-9 before draining chiller RC-50.',
      'Boiler room gas shut-off valve GV-2 sits behind the east door; it isolates both GB-90 boilers.',
    ],
  },
] as const;

export const PLANNER_ID = 'manual_planner';
export const fileUrlOf = (manualId: string) => `${TEST_PUBLIC_URL}/files/${'0'.repeat(32)}/${manualId}.pdf`;

/** Inserts LIBRARY as rows (as ingestion would leave them): one chunk per page. */
async function seedLibrary(pool: pg.Pool) {
  for (const manual of LIBRARY) {
    await pool.query(
      'INSERT INTO manuals (id, title, file_url, file_name, document_type) VALUES ($1, $2, $3, $4, $5)',
      [manual.id, manual.title, fileUrlOf(manual.id), `${manual.id}.pdf`, manual.type],
    );
    for (const [i, text] of manual.pages.entries()) {
      await pool.query(
        'INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number) VALUES ($1, $2, $3, $4, $5)',
        [`${manual.id}_${i}`, manual.id, text, i, i + 1],
      );
    }
  }
}

/**
 * The real app listening on loopback, on the local AI provider or on an OpenAI-compatible
 * peer (AI_BASE_URL), with LIBRARY in its database. The first account becomes admin, so an
 * admin signs up first and every other role is the one asked for.
 */
export async function startChatApp(options: { peer?: OpenAiPeer } = {}) {
  const env: Record<string, string> = {
    PUBLIC_URL: TEST_PUBLIC_URL,
    AI_TIMEOUT_MS: '10000',
    // Full-text ranking alone: with the background indexer on, whether a borderline question is
    // relevant would depend on how far it got. The semantic stage has its own tests (retrieval/).
    EMBEDDINGS: 'off',
    ...(options.peer ? { AI_BASE_URL: options.peer.baseUrl, AI_API_KEY: 'peer-key', AI_MODEL: 'peer-model' } : {}),
  };
  const { app, projectId, pool } = await buildTestApp(env);
  await app.listen({ port: 0, host: '127.0.0.1' });
  afterAll(() => app.close());
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  await seedLibrary(pool);
  const admin = await signUpUser(app, { role: 'admin', projectId });
  const signUp = (role: Role | null) => signUpUser(app, { role, projectId });

  const ask = (user: TestUser | undefined, body: unknown, signal?: AbortSignal) =>
    fetch(`${url}/api/app/${projectId}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...user?.headers },
      body: JSON.stringify(body),
      signal,
    });

  /** Uploads a chat photo the way the web app does (chat-images/{timestamp}.{extension}). */
  const upload = async (user: TestUser, bytes: Buffer, extension: string) => {
    const form = new FormData();
    form.append('path', `chat-images/${Date.now()}.${extension}`);
    form.append('options', JSON.stringify({ upsert: true }));
    form.append('file', new Blob([new Uint8Array(bytes)]), `photo.${extension}`);
    const response = await fetch(`${url}/api/storage/${projectId}/upload`, {
      method: 'POST',
      headers: user.headers,
      body: form,
    });
    if (response.status !== 200) throw new Error(`upload failed: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { publicUrl: string }).publicUrl;
  };

  const savedRows = async (user: TestUser) =>
    (
      await pool.query<{ id: string; user_id: string; message: string; response: string; created_at: string }>(
        'SELECT id, user_id, message, response, created_at FROM chat_messages WHERE user_id = $1 ORDER BY created_at',
        [user.id],
      )
    ).rows;

  return { app, url, projectId, pool, admin, signUp, ask, upload, savedRows };
}

/** Reads an SSE body line by line, calling `onPart` with each JSON part as it arrives. */
export async function readSse(response: Response, onPart: (part: SsePart) => void = () => undefined) {
  const lines = await readSseLines(response, (line) => {
    if (line.startsWith('data: {')) onPart(JSON.parse(line.slice(6)) as SsePart);
  });
  const parts = dataParts<SsePart>(lines);
  const text = parts
    .filter((p) => p.type === 'text-delta')
    .map((p) => p.delta)
    .join('');
  // The sources as the client SDK reads them: a source outside the wire contract fails the test.
  const sources = z.array(ZChatSource).parse(parts.find((p) => p.type === 'data-sources')?.data ?? []);
  const suggestions = z.array(ZChatSuggestion).parse(parts.find((p) => p.type === 'data-suggestions')?.data ?? []);
  return { lines, parts, text, sources, suggestions };
}

export type SsePart = { type: string; delta?: string; data?: unknown; errorText?: string; [key: string]: unknown };
