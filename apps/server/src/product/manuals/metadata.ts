import { setTimeout as sleep } from 'node:timers/promises';
import type { AiProvider, JsonObjectSchema } from '../../ai/provider.js';
import { ApiError } from '../../errors.js';
import { ALL_UNKNOWN, type ManualMetadata, metadataFromFileName, UNKNOWN } from './file-name.js';
import { extractManualMetadata } from './heuristics.js';

// SPEC.md sections 5 and 9: the first 2,000 characters of the text; 5 retries of the AI call on
// rate-limit errors (3 s base, doubling; the driver itself retries network errors); then the
// file name, then all Unknown.
export const COVER_CHARS = 2000;
const AI_RETRIES = 5;
const AI_RETRY_BASE_MS = 3000;

export const METADATA_SCHEMA: JsonObjectSchema = {
  type: 'object',
  properties: {
    title: { type: 'string', description: 'The title of the manual' },
    technology: {
      type: 'string',
      description: 'The equipment or trade it covers, e.g. HVAC, Refrigeration, Electrical',
    },
    datePublished: { type: 'string', description: 'The publication or revision date' },
    partNumber: { type: 'string', description: 'The part, document or model number' },
  },
  required: ['title', 'technology', 'datePublished'],
};

const PROMPT =
  "Read the cover page of a technical manual and give its title, technology, publication date and part number. Answer 'Unknown' for anything it does not say. Extract them from this text: ";

const retryable = (error: unknown) => error instanceof ApiError && error.code === 'RATE_LIMITED';
const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : UNKNOWN);

async function askModel(ai: AiProvider, cover: string, fileName: string): Promise<ManualMetadata> {
  for (let attempt = 0; ; attempt++) {
    try {
      const { object } = await ai.generateObject({ prompt: PROMPT + cover, schema: METADATA_SCHEMA, fileName });
      return {
        title: text(object.title),
        technology: text(object.technology),
        datePublished: text(object.datePublished),
        partNumber: text(object.partNumber),
      };
    } catch (error) {
      if (!retryable(error) || attempt >= AI_RETRIES) throw error;
      await sleep(AI_RETRY_BASE_MS * 2 ** attempt);
    }
  }
}

/**
 * A manual's metadata from the start of its text: the configured model when there is one, else
 * heuristics (the local provider writes nothing itself). An Unknown title or part number falls
 * back to the PARTNUMBER_name file name; a failed model call to the file name alone. Never throws.
 */
export async function readManualMetadata({
  ai,
  text: fullText,
  fileName,
  log,
}: {
  ai: AiProvider;
  text: string;
  fileName: string;
  log: (message: string) => void;
}): Promise<ManualMetadata> {
  const fromName = metadataFromFileName(fileName);
  const cover = fullText.slice(0, COVER_CHARS);
  let metadata: ManualMetadata;
  try {
    metadata = ai.kind === 'local' ? extractManualMetadata({ text: cover }) : await askModel(ai, cover, fileName);
  } catch (error) {
    log(`AI metadata extraction failed for ${fileName}; using the file name: ${(error as Error).message}`);
    return { ...ALL_UNKNOWN, ...fromName };
  }
  const orName = (value: string, fallback: string) => (value === UNKNOWN ? fallback : value);
  return {
    ...metadata,
    title: orName(metadata.title, fromName.title),
    partNumber: orName(metadata.partNumber, fromName.partNumber),
  };
}
