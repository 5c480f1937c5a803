import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

import type { Job, JobStatus } from '@/lib/tables';

/** A change made on this device, kept until the server has it (issue 18: the outbox). */
export type OutboxChange =
  | { kind: 'job.create'; job: Job }
  | { kind: 'job.status'; jobId: string; title: string; status: JobStatus; updatedAt: number }
  | { kind: 'chat.ask'; question: string; askedAt: number };

export type OutboxEntry = OutboxChange & { seq: number; userId: string };

/** Something the user must hear about: a change the server did not take. */
export interface OfflineNotice {
  id: number;
  userId: string;
  text: string;
  at: number;
}

interface OfflineSchema extends DBSchema {
  // seq grows with each change, so reading by key is the order the user made them in.
  outbox: { key: number; value: OutboxEntry; indexes: { byUser: string } };
  // The last lists read from the server, to show with no network ('jobs:<user>', 'chat:<user>').
  snapshots: { key: string; value: { key: string; data: unknown; savedAt: number } };
  notices: { key: number; value: OfflineNotice; indexes: { byUser: string } };
}

let database: Promise<IDBPDatabase<OfflineSchema>> | undefined;

function db() {
  database ??= openDB<OfflineSchema>('fieldassist-offline', 1, {
    upgrade(upgrade) {
      upgrade.createObjectStore('outbox', { keyPath: 'seq', autoIncrement: true }).createIndex('byUser', 'userId');
      upgrade.createObjectStore('snapshots', { keyPath: 'key' });
      upgrade.createObjectStore('notices', { keyPath: 'id', autoIncrement: true }).createIndex('byUser', 'userId');
    },
  });
  return database;
}

/** Keeps a change durably on the device; resolves with its place in the queue. */
export async function enqueue(userId: string, change: OutboxChange): Promise<number> {
  return (await db()).add('outbox', { userId, ...change } as OutboxEntry);
}

/** The user's waiting changes of these kinds, oldest first. */
export async function pendingChanges(userId: string, kinds: OutboxChange['kind'][]): Promise<OutboxEntry[]> {
  const all = await (await db()).getAllFromIndex('outbox', 'byUser', userId);
  return all.filter((entry) => kinds.includes(entry.kind)).sort((a, b) => a.seq - b.seq);
}

export async function removeChange(seq: number): Promise<void> {
  await (await db()).delete('outbox', seq);
}

export async function saveSnapshot(key: string, data: unknown): Promise<void> {
  await (await db()).put('snapshots', { key, data, savedAt: Date.now() });
}

export async function readSnapshot<T>(key: string): Promise<T | undefined> {
  return (await (await db()).get('snapshots', key))?.data as T | undefined;
}

export async function addNotice(userId: string, text: string): Promise<void> {
  await (await db()).add('notices', { userId, text, at: Date.now() } as OfflineNotice);
}

export async function listNotices(userId: string): Promise<OfflineNotice[]> {
  return (await db()).getAllFromIndex('notices', 'byUser', userId);
}

export async function dismissNotice(id: number): Promise<void> {
  await (await db()).delete('notices', id);
}
