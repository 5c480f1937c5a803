import type { ChatSource } from '@fieldassist/client/chat-sources';
// The manuals the viewer's tests and bench/viewer open, stored through the real API with the
// service key: a long PDF, and a saved chat answer whose sources cite passages in them.
import { randomBytes } from 'node:crypto';

import { makePdf, manualPageLines } from '../../apps/server/src/data/fixtures/make-documents.js';

export const LONG_TITLE = 'Compressor manual (350 pages)';

/** A passage of page `n` of longManualPdf (from manualPageLines). */
export const longManualPassage = (n: number) => `Torque the bolt ${n} to ${10 + n} Nm.`;

/** 350 pages of about 400 KB, past what pdf.js reads in one go: each page's own lines, then a screenful of text. */
export function longManualPdf(pages = 350): Promise<Buffer> {
  const filler = (page: number) =>
    Array.from(
      { length: 36 },
      (_, line) =>
        `${page}.${line + 1} Check the wiring, the fuses and the terminal torque before restarting the unit.`,
    );
  return makePdf(Array.from({ length: pages }, (_, i) => [...manualPageLines(i + 1), ...filler(i + 1)]));
}

/** A source as the chat saves it with an answer. */
export type SavedSource = ChatSource;

/** The server's API as the service key calls it. */
export function serviceApi(serverUrl: string, serviceKey: string) {
  async function call(path: string, init: RequestInit): Promise<unknown> {
    const response = await fetch(`${serverUrl}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${serviceKey}`, ...init.headers },
    });
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
    return response.json();
  }

  const sql = (statements: { sql: string; args: unknown[] }[]) =>
    call('/api/db/fieldassist/batch', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ statements }),
    });

  return {
    sql,

    /** Inserts rows through the REST API (whose hook queues a new manual's ingestion). */
    insert: (table: string, row: Record<string, unknown>) =>
      call(`/api/db/fieldassist/rest/v1/${table}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(row),
      }),

    /** Waits until ingestion has made the manual `id` ready; throws when it failed or took longer than `seconds`. */
    async waitUntilReady(id: string, seconds: number): Promise<void> {
      for (let i = 0; i < seconds * 5; i++) {
        const result = JSON.stringify(
          await sql([{ sql: 'SELECT processing_status FROM manuals WHERE id = ?', args: [id] }]),
        );
        if (result.includes('ready')) return;
        if (result.includes('failed')) throw new Error(`ingestion of ${id} failed: ${result}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      throw new Error(`${id} was not ingested within ${seconds} s`);
    },

    /** Stores a file in the library folder, as an upload does; answers its public URL. */
    async store(name: string, type: string, bytes: Buffer): Promise<string> {
      const form = new FormData();
      form.append('path', `manuals/${randomBytes(6).toString('hex')}/${name}`);
      form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
      const body = (await call('/api/storage/fieldassist/upload', { method: 'POST', body: form })) as {
        publicUrl?: string;
        data?: { publicUrl?: string };
      };
      const url = body.publicUrl ?? body.data?.publicUrl;
      if (!url) throw new Error('the upload answered no publicUrl');
      return url;
    },

    /** A saved exchange of the account `email` (its chatMessages row, as the chat saves it). */
    async saveAnswer({
      email,
      question,
      answer,
      sources,
    }: {
      email: string;
      question: string;
      answer: string;
      sources: SavedSource[];
    }) {
      await sql([
        {
          sql: 'INSERT INTO chat_messages (id, user_id, message, response, created_at) SELECT ?, id, ?, ?, ? FROM auth_accounts WHERE email = ?',
          args: [
            randomBytes(8).toString('hex'),
            JSON.stringify({ content: question }),
            JSON.stringify({ content: answer, sources }),
            Date.now() - 60_000,
            email,
          ],
        },
      ]);
    },
  };
}
