import { isFieldAssistError } from '@fieldassist/client';

import { ALL_UNKNOWN, metadataFromFileName, UNKNOWN, type ExtractedMetadata } from '@/components/library/manual-metadata';
import { withRetries } from '@/components/library/with-retries';
import { client } from '@/lib/client';

// SPEC.md sections 5 and 9: the first 2,000 characters; 3 retries of the text (2 s base) and
// 5 of the AI call (3 s base), each doubling; then the file name, then all Unknown.
const TEXT_CHARS = 2000;
const TEXT_RETRIES = { retries: 3, baseMs: 2000 };
const AI_RETRIES = { retries: 5, baseMs: 3000 };

const SCHEMA = {
  type: 'object',
  properties: {
    title: { type: 'string', description: 'The title of the manual' },
    technology: { type: 'string', description: 'The equipment or trade it covers, e.g. HVAC, Refrigeration, Electrical' },
    datePublished: { type: 'string', description: 'The publication or revision date' },
    partNumber: { type: 'string', description: 'The part, document or model number' },
  },
  required: ['title', 'technology', 'datePublished'],
};

const PROMPT =
  "Read the cover page of a technical manual and give its title, technology, publication date and part number. Answer 'Unknown' for anything it does not say. Extract them from this text: ";

// The server's answers for a file whose text cannot be read at all.
const UNREADABLE = new Set(['UNREADABLE_DOCUMENT', 'EMPTY_DOCUMENT', 'UNSUPPORTED_FILE_TYPE', 'NO_TEXT_LAYER', 'DOCUMENT_ENCRYPTED', 'DOCUMENT_TOO_COMPLEX']);

export interface MetadataReading {
  metadata: ExtractedMetadata;
  /** Set when the file's text could not be read (corrupt, empty, scanned): the server says why. */
  unreadable?: string;
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : UNKNOWN);

async function readMetadata(fileUrl: string, fileName: string): Promise<MetadataReading> {
  const fromName = metadataFromFileName(fileName);
  let cover: string;
  try {
    cover = (await withRetries(() => client.data.extractFromUrl(fileUrl), TEXT_RETRIES)).slice(0, TEXT_CHARS);
    if (!cover.trim()) throw new Error('PDF content is empty');
  } catch (error) {
    console.warn('Reading the manual text failed; using the file name', error);
    const unreadable = !isFieldAssistError(error) || UNREADABLE.has(error.code) ? (error as Error).message : undefined;
    return { metadata: fromName, unreadable };
  }
  try {
    const { object } = await withRetries(() => client.ai.generateObject<Partial<ExtractedMetadata>>({ prompt: PROMPT + cover, schema: SCHEMA, fileName }), AI_RETRIES);
    const metadata = { title: text(object.title), technology: text(object.technology), datePublished: text(object.datePublished), partNumber: text(object.partNumber) };
    // An Unknown title falls back to the file name, with the part number it carries.
    if (metadata.title === UNKNOWN) return { metadata: { ...metadata, title: fromName.title, partNumber: metadata.partNumber === UNKNOWN ? fromName.partNumber : metadata.partNumber } };
    return { metadata };
  } catch (error) {
    console.warn('AI metadata extraction failed; using the file name', error);
    return { metadata: fromName.title === UNKNOWN ? ALL_UNKNOWN : fromName };
  }
}

/** Reads a stored manual's metadata with the SPEC.md retries and fallbacks; never throws. */
export function useManualMetadata() {
  return readMetadata;
}
