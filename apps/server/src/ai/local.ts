// The default driver: no network, no model. It writes no answers of its own (the chat
// answers with the retrieved manual passages instead, see `kind`), fills objects with
// placeholders (a manual's metadata is read by product/manuals, which knows this provider
// writes nothing), and refuses images, speech and transcription with a clear 503.
import { type AiProvider, type AiTextPart, collectText, noProviderError, zeroUsage } from './provider.js';

/** The whole answer of the generic text endpoint when no model is configured. */
export const NO_MODEL_ANSWER =
  'No AI model is configured on this server, so this answer was not written by a model. ' +
  'An administrator can connect one by setting AI_BASE_URL (with AI_API_KEY and AI_MODEL).';

async function* fixedAnswer(): AsyncGenerator<AiTextPart> {
  // Streamed in word-sized pieces, so a client sees the same framing as with a model.
  for (const piece of NO_MODEL_ANSWER.match(/\S+\s*/g) ?? []) yield { type: 'text-delta', delta: piece };
  yield { type: 'finish', finishReason: 'stop', usage: zeroUsage() };
}

const UNKNOWN = 'Unknown';

type SchemaNode = {
  type?: unknown;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  properties?: Record<string, unknown>;
  required?: string[];
};

/** A placeholder of the schema's type: 'Unknown', 0, false, [], or an object of its required properties. */
export function placeholderFor(schema: SchemaNode): unknown {
  if ('const' in schema) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((t) => t !== 'null') ?? types[0];
  switch (type) {
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'null':
      return null;
    case 'object':
      return Object.fromEntries(
        (schema.required ?? []).map((key) => [key, placeholderFor((schema.properties?.[key] ?? {}) as SchemaNode)]),
      );
    default:
      return UNKNOWN;
  }
}

export function createLocalProvider(): AiProvider {
  return {
    kind: 'local',
    streamText: () => fixedAnswer(),
    generateText: () => collectText(fixedAnswer()),
    async generateObject({ schema }) {
      const object = placeholderFor({ ...schema, type: 'object' }) as Record<string, unknown>;
      return { object, finishReason: 'stop', usage: zeroUsage() };
    },
    generateImage: async () => {
      throw noProviderError();
    },
    generateSpeech: async () => {
      throw noProviderError();
    },
    transcribe: async () => {
      throw noProviderError();
    },
  };
}
