import type { Role } from '../../auth/caller.js';
import type { AiTextPart } from '../../ai/provider.js';
import {
  PASSAGE_LIMIT,
  type Passage,
  type Retrieval,
  type RetrievalDeps,
  retrievePassages,
} from '../retrieval/retrieve.js';
import { canonical } from './identifiers.js';
import { type PhotoReading, describePhoto, problemLines } from './photo.js';

// How the understood photo shapes the answer: the passages come from the manual it names, and
// the answer opens with what was read. Kept apart from service.ts, which calls these.

/** Candidates fetched so that, once narrowed to the photo's manual, enough remain. */
const candidatesForOneManual = 24;

/**
 * The passages for a question asked with a photo, searched as photoSearch makes it, then narrowed
 * to the manual the photo names (when it has passages). A photo with no readable text and no typed
 * question has nothing to search with: no passages.
 * When the photo names a manual, its closest pages stand even below the relevance threshold:
 * the unit is identified, so its manual is the place to look.
 */
export async function retrieveForPhoto(
  deps: RetrievalDeps,
  { searched, typed, role, photo }: { searched: string; typed: boolean; role: Role | null; photo: PhotoReading },
): Promise<Retrieval> {
  if (!photo.text && !typed) return { passages: [], relevant: true, suggestions: [] };
  const found = await retrievePassages(deps, {
    question: searched,
    role,
    limit: photo.manual ? candidatesForOneManual : undefined,
  });
  const passages = found.relevant ? found.passages : photo.manual ? found.suggestions : [];
  const scoped = photo.manual ? passages.filter((passage) => passage.manualId === photo.manual!.manualId) : [];
  if (!found.relevant && scoped.length === 0) return found;
  // Every page of the unit's manual names the model: the pages that name the error on the display come first.
  const errors = photo.identifiers
    .filter((identifier) => identifier.kind === 'error')
    .map((identifier) => canonical(identifier.value));
  const namesError = (passage: Passage) =>
    passage.text.split(/[^A-Za-z0-9-]+/).some((word) => errors.includes(canonical(word)));
  const ranked = (scoped.length > 0 ? scoped : passages).map((passage, rank) => ({
    passage,
    rank,
    first: namesError(passage),
  }));
  const best = ranked
    .sort((a, b) => Number(b.first) - Number(a.first) || a.rank - b.rank)
    .slice(0, PASSAGE_LIMIT)
    .map(({ passage }) => passage);
  return { passages: best, relevant: true, suggestions: [] };
}

// Measured values and addresses (time 0.00152357, 1.25e-20, vid=0x16c0) are this run's, not words a manual holds.
const measured = /\b(?:0x[0-9a-f]+|\d*\.\d+(?:e[-+]?\d+)?|\d+e[-+]?\d+)\b/gi;

/**
 * What a question with a photo is searched with: the typed question, then of the photo's text
 * the lines that report a problem (an error screen's messages, without the command line and
 * progress bars around them) or else its whole text (a nameplate), then its model, part and error
 * codes. Searching the codes alone left an error screen with no model number without words of its own.
 */
export function photoSearch({ question, typed, photo }: { question: string; typed: boolean; photo: PhotoReading }) {
  const problems = problemLines(photo.text);
  const read = (problems.length > 0 ? problems.join(' ') : photo.text).replace(measured, ' ');
  const codes = photo.identifiers
    .filter((identifier) => identifier.kind !== 'serial')
    .map((identifier) => identifier.value);
  // An untyped question is our own words ("What is wrong with the equipment..."): only the photo's are searched, when it has some.
  return [typed || !read ? question : '', read, ...codes].join(' ').replace(/\s+/g, ' ').trim();
}

/** What the model is told of the photo, after the question: the text read from it and what it names. */
export function photoPromptNote(photo: PhotoReading): string {
  if (!photo.text) return '\n\nThe technician attached a photo; no text could be read from it by OCR.';
  return `\n\nThe technician attached a photo. Text read from it by OCR (it may contain reading errors):\n"""\n${photo.text}\n"""\n${describePhoto(photo)}\nStart from that identification and answer for that unit.`;
}

/**
 * The model's answer with the photo's identification line in front (when text was read: the
 * model sees the image itself, so "no text" is not said for it). The model's first part is
 * awaited before the line is given, so a model that fails at once still fails before the stream opens.
 */
export async function* withPhotoLead(photo: PhotoReading, parts: AsyncIterable<AiTextPart>): AsyncIterable<AiTextPart> {
  if (!photo.text) return yield* parts;
  const iterator = parts[Symbol.asyncIterator]();
  const first = await iterator.next();
  yield { type: 'text-delta', delta: `${describePhoto(photo)}\n\n` };
  if (first.done) return;
  yield first.value;
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
}
