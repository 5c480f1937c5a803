import { z } from 'zod';
import { ApiError } from '../errors.js';
import type { Mailer } from './mailer.js';

const ZEmail = z.email();
const ZRecipients = z.union([ZEmail, z.array(ZEmail).min(1).max(50)], {
  error: 'Expected an email address or a list of them',
});

/** The body of POST /api/notifications/:projectId/email (PLATFORM_API.md section 7). */
export const ZSendEmailBody = z
  .object({
    to: ZRecipients,
    subject: z.string().min(1).max(998),
    html: z.string().optional(),
    text: z.string().optional(),
    from: z.string().min(1).max(320).optional(),
    replyTo: ZEmail.optional(),
    cc: ZRecipients.optional(),
    bcc: ZRecipients.optional(),
    attachments: z.array(z.unknown()).max(0, 'Attachments are not supported').optional(),
  })
  .refine((body) => Boolean(body.html || body.text), { error: 'html or text is required' });
export type SendEmailBody = z.infer<typeof ZSendEmailBody>;

export const ZSendEmailResponse = z.object({
  success: z.literal(true),
  messageId: z.string(),
  from: z.string(),
  to: z.array(z.string()),
  subject: z.string(),
  timestamp: z.string(),
});
export type SendEmailResponse = z.infer<typeof ZSendEmailResponse>;

const asList = (value?: string | string[]): string[] => (value === undefined ? [] : [value].flat());

/** `Name <a@b.c>` or `a@b.c` → `a@b.c`. */
function addressOf(sender: string): string {
  return (/<([^<>]+)>\s*$/.exec(sender)?.[1] ?? sender).trim();
}

/**
 * The platform's `from` rule: with an `@` it names a sender address, which must be the one
 * configured (the only verified sender); without one it is a display name on that sender.
 */
export function resolveSender(requested: string | undefined, defaultFrom: string): string | undefined {
  if (requested === undefined) return undefined;
  const address = addressOf(defaultFrom);
  if (requested.includes('@')) {
    if (addressOf(requested).toLowerCase() !== address.toLowerCase())
      throw new ApiError('UNVERIFIED_SENDER', 'Sender is not verified');
    return requested;
  }
  // Quotes, angle brackets and line breaks would end the quoted name early.
  const name = requested
    .replace(/["\\<>\r\n]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return name ? `"${name}" <${address}>` : undefined;
}

/**
 * Sends an email on behalf of the project (admins and the service key; the route checks).
 * Throws UNVERIFIED_SENDER (403) for a sender other than the configured one, SERVICE_UNAVAILABLE when the relay fails.
 */
export async function sendEmail({
  mailer,
  defaultFrom,
  body,
}: {
  mailer: Mailer;
  defaultFrom: string;
  body: SendEmailBody;
}): Promise<SendEmailResponse> {
  const sent = await mailer.send({
    to: asList(body.to),
    cc: asList(body.cc),
    bcc: asList(body.bcc),
    subject: body.subject,
    html: body.html,
    text: body.text,
    from: resolveSender(body.from, defaultFrom),
    replyTo: body.replyTo,
  });
  return {
    success: true,
    messageId: sent.messageId,
    from: sent.from,
    to: sent.to,
    subject: body.subject,
    timestamp: new Date().toISOString(),
  };
}
