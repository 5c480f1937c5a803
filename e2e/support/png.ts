import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real PNG: a `size`-pixel square, a diagonal gradient from `from` to `to` (RGB). */
export function makePng({
  size = 96,
  from = [37, 99, 235],
  to = [16, 185, 129],
}: { size?: number; from?: number[]; to?: number[] } = {}): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const rows: number[] = [];
  for (let y = 0; y < size; y++) {
    rows.push(0); // filter: none
    for (let x = 0; x < size; x++) {
      const t = (x + y) / (2 * (size - 1));
      for (let c = 0; c < 3; c++) rows.push(Math.round(from[c]! + (to[c]! - from[c]!) * t));
    }
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Writes a file to the temp folder for a file input, and returns its path. */
export async function writeTempFile(name: string, bytes: Buffer | string): Promise<string> {
  const path = join(tmpdir(), `fa-e2e-${process.pid}-${name}`);
  await writeFile(path, bytes);
  return path;
}
