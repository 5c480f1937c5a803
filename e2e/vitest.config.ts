import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Browser tests against the real built server. Two files at a time: each file starts a
// server (with its own database) and a Chromium, and spends much of its time waiting on them,
// so on the two-core CI machine a second file uses what the first leaves idle.
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['e2e/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
