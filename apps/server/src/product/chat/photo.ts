import type pg from 'pg';
import type { Role } from '../../auth/caller.js';
import { ApiError } from '../../errors.js';
import { findIdentifiers, type Identifier } from './identifiers.js';
import { type IdentifiedManual, matchManual } from './match-manual.js';

/** What the chat understood of a photo: the text read from it, what that text names, and its manual. */
export interface PhotoReading {
  /** The text read by OCR, or as the user corrected it. '' when the photo holds no readable text. */
  text: string;
  identifiers: Identifier[];
  manual: IdentifiedManual | null;
}

/** The longest photo text that is used: a nameplate or a display, not a page of a book. */
const maxPhotoText = 2000;

/**
 * Reads the photo's text (or takes the user's correction of it), picks out its model, part and
 * serial numbers and error codes, and finds the manual they point to among those `role` may read.
 */
export async function understandPhoto(
  deps: { pool: pg.Pool; readPhotoText: (bytes: Uint8Array) => Promise<string> },
  { bytes, correctedText, role }: { bytes: Uint8Array; correctedText?: string; role: Role | null },
): Promise<PhotoReading> {
  // A photo too large or too slow to read is said to have no readable text, like a blurred one.
  const read =
    correctedText ??
    (await deps.readPhotoText(bytes).catch((error: unknown) => {
      if (error instanceof ApiError && error.code === 'DOCUMENT_TOO_COMPLEX') return '';
      throw error;
    }));
  const text = read.trim().slice(0, maxPhotoText);
  const identifiers = findIdentifiers(text);
  const manual = (await matchManual(deps.pool, { identifiers, role })) ?? null;
  return { text, identifiers, manual };
}

// A line of a screen or display that reports a problem: an error, a warning, a failed check.
const problemWords =
  /\b(?:error|warning|fail(?:s|ed|ure)?|fault|alarm|abort(?:s|ed)?|invalid|cannot|can't|could not|not responding|not found|no such|unable|denied|refused|timed? ?out|too (?:small|large|big|many|long)|overflow|short|singular|undefined|missing|illegal|unknown|yikes)\b/i;

// A message goes on over the lines after it (wrapped, or its advice indented under it) up to the
// next message: a problem line, a "program:" or "file.c:42:" prefix, a prompt, or the program's own
// next line ("avrdude done.").
const maxContinuation = 2;
const startsMessage = /^(?:[\w./?-]+:|[$#>%])/;
const wrapsOnto = (message: string, next: string) =>
  !problemWords.test(next) && !startsMessage.test(next) && next.split(/\W/)[0] !== message.split(/\W/)[0];

/**
 * The messages of the photo's text that report a problem (an error screen's errors and warnings),
 * in their order, each with the lines it wraps onto; at most `limit`.
 */
export function problemLines(text: string, limit = 4): string[] {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const messages: string[] = [];
  lines.forEach((line, i) => {
    if (!problemWords.test(line)) return;
    let message = line;
    for (const next of lines.slice(i + 1, i + 1 + maxContinuation)) {
      if (!wrapsOnto(message, next)) break;
      message += ` ${next}`;
    }
    messages.push(message);
  });
  return [...new Set(messages)].slice(0, limit);
}

/**
 * The answer's first line: what was read and which manual it names, e.g.
 * "From the photo: model XR-200, error E4 -> Chiller XR-200 Service Manual".
 */
export function describePhoto(reading: PhotoReading): string {
  if (!reading.text) {
    return 'I could not read any text in this photo, so I cannot tell which unit it shows. Please type the model number from its nameplate, or describe the unit and what it is doing.';
  }
  // An error screen names its problem in words, not by a model number: that message is what was understood.
  const [message] = problemLines(reading.text);
  if (message && !reading.manual) return `From the photo: "${message}"`;
  if (reading.identifiers.length === 0) {
    return 'From the photo: no model, part number or error code could be made out in the text read from it. Please type the model number from its nameplate, or correct the text read from the photo and ask again.';
  }
  const named = reading.identifiers.map((identifier) => `${identifier.kind} ${identifier.value}`).join(', ');
  return reading.manual
    ? `From the photo: ${named} -> ${reading.manual.title}`
    : `From the photo: ${named} -> no manual in your library matches this.`;
}
