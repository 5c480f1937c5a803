/**
 * The real manuals of bench/retrieval: PDFs from Debian's documentation packages, fetched with
 * `apt-get download` and unpacked with `dpkg-deb -x` into a gitignored cache folder on first use.
 * The repository keeps this list and the questions, never the PDFs.
 */
import { execFile } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createGunzip } from 'node:zlib';

const run = promisify(execFile);
export const CACHE_DIR = fileURLToPath(new URL('./.cache/', import.meta.url));

export interface ManualSource {
  /** The short name questions.json and --manual use. */
  name: string;
  /** The title the manual is saved under, as an admin would type it. */
  title: string;
  kind: string;
  /** The Debian package, and the PDF's path inside it (a .gz is unpacked). */
  deb: string;
  file: string;
  /** The page count pdfinfo gives: a different package version fails the fetch instead of shifting pages. */
  pages: number;
}

export const MANUALS: ManualSource[] = [
  {
    name: 'avrdude',
    title: 'AVRDUDE 7.1 user manual',
    kind: 'hardware: AVR microcontroller programmers, fuses, troubleshooting',
    deb: 'avrdude-doc',
    file: 'usr/share/doc/avrdude/avrdude.pdf.gz',
    pages: 61,
  },
  {
    name: 'sdcc',
    title: 'SDCC Compiler User Guide',
    kind: 'software/programming: a C compiler for microcontrollers',
    deb: 'sdcc-doc',
    file: 'usr/share/doc/sdcc-doc/sdccman.pdf.gz',
    pages: 134,
  },
  {
    name: 'ngspice',
    title: 'Ngspice user manual (version 39)',
    kind: 'electronics: circuit simulator, device models, many parameter tables',
    deb: 'ngspice-doc',
    file: 'usr/share/doc/ngspice-doc/manual.pdf.gz',
    pages: 715,
  },
];

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

export async function pdfPageCount(path: string): Promise<number> {
  const { stdout } = await run('pdfinfo', [path]);
  return Number(/^Pages:\s+(\d+)/m.exec(stdout)?.[1]);
}

/** The manual's PDF in the cache, fetched and unpacked when missing. Idempotent. */
export async function fetchManual(manual: ManualSource, log: (message: string) => void): Promise<string> {
  const pdf = join(CACHE_DIR, `${manual.name}.pdf`);
  if (await exists(pdf)) return pdf;
  const debDir = join(CACHE_DIR, 'debs');
  await mkdir(debDir, { recursive: true });
  const debs = async () => (await readdir(debDir)).filter((n) => n.startsWith(`${manual.deb}_`) && n.endsWith('.deb'));
  if ((await debs()).length === 0) {
    log(`apt-get download ${manual.deb}`);
    await run('apt-get', ['download', manual.deb], { cwd: debDir }).catch(async () => {
      log('apt-get download failed; running apt-get update once');
      await run('apt-get', ['update']);
      await run('apt-get', ['download', manual.deb], { cwd: debDir });
    });
  }
  const deb = (await debs()).sort().at(-1)!;
  const unpacked = join(CACHE_DIR, 'unpacked', deb.replace(/\.deb$/, ''));
  if (!(await exists(unpacked))) {
    await mkdir(unpacked, { recursive: true });
    await run('dpkg-deb', ['-x', join(debDir, deb), unpacked]);
  }
  const source = join(unpacked, manual.file);
  const partial = `${pdf}.partial`;
  if (source.endsWith('.gz')) await pipeline(createReadStream(source), createGunzip(), createWriteStream(partial));
  else await pipeline(createReadStream(source), createWriteStream(partial));
  const pages = await pdfPageCount(partial);
  if (pages !== manual.pages)
    throw new Error(
      `${deb}: ${manual.file} has ${pages} pages, the questions expect ${manual.pages}; the package version changed`,
    );
  await rename(partial, pdf);
  return pdf;
}

/** Every manual (or those named), fetched. */
export async function fetchManuals(names: string[] | undefined, log: (message: string) => void) {
  const chosen = names?.length ? MANUALS.filter((m) => names.includes(m.name)) : MANUALS;
  if (names?.length && chosen.length !== names.length)
    throw new Error(`unknown manual; known: ${MANUALS.map((m) => m.name).join(', ')}`);
  const fetched: (ManualSource & { path: string })[] = [];
  for (const manual of chosen) fetched.push({ ...manual, path: await fetchManual(manual, log) });
  return fetched;
}
