import { readFileSync } from 'node:fs';
import semver from 'semver';
import { expect, it } from 'vitest';

// The README promises the oldest Node the root package.json allows; every installed package
// must accept it, or `npm ci` warns EBADENGINE and the package may not run there.
const root = (file: string) => JSON.parse(readFileSync(new URL(`../../../../${file}`, import.meta.url), 'utf8'));

it('every package in the lockfile runs on the oldest Node the project supports', () => {
  const oldest = semver.minVersion(root('package.json').engines.node)!.version;
  const packages: Record<string, { version?: string; engines?: { node?: string } | string[] }> =
    root('package-lock.json').packages;
  const refusing = Object.entries(packages)
    .map(([path, p]) => ({ path, version: p.version, node: Array.isArray(p.engines) ? undefined : p.engines?.node }))
    .filter(({ node }) => node !== undefined && !semver.satisfies(oldest, node, { includePrerelease: true }));
  expect(oldest).toBe('20.19.0');
  expect(refusing).toEqual([]);
});
