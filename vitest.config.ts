import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Unit and integration tests of the server, the client SDK and the web app's plain logic. Each
// test file gets its own database cloned from a migrated template (apps/server/src/test-support).
export default defineConfig({
  // The web app's code imports the SDK by name: from its source, as Vite does, not a build.
  // Only the bare name: '@fieldassist/client/roles' is plain JavaScript, loaded as it is.
  resolve: {
    alias: [
      {
        find: /^@fieldassist\/client$/,
        replacement: fileURLToPath(new URL('packages/client/src/index.ts', import.meta.url)),
      },
    ],
  },
  test: {
    include: [
      'apps/server/src/**/*.test.ts',
      'apps/server/test/**/*.test.ts',
      'packages/client/src/**/*.test.ts',
      'packages/client/test/**/*.test.ts',
      'apps/web/src/**/*.test.ts',
    ],
    globalSetup: ['apps/server/src/test-support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default, one worker less than the cores, is a single file at a time on the two-core
    // CI machine, though the files mostly wait on PostgreSQL, child servers and OCR workers: two
    // files side by side take about half the time there (each file has its own database).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
