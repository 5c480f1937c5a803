import chardet from 'chardet';
import iconv from 'iconv-lite';

// chardet's guesses between the single-byte Latin code pages are weak on short texts
// ('naïve café' comes out as ISO-8859-2); below this confidence Windows-1252 wins.
const latinFamily = /^(ISO-8859-\d+|windows-125\d)$/i;
const trustedConfidence = 80;

function fromBom(bytes: Buffer): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return bytes.subarray(3).toString('utf8');
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return iconv.decode(bytes.subarray(2), 'utf-16le');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return iconv.decode(bytes.subarray(2), 'utf-16be');
  return undefined;
}

function strictUtf8(bytes: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The charset for bytes that are not UTF-8: chardet's guess when it is sure, else Windows-1252. */
export function guessLegacyCharset(bytes: Buffer): string {
  const best = chardet.analyse(bytes.subarray(0, 256 * 1024))[0];
  if (!best || !iconv.encodingExists(best.name)) return 'windows-1252';
  // Windows-1252 is a superset of Latin-1 for text: it also maps 0x80-0x9F (€, curly quotes).
  if (/^ISO-8859-1$/i.test(best.name)) return 'windows-1252';
  if (latinFamily.test(best.name) && best.confidence < trustedConfidence) return 'windows-1252';
  return best.confidence >= 50 ? best.name : 'windows-1252';
}

/**
 * Decodes a plain-text file: UTF-8 (with or without BOM), UTF-16 with a BOM, or a legacy
 * single-byte charset (Windows-1252 / Latin-1 and others chardet recognises with confidence).
 */
export function decodeText(bytes: Buffer): string {
  return fromBom(bytes) ?? strictUtf8(bytes) ?? iconv.decode(bytes, guessLegacyCharset(bytes));
}

/**
 * Tidies extracted text for storage and search: no NUL or other control characters
 * (PostgreSQL text cannot hold NUL), single spaces inside a line, a line's indentation kept
 * (a command or code listing needs it; a tab counts four spaces), no trailing spaces, at most
 * one blank line.
 */
export function cleanText(text: string): string {
  return (
    text
      .replace(/\r\n?/g, '\n')
      // eslint-disable-next-line no-control-regex -- removing control characters is the point
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '')
      .replace(/(?<=\S)[^\S\n]+/g, ' ')
      .replace(/[^\S\n]+$/gm, '')
      .replace(/^[^\S\n]+/gm, (indent) =>
        ' '.repeat(
          Math.min(
            40,
            [...indent].reduce((n, c) => n + (c === '\t' ? 4 : 1), 0),
          ),
        ),
      )
      .replace(/\n{3,}/g, '\n\n')
      .replace(/^\n+|\s+$/g, '')
  );
}
