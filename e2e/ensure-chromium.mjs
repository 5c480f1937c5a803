// Makes sure Debian's Chromium is installed before the browser tests run. The tests drive
// /usr/bin/chromium through playwright-core and never download a browser of their own.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = '/usr/bin/chromium';

function run(command, args, env = process.env) {
  console.log(`$ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env });
  if (result.status !== 0) {
    console.error(`${command} ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`})`);
    process.exit(1);
  }
}

if (existsSync(CHROMIUM)) process.exit(0);

if (process.getuid?.() !== 0) {
  console.error(`Chromium is missing: install Debian's chromium package (apt-get install chromium)`);
  process.exit(1);
}

run('apt-get', ['update']);
run('apt-get', ['install', '-y', 'chromium'], { ...process.env, DEBIAN_FRONTEND: 'noninteractive' });

if (!existsSync(CHROMIUM)) {
  console.error(`apt-get installed chromium but ${CHROMIUM} is still missing`);
  process.exit(1);
}
console.log(`Chromium installed at ${CHROMIUM}`);
