import { escapeHtml } from './html.js';

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

const productName = 'FieldAssist';

interface Layout {
  subject: string;
  greeting?: string;
  lead: string;
  action: string;
  link: string;
  footer: string;
}

/** One layout for every email: a short lead, one button (the only call to action), a footer. */
function render({ subject, greeting, lead, action, link, footer }: Layout): RenderedEmail {
  const text = [greeting, lead, '', `${action}: ${link}`, '', footer].filter((line) => line !== undefined).join('\n');
  const html = `<!doctype html>
<html><body style="font-family: system-ui, sans-serif; color: #1f2937; line-height: 1.5">
${greeting ? `<p>${escapeHtml(greeting)}</p>\n` : ''}<p>${escapeHtml(lead)}</p>
<p><a href="${escapeHtml(link)}" style="display: inline-block; padding: 10px 16px; background: #2563eb; color: #ffffff; border-radius: 6px; text-decoration: none">${escapeHtml(action)}</a></p>
<p style="color: #6b7280; font-size: 13px">${escapeHtml(footer)}</p>
</body></html>`;
  return { subject, text, html };
}

const ignoreIfNotYou = "If you didn't ask for this, you can ignore this email.";

export function magicLinkEmail({ link, appName }: { link: string; appName: string }): RenderedEmail {
  return render({
    subject: `Sign in to ${appName}`,
    lead: `Use the button below to sign in to ${appName}. The link works once and expires soon.`,
    action: `Sign in to ${appName}`,
    link,
    footer: ignoreIfNotYou,
  });
}

export function verificationEmail({ link }: { link: string }): RenderedEmail {
  return render({
    subject: `Confirm your email for ${productName}`,
    lead: `Confirm this email address to finish setting up your ${productName} account.`,
    action: 'Confirm email',
    link,
    footer: ignoreIfNotYou,
  });
}

export function passwordResetEmail({ link }: { link: string }): RenderedEmail {
  return render({
    subject: `Reset your ${productName} password`,
    lead: 'Someone asked to reset the password of your account. The link works once and expires soon.',
    action: 'Choose a new password',
    link,
    footer: `${ignoreIfNotYou} Your password stays the same.`,
  });
}

// Names come from user profiles: a line break must not reach a header such as Subject.
const oneLine = (value: string) => value.replace(/\s+/g, ' ').trim();

export function invitationEmail({
  link,
  inviterName,
  displayName,
}: {
  link: string;
  inviterName?: string;
  displayName?: string;
}): RenderedEmail {
  const inviter = inviterName ? oneLine(inviterName) : undefined;
  return render({
    subject: inviter ? `${inviter} invited you to ${productName}` : `You're invited to ${productName}`,
    greeting: displayName ? `Hi ${displayName},` : undefined,
    lead: `${inviter ?? 'Your team'} invited you to join ${productName}, the assistant for field technicians.`,
    action: 'Accept the invitation',
    link,
    footer: "If you weren't expecting this invitation, you can ignore this email.",
  });
}
