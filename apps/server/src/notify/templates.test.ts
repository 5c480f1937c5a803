import { describe, expect, it } from 'vitest';
import { findHrefs } from './html.js';
import { invitationEmail, magicLinkEmail, passwordResetEmail, verificationEmail } from './templates.js';

const link = 'https://fa.test/auth/verify?token="t"&next=<x>';

describe('email templates', () => {
  it.each([
    ['magic link', magicLinkEmail({ link, appName: 'FieldAssist' }), 'Sign in to FieldAssist'],
    ['verification', verificationEmail({ link }), 'Confirm your email for FieldAssist'],
    ['password reset', passwordResetEmail({ link }), 'Reset your FieldAssist password'],
    ['invitation', invitationEmail({ link }), "You're invited to FieldAssist"],
  ])('%s: one call to action, the link, escaped in the html', (_name, email, subject) => {
    expect(email.subject).toBe(subject);
    expect(email.text).toContain(link);
    expect(email.html.match(/<a /g)).toHaveLength(1);
    expect(email.html).toContain('href="https://fa.test/auth/verify?token=&quot;t&quot;&amp;next=&lt;x&gt;"');
    expect(findHrefs(email.html)).toEqual([link]);
  });

  it('escapes names in the invitation and keeps the subject on one line', () => {
    const email = invitationEmail({
      link: 'https://fa.test/i',
      inviterName: 'Eve <b>\r\nBcc: x@y.z',
      displayName: '<script>Dana</script>',
    });
    expect(email.subject).toBe('Eve <b> Bcc: x@y.z invited you to FieldAssist');
    expect(email.html).toContain('Hi &lt;script&gt;Dana&lt;/script&gt;,');
    expect(email.html).toContain('Eve &lt;b&gt; Bcc: x@y.z invited you');
    expect(email.html).not.toMatch(/<script>|<b>/);
  });
});
