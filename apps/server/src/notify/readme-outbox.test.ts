import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../test-support/test-server.js';
import { signUpUser } from '../test-support/users.js';

// A newcomer reads the README's first screen (everything above its first section) and must
// learn who becomes admin and where sign-in links go without SMTP_URL, with a command that
// shows them; the command is run here as written, against a real server.
const readme = await readFile(new URL('../../../../README.md', import.meta.url), 'utf8');
const firstScreen = readme.slice(0, readme.indexOf('\n## '));

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe("the README's first screen", () => {
  it('says the first account to sign up becomes the admin', () => {
    expect(firstScreen).toMatch(/first account to sign up becomes the admin/);
  });

  it('says where sign-in links and invitations go without SMTP_URL: the console and /dev/outbox', () => {
    expect(firstScreen).toMatch(/`SMTP_URL`/);
    expect(firstScreen).toMatch(/sign-in links and invitations/);
    expect(firstScreen).toMatch(/console/);
    expect(firstScreen).toContain('http://localhost:3000/dev/outbox');
  });

  it('gives one command that shows a sign-in link, which works as written', async () => {
    const commands = firstScreen.match(/^curl .*\/dev\/outbox.*$/gm) ?? [];
    expect(commands).toHaveLength(1);
    const command = commands[0]!.replace(/\s+#.*$/, '').replaceAll('http://localhost:3000', server.url);

    const admin = await signUpUser(server.app, { email: 'first@example.com' });
    expect(admin.role).toBe('admin');
    const asked = await fetch(`${server.url}/api/auth/signin/magic`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: admin.email, projectId: server.projectId }),
    });
    expect(asked.status).toBe(200);

    const { stdout } = await promisify(execFile)('sh', ['-c', command]);
    const [newest] = (JSON.parse(stdout) as { messages: { to: string[]; links: string[] }[] }).messages;
    expect(newest!.to).toEqual([admin.email]);
    expect(newest!.links.some((link) => link.includes('/auth?magic_token='))).toBe(true);
  });
});
