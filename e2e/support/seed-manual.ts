import { randomBytes } from 'node:crypto';

/** A service key for a test server (SERVICE_KEY), so a test can seed rows with /batch. */
export const newServiceKey = () => `e2e_${randomBytes(24).toString('hex')}`;

export const SEEDED_MANUAL = {
  id: 'manual_rtu',
  title: 'RTU-500 Rooftop Unit Service Manual',
  page: 3,
  passage: 'Fault E4: compressor lockout. Reset the breaker, wait five minutes, then check the contactor.',
};

/**
 * One manual whose page 3 explains fault E4, written as ingestion would leave it, so the chat
 * answers from it with a source link. `fileUrl` defaults to a file that is not stored.
 */
export async function seedManual({
  serverUrl,
  serviceKey,
  fileUrl = `${serverUrl}/files/manuals/rtu-500.pdf`,
}: {
  serverUrl: string;
  serviceKey: string;
  fileUrl?: string;
}) {
  const { id, title, page, passage } = SEEDED_MANUAL;
  const statements = [
    {
      sql: 'INSERT INTO manuals (id, title, file_url, file_name, file_type, processing_status) VALUES (?, ?, ?, ?, ?, ?)',
      args: [id, title, fileUrl, 'rtu-500.pdf', 'application/pdf', 'ready'],
    },
    { sql: "UPDATE ingestion_jobs SET status = 'done' WHERE manual_id = ?", args: [id] },
    {
      sql: 'INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number) VALUES (?, ?, ?, 0, ?)',
      args: [`${id}_1`, id, passage, page],
    },
  ];
  const response = await fetch(`${serverUrl}/api/db/fieldassist/batch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${serviceKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ statements }),
  });
  if (!response.ok) throw new Error(`seeding the manual answered ${response.status}: ${await response.text()}`);
}
