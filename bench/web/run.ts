// The web app's initial JavaScript: what a browser must download before the first screen,
// gzipped. That is the entry script of index.html plus every script it loads eagerly
// (modulepreload links and the entry's static imports), never the lazy chunks of the tabs.
// Usage: npx tsx bench/web/run.ts [--no-build] [--out <dir>]
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

const TARGET_KB = 250;
const WEB_DIR = fileURLToPath(new URL('../../apps/web/', import.meta.url));

const { values } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    out: { type: 'string', default: join(tmpdir(), 'fieldassist-bench-web') },
  },
});
const outDir = values.out!;

if (!values['no-build']) {
  // Its own folder, so a build for the browser tests is never overwritten.
  execFileSync('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: WEB_DIR,
    stdio: 'inherit',
  });
}

const html = await readFile(join(outDir, 'index.html'), 'utf8');
const fromHtml = [
  ...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g),
  ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
].map((match) => match[1]!);

/** The static `import ... from "./x.js"` of a built chunk (dynamic `import()` is lazy and left out). */
function staticImports(code: string): string[] {
  const found = [...code.matchAll(/(?:^|[;\n}])\s*import\s*(?:[\w*${}\s,]+from\s*)?["']([^"']+\.js)["']/g)].map(
    (m) => m[1]!,
  );
  return found.map((spec) => `/assets/${spec.replace(/^\.\//, '')}`);
}

const eager = new Map<string, { raw: number; gzip: number }>();
const queue = [...fromHtml];
while (queue.length > 0) {
  const url = queue.shift()!;
  if (eager.has(url) || !url.endsWith('.js')) continue;
  const code = await readFile(join(outDir, url), 'utf8');
  eager.set(url, { raw: Buffer.byteLength(code), gzip: gzipSync(code, { level: 9 }).length });
  queue.push(...staticImports(code));
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
let raw = 0;
let gzip = 0;
for (const [url, size] of eager) {
  raw += size.raw;
  gzip += size.gzip;
  console.log(`${url.padEnd(44)} ${kb(size.raw).padStart(8)} KB  ${kb(size.gzip).padStart(7)} KB gzip`);
}
console.log(
  `${'initial JavaScript'.padEnd(44)} ${kb(raw).padStart(8)} KB  ${kb(gzip).padStart(7)} KB gzip (target <= ${TARGET_KB} KB)`,
);
if (gzip / 1024 > TARGET_KB) {
  console.error(`over the target by ${kb(gzip - TARGET_KB * 1024)} KB`);
  process.exitCode = 1;
}
