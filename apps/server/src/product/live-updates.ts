import { type RealtimeHub, userChannel } from '../realtime/index.js';

/**
 * What the product pushes when rows change: a job changed on one device reaches the owner's
 * other devices on their own channel (`user:{id}`), carrying only the ids, so nothing travels
 * that the owner could not read anyway. (Manual status goes out from ingestion.)
 */
export function publishRowChanges(
  hub: RealtimeHub,
  { table, rows }: { table: string; rows: Record<string, unknown>[] },
  log: (message: string) => void,
) {
  if (table !== 'jobs') return;
  const idsByOwner = new Map<string, string[]>();
  for (const row of rows) {
    if (typeof row.user_id !== 'string') continue;
    idsByOwner.set(row.user_id, [...(idsByOwner.get(row.user_id) ?? []), String(row.id)]);
  }
  for (const [userId, ids] of idsByOwner) {
    hub
      .publish({ channel: userChannel(userId), type: 'jobs.changed', data: { ids } })
      .catch((error: Error) => log(`realtime: ${error.message}`));
  }
}
