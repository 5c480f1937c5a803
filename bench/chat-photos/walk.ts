/**
 * Sends each photo of a folder through the real web UI (headless Chromium at 375 px) to the real
 * server over a kept bench/retrieval database (its three manuals ingested), with no typed question
 * and with a short one; saves a screenshot of each answer's first screen and the texts as JSON.
 *   bash bench/chat-photos/make-photos.sh /tmp/chat-photos
 *   npx tsx bench/chat-photos/walk.ts <kept-db> /tmp/chat-photos /tmp/chat-photos/out     (ONLY=name,name for some)
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { createPool } from '../../apps/server/src/db/pool.js';
import { launchBrowser } from '../../e2e/support/browser.js';
import { openChatAsNewUser } from '../../e2e/support/seeded-chat.js';

const [db = 'photo1_1', photosDir = '/tmp/chat-photos', outDir = '/tmp/chat-photos/out'] = process.argv.slice(2);
const databaseUrl = `postgres://postgres@127.0.0.1:5432/${db}`;
const pool = createPool(databaseUrl, 10);
const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  HOST: '127.0.0.1',
  // The sign-in page returns only to the server's own address: a fixed port, so it is known.
  PORT: process.env.WALK_PORT ?? '47311',
  DATABASE_URL: databaseUrl,
  DATA_DIR: new URL(`../retrieval/.cache/data-${db}`, import.meta.url).pathname,
  WEB_DIST: new URL('../../apps/web/dist', import.meta.url).pathname,
  SIGNUP_MODE: 'open',
});
const app = await buildApp({
  config: {
    ...config,
    serviceKey: `walk_${randomBytes(24).toString('hex')}`,
    authSecret: randomBytes(48).toString('base64url'),
  },
  pool,
});
await app.listen({ port: config.port, host: '127.0.0.1' });
const url = `http://127.0.0.1:${config.port}`;
const browser = await launchBrowser();
await mkdir(outDir, { recursive: true });
const only = process.env.ONLY?.split(',');
const results = [];
for (const file of (await readdir(photosDir)).filter((f) => f.endsWith('.jpg')).sort()) {
  const name = file.replace(/\.jpg$/, '');
  if (only && !only.includes(name)) continue;
  const { page, context, chat } = await openChatAsNewUser({
    browser,
    serverUrl: url,
    viewport: 'phone',
    displayName: 'Pat Photo',
  });
  for (const [i, typed] of ['', "what's wrong"].entries()) {
    const started = performance.now();
    await chat.attachFile({ name: file, mimeType: 'image/jpeg', buffer: await readFile(join(photosDir, file)) });
    await chat.preview.waitFor();
    if (typed) await chat.input.fill(typed);
    await chat.send.click();
    await chat.answers.nth(i).waitFor({ timeout: 120_000 });
    const answer = await chat.waitForAnswer();
    const seconds = (performance.now() - started) / 1000;
    const question = chat.questions.nth(i);
    const reading =
      (await chat
        .photoReading(question)
        .textContent()
        .catch(() => '')) ?? '';
    const text = (await answer.textContent()) ?? '';
    const sources = await chat.sourceLinks(answer).allTextContents();
    await question.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: join(outDir, `${name}-${i ? 'typed' : 'bare'}.png`) });
    await answer.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: join(outDir, `${name}-${i ? 'typed' : 'bare'}-answer.png`) });
    results.push({ photo: name, typed, seconds: Math.round(seconds), reading, answer: text, sources });
    console.log(
      `\n=== ${name} [${typed || 'no question'}] ${seconds.toFixed(1)} s\nREAD: ${reading.slice(0, 300)}\nANSWER: ${text.slice(0, 500)}\nSOURCES: ${sources.join(' | ')}`,
    );
  }
  await context.close();
}
await writeFile(join(outDir, 'results.json'), JSON.stringify(results, null, 2));
await browser.close();
await app.close();
await pool.end();
