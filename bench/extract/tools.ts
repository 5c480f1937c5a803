/**
 * The outside parts bench/extract needs: a large real-world PDF (the GNU Octave manual from
 * Debian's octave-doc package) and poppler's pdftotext to compare with. Both come from apt,
 * the PDF into a cache folder that later runs reuse.
 */
import { execFile } from 'node:child_process';
import { mkdir, readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const CACHE_DIR = join(tmpdir(), 'fieldassist-bench-extract');

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Runs an apt-get command, and once more after `apt-get update` if it fails (stale or empty lists). */
async function aptGet(args: string[], cwd: string, log: (message: string) => void) {
  try {
    await run('apt-get', args, { cwd, maxBuffer: 16 * 1024 * 1024 });
  } catch {
    log('apt-get failed; running apt-get update once');
    await run('apt-get', ['update'], { cwd, maxBuffer: 16 * 1024 * 1024 });
    await run('apt-get', args, { cwd, maxBuffer: 16 * 1024 * 1024 });
  }
}

/** The largest PDF of the octave-doc package, downloaded and unpacked on first use. */
export async function octaveManualPdf(log: (message: string) => void): Promise<{ path: string; deb: string }> {
  await mkdir(CACHE_DIR, { recursive: true });
  const debs = () => readdir(CACHE_DIR).then((names) => names.filter((n) => /^octave-doc_.*\.deb$/.test(n)));
  if ((await debs()).length === 0) {
    log(`apt-get download octave-doc into ${CACHE_DIR}`);
    await aptGet(['download', 'octave-doc'], CACHE_DIR, log);
  }
  const deb = (await debs()).sort().at(-1)!;
  const unpacked = join(CACHE_DIR, 'unpacked', deb.replace(/\.deb$/, ''));
  if (!(await exists(unpacked))) {
    await mkdir(unpacked, { recursive: true });
    await run('dpkg-deb', ['-x', join(CACHE_DIR, deb), unpacked]);
  }
  const pdfs: { path: string; size: number }[] = [];
  for (const entry of await readdir(unpacked, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.pdf')) {
      const path = join(entry.parentPath, entry.name);
      pdfs.push({ path, size: (await stat(path)).size });
    }
  }
  const largest = pdfs.sort((a, b) => b.size - a.size)[0];
  if (!largest) throw new Error(`no PDF in ${deb}`);
  return { path: largest.path, deb };
}

/** Makes sure pdftotext and pdfinfo are there (poppler-utils); returns pdftotext's version line. */
export async function ensurePoppler(log: (message: string) => void): Promise<string> {
  const version = () =>
    run('pdftotext', ['-v']).then(({ stdout, stderr }) => `${stdout}${stderr}`.split('\n')[0]!.trim());
  try {
    return await version();
  } catch {
    log('pdftotext is missing: apt-get install -y poppler-utils');
    await aptGet(['install', '-y', '--no-install-recommends', 'poppler-utils'], CACHE_DIR, log);
    return version();
  }
}

/** The page count pdfinfo reads from the PDF. */
export async function pdfPageCount(path: string): Promise<number> {
  const { stdout } = await run('pdfinfo', [path]);
  const pages = Number(/^Pages:\s+(\d+)/m.exec(stdout)?.[1]);
  if (!Number.isInteger(pages)) throw new Error(`pdfinfo gave no page count for ${path}`);
  return pages;
}

/** Seconds pdftotext takes to write the whole text (UTF-8) to a pipe that is read and dropped. */
export async function timePdftotext(path: string): Promise<{ seconds: number; characters: number }> {
  const started = performance.now();
  const { stdout } = await run('pdftotext', ['-enc', 'UTF-8', path, '-'], { maxBuffer: 512 * 1024 * 1024 });
  return { seconds: (performance.now() - started) / 1000, characters: stdout.length };
}
