/** One message of GET /dev/outbox.json (the server's development outbox). */
type OutboxMessage = { to: string[]; subject: string; links: string[]; createdAt: string };

const WAIT_MS = 10_000;

/**
 * The first link containing `pathPart` in the newest email to `to`, waiting for it to arrive
 * (emails are sent after the request that asked for them has answered).
 */
export async function waitForEmailLink({
  serverUrl,
  to,
  pathPart,
}: {
  serverUrl: string;
  to: string;
  pathPart: string;
}): Promise<string> {
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline) {
    const response = await fetch(`${serverUrl}/dev/outbox.json?to=${encodeURIComponent(to)}`);
    if (!response.ok) throw new Error(`GET /dev/outbox.json answered ${response.status}`);
    const { messages } = (await response.json()) as { messages: OutboxMessage[] };
    const link = messages[0]?.links.find((candidate) => candidate.includes(pathPart));
    if (link) return link;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no email to ${to} with a link containing ${pathPart} within ${WAIT_MS / 1000} s`);
}
