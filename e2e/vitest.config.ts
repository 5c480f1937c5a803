import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Browser tests against the real built server. Each file starts a server (with its own database)
// and a Chromium, and spends much of its time waiting on them, so two files at a time on the
// two-core CI machine. Except offline-app.test.ts: it rewrites the built app's sw.js, which every
// file serves, while its browser waits for the update (two at a time with it, the reload after
// "Update now" once never came in CI; one at a time on a machine at load 10, it also did once).
// So it runs alone, once the others are done.
const OFFLINE_APP = 'e2e/offline-app.test.ts';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['e2e/**/*.test.ts'],
          exclude: [OFFLINE_APP],
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: 'offline-app', include: [OFFLINE_APP], maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
