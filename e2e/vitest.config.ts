import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Browser tests against the real built server. One file at a time: each file starts a
// server (with its own database) and a Chromium, and they share the built app's files, which
// offline-app.test.ts rewrites (a new sw.js) while its browser waits for the update. Two at a
// time failed there once in CI (the reload after "Update now" never came), so not again.
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['e2e/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
