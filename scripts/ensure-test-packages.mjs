// Makes sure the Debian packages a test run needs are installed, e.g.
//   node scripts/ensure-test-packages.mjs chromium   (browser tests: /usr/bin/chromium through playwright-core)
//   node scripts/ensure-test-packages.mjs caddy      (the real deploy/Caddyfile in front of two instances)
// Nothing happens when every command is already there. Otherwise, as root, one `apt-get update`
// and one `apt-get install` of the missing packages; not root (or no apt-get): a clear message
// and exit 1. No browser or proxy is ever downloaded from anywhere but Debian's archive.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Each package this script knows: the command it provides (found on PATH or at its Debian path). */
const PACKAGES = {
  chromium: { command: 'chromium', debianPath: '/usr/bin/chromium', usedBy: 'the browser tests (e2e/)' },
  caddy: { command: 'caddy', debianPath: '/usr/bin/caddy', usedBy: 'apps/server/test/deploy/reverse-proxy.test.ts' },
};

const names = process.argv.slice(2);
const unknown = names.filter((name) => !(name in PACKAGES));
if (names.length === 0 || unknown.length > 0) {
  console.error(
    `usage: node scripts/ensure-test-packages.mjs <${Object.keys(PACKAGES).join('|')}>...${unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''}`,
  );
  process.exit(2);
}

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Where the package's command is: its Debian path, else anywhere on PATH (e.g. Homebrew's caddy). */
function locate({ command, debianPath }) {
  if (executable(debianPath)) return debianPath;
  return (process.env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, command))
    .find(executable);
}

function run(command, args, env = process.env) {
  console.log(`$ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env });
  if (result.status !== 0) {
    console.error(`${command} ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`})`);
    process.exit(1);
  }
}

const missing = names.filter((name) => !locate(PACKAGES[name]));
if (missing.length === 0) process.exit(0);

const needs = missing.map((name) => `${name} (for ${PACKAGES[name].usedBy})`).join(', ');
if (process.getuid?.() !== 0 || !locate({ command: 'apt-get', debianPath: '/usr/bin/apt-get' })) {
  console.error(
    `Missing: ${needs}. Install ${missing.length > 1 ? 'them' : 'it'} as root: apt-get install ${missing.join(' ')}`,
  );
  process.exit(1);
}

run('apt-get', ['update']);
run('apt-get', ['install', '-y', ...missing], { ...process.env, DEBIAN_FRONTEND: 'noninteractive' });

const still = missing.filter((name) => !locate(PACKAGES[name]));
if (still.length > 0) {
  console.error(
    `apt-get installed ${still.join(' ')} but ${still.map((name) => PACKAGES[name].command).join(', ')} is still not found`,
  );
  process.exit(1);
}
console.log(missing.map((name) => `${name} installed at ${locate(PACKAGES[name])}`).join('\n'));
