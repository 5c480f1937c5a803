import { describe, expect, it } from 'vitest';
import { detectFile } from './file-type.js';
import { PNG } from './test-support/fixtures.js';

const PDF = Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n', 'latin1');
const OLE = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(600)]);
const text = (s: string) => Buffer.from(s, 'utf8');

describe('detectFile', () => {
  it.each([
    ['a PNG named .pdf becomes .png', PNG, 'pump.pdf', 'pump.png', 'image/png'],
    ['a PNG without extension gets one', PNG, 'photo', 'photo.png', 'image/png'],
    ['a PDF keeps its name', PDF, 'Pump manual.pdf', 'Pump manual.pdf', 'application/pdf'],
    [
      '.JPEG stays for a JPEG',
      Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'),
      'x.JPEG',
      'x.JPEG',
      'image/jpeg',
    ],
    ['an OLE file named .doc stays a .doc', OLE, 'old.doc', 'old.doc', 'application/msword'],
    ['an OLE file named .png becomes a .doc, as the client does', OLE, 'old.png', 'old.doc', 'application/msword'],
    [
      'UTF-8 text named .txt',
      text('Torque: 12 Nm — check the seal.\n'),
      'notes.txt',
      'notes.txt',
      'text/plain; charset=utf-8',
    ],
    ['text named .pdf becomes .txt', text('not a pdf'), 'fake.pdf', 'fake.txt', 'text/plain; charset=utf-8'],
    ['text without extension gets .txt', text('hello'), 'readme', 'readme.txt', 'text/plain; charset=utf-8'],
    [
      'text with an unknown extension keeps it',
      text('a: 1\n'),
      'config.yaml',
      'config.yaml',
      'text/plain; charset=utf-8',
    ],
    [
      'Latin-1 text has no charset (the reader guesses)',
      Buffer.from('caf\xe9\n', 'latin1'),
      'menu.txt',
      'menu.txt',
      'text/plain',
    ],
    [
      'HTML is text/html, never trusted from the client',
      text('<!doctype html><script>alert(1)</script>'),
      'page.html',
      'page.html',
      'text/html; charset=utf-8',
    ],
    [
      'SVG is image/svg+xml',
      text('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      'pic.svg',
      'pic.svg',
      'image/svg+xml; charset=utf-8',
    ],
    [
      'SVG with an XML prologue stays .svg',
      text('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"></svg>'),
      'pic.svg',
      'pic.svg',
      'image/svg+xml',
    ],
    [
      'unknown binary named .png becomes .bin',
      Buffer.from([0, 1, 2, 3, 250, 251]),
      'x.png',
      'x.bin',
      'application/octet-stream',
    ],
    [
      'unknown binary with its own extension keeps it',
      Buffer.from([0, 1, 2, 3, 250, 251]),
      'dump.raw',
      'dump.raw',
      'application/octet-stream',
    ],
    ['an empty file keeps its name', Buffer.alloc(0), 'empty.pdf', 'empty.pdf', 'application/octet-stream'],
    ['an empty .txt is text', Buffer.alloc(0), 'empty.txt', 'empty.txt', 'text/plain'],
  ])('%s', async (_name, head, fileName, expectedName, contentType) => {
    expect(await detectFile(head, fileName)).toEqual({ fileName: expectedName, contentType });
  });
});
