import type { StoredEmail } from './email-log.js';
import { escapeHtml, findHrefs, findLinks, linkify } from './html.js';

/** What /dev/outbox.json answers per message: the stored fields plus the links, for tests to follow. */
export function presentOutboxEmail(email: StoredEmail) {
  const links = email.text ? findLinks(email.text) : findHrefs(email.html ?? '');
  return { ...email, links };
}

function renderEmail(email: StoredEmail): string {
  // The HTML body is never rendered as HTML here: its links are listed instead.
  const body = email.text
    ? linkify(email.text)
    : findHrefs(email.html ?? '')
        .map(linkify)
        .join('\n') || '(no text body)';
  const failed =
    email.status === 'failed' ? ` <strong class="failed">failed: ${escapeHtml(email.error ?? '')}</strong>` : '';
  return `<article>
<header><time>${escapeHtml(email.createdAt)}</time> · ${escapeHtml(email.driver)}${failed}</header>
<div><b>To:</b> ${escapeHtml(email.to.join(', '))}</div>
<div><b>From:</b> ${escapeHtml(email.from)}</div>
<h2>${escapeHtml(email.subject)}</h2>
<pre>${body}</pre>
</article>`;
}

/** The local outbox as a page; every stored value is escaped, links are the only markup added. */
export function renderOutboxPage(emails: StoredEmail[]): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Outbox · FieldAssist</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #1f2937 }
article { border: 1px solid #e5e7eb; border-radius: 8px; padding: 1rem; margin: 1rem 0 }
header { color: #6b7280; font-size: 0.85rem } h2 { font-size: 1.1rem; margin: 0.5rem 0 }
pre { white-space: pre-wrap; word-break: break-word; font-family: inherit } .failed { color: #b91c1c }
</style></head><body>
<h1>Outbox</h1>
<p>The newest ${emails.length} emails this server sent or recorded (development only).</p>
${emails.length ? emails.map(renderEmail).join('\n') : '<p>No emails yet.</p>'}
</body></html>`;
}
