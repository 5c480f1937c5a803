import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireSignedIn } from '../auth/caller.js';
import { decodeAudioInput } from './audio-input.js';
import { type AiProvider, speechMimeTypes, type StreamTextInput } from './provider.js';
import {
  checkImageBody,
  checkObjectBody,
  checkSpeechBody,
  checkTextBody,
  type TextBody,
  ZImageBody,
  ZObjectBody,
  ZSpeechBody,
  ZTextBody,
  ZTranscribeBody,
} from './schemas.js';
import { openUiMessageStream, uiMessageStreamHeaders } from './ui-message-stream.js';

export interface AiRouteDeps {
  provider: AiProvider;
  /** The per-user budget (createAiRateLimit), shared with the chat. */
  rateLimit: preHandlerAsyncHookHandler;
  config: {
    /** AI_MAX_OUTPUT_TOKENS: the default and the ceiling of a request's `maxTokens`. */
    aiMaxOutputTokens: number;
  };
}

/**
 * One budget per signed-in user across every route that calls the model (the AI routes and
 * the chat): AI_RATE_LIMIT_PER_MINUTE calls a minute. Runs after the caller is known.
 */
export function createAiRateLimit(app: FastifyInstance, perMinute: number): preHandlerAsyncHookHandler {
  return app.rateLimit({
    max: perMinute,
    timeWindow: 60_000,
    keyGenerator: (request: FastifyRequest) =>
      request.caller.kind === 'user' ? `ai:${request.caller.userId}` : `ai-ip:${request.ip}`,
    // Server-side jobs with the service key are not a user to protect the quota from.
    allowList: (request: FastifyRequest) => request.caller.kind === 'service',
  });
}

/** Transcription audio arrives as a JSON array of byte values, 3 to 4 bytes per audio byte. */
const TRANSCRIBE_BODY_LIMIT = 30 * 1024 * 1024;

async function signedIn(request: FastifyRequest) {
  requireSignedIn(request.caller);
}

/** Aborted when the client goes away, so the upstream call stops with it. */
function clientSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.on('close', () => controller.abort());
  return controller.signal;
}

function textInput(body: TextBody, maxOutputTokens: number, signal: AbortSignal): StreamTextInput {
  const messages = body.messages?.length ? body.messages : [{ role: 'user' as const, content: body.prompt! }];
  const maxTokens = Math.min(body.maxTokens ?? maxOutputTokens, maxOutputTokens);
  return { system: body.system, messages, maxTokens, temperature: body.temperature, signal };
}

/**
 * POST /api/ai/{pid}/text, object, image, speech and transcribe (PLATFORM_API.md section 5),
 * for signed-in users and the service key, limited per user. The server's configured model
 * always answers: a `model` in the body is ignored.
 */
export function registerAiRoutes(app: FastifyInstance, { provider, rateLimit, config }: AiRouteDeps) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  // Signed in first (401), then the budget (429), then the body (400).
  const guards = [signedIn, rateLimit];

  typed.post(
    '/api/ai/:projectId/text',
    { preValidation: guards, schema: { body: ZTextBody } },
    async (request, reply) => {
      checkTextBody(request.body);
      const input = textInput(request.body, config.aiMaxOutputTokens, clientSignal(reply));
      if (!request.body.stream) return provider.generateText(input);
      const onError = (error: unknown) => {
        if (!input.signal?.aborted) request.log.warn({ err: error }, 'AI text stream failed after it opened');
      };
      const stream = await openUiMessageStream(provider.streamText(input), { onError });
      return reply.headers(uiMessageStreamHeaders).send(stream);
    },
  );

  typed.post(
    '/api/ai/:projectId/object',
    { preValidation: guards, schema: { body: ZObjectBody } },
    async (request, reply) => {
      const body = request.body;
      checkObjectBody(body);
      const result = await provider.generateObject({
        prompt: body.prompt,
        schema: body.schema,
        system: body.system,
        fileName: body.fileName,
        signal: clientSignal(reply),
      });
      // PLATFORM_API.md 5.4: a streamed object is the bare JSON text of the final object.
      if (body.stream) return reply.type('text/plain; charset=utf-8').send(JSON.stringify(result.object));
      return result;
    },
  );

  typed.post(
    '/api/ai/:projectId/image',
    { preValidation: guards, schema: { body: ZImageBody } },
    async (request, reply) => {
      const body = request.body;
      checkImageBody(body);
      const size = body.size as `${number}x${number}` | undefined;
      const { urls } = await provider.generateImage({
        prompt: body.prompt,
        n: body.n,
        size,
        images: body.images,
        signal: clientSignal(reply),
      });
      return { data: urls.map((url) => ({ url })), created: Math.floor(Date.now() / 1000) };
    },
  );

  typed.post(
    '/api/ai/:projectId/speech',
    { preValidation: guards, schema: { body: ZSpeechBody } },
    async (request, reply) => {
      const body = request.body;
      checkSpeechBody(body);
      const format = body.response_format;
      const { url } = await provider.generateSpeech({
        text: body.text,
        voice: body.voice,
        format,
        speed: body.speed,
        signal: clientSignal(reply),
      });
      return { url, voice: body.voice, format, mimeType: speechMimeTypes[format] };
    },
  );

  typed.post(
    '/api/ai/:projectId/transcribe',
    { preValidation: guards, bodyLimit: TRANSCRIBE_BODY_LIMIT, schema: { body: ZTranscribeBody } },
    async (request, reply) => {
      const audio = decodeAudioInput(request.body.audio);
      const result = await provider.transcribe({ audio, language: request.body.language, signal: clientSignal(reply) });
      return {
        text: result.text,
        transcript: result.text,
        language: result.language,
        duration: result.durationInSeconds,
        segments: result.segments,
      };
    },
  );
}
