import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

import e2eConfig from '../../../../e2e/vitest.config.js';

// How npm test saves time on the two-core CI machine without changing what it runs.
const SIDE_BY_SIDE = fileURLToPath(new URL('../../../../scripts/side-by-side.mjs', import.meta.url));

describe('scripts/side-by-side.mjs', () => {
  const run = (...commands: string[]) =>
    spawnSync(process.execPath, [SIDE_BY_SIDE, ...commands], { encoding: 'utf8', timeout: 20_000 });

  it('runs the commands at the same time and prints each one whole', () => {
    // Each waits for the other's file: one after the other, they would never finish.
    const dir = mkdtempSync(join(tmpdir(), 'side-by-side-'));
    try {
      const result = run(
        `echo first one; touch ${dir}/a; until [ -e ${dir}/b ]; do sleep 0.05; done; echo first two`,
        `echo second one; touch ${dir}/b; until [ -e ${dir}/a ]; do sleep 0.05; done; echo second two`,
      );
      expect(result.status).toBe(0);
      expect(result.stdout).toContain('first one\nfirst two\n');
      expect(result.stdout).toContain('second one\nsecond two\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails when any command fails, once the others have finished', () => {
    const result = run('echo fine', 'echo broken; exit 3', 'sleep 0.3; echo late');
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('late');
    expect(result.stderr).toContain('"echo broken; exit 3" failed (exit code 3)');
  });
});

it('the browser tests run two at a time, then offline-app.test.ts alone', () => {
  // It rewrites the built app's sw.js, which every file's server serves.
  const [rest, alone] = (e2eConfig.test!.projects as { test: object }[]).map(({ test }) => test);
  expect(alone).toMatchObject({ include: ['e2e/offline-app.test.ts'], maxWorkers: 1, sequence: { groupOrder: 1 } });
  expect(rest).toMatchObject({
    include: ['e2e/**/*.test.ts'],
    exclude: ['e2e/offline-app.test.ts'],
    maxWorkers: 2,
    sequence: { groupOrder: 0 },
  });
});
