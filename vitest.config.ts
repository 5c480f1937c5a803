import { defineConfig } from 'vitest/config';

// Unit and integration tests of the server and the client SDK. Each test file gets its
// own database cloned from a migrated template (apps/server/src/test-support).
export default defineConfig({
  test: {
    include: ['apps/server/src/**/*.test.ts', 'packages/client/src/**/*.test.ts', 'packages/client/test/**/*.test.ts'],
    globalSetup: ['apps/server/src/test-support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
