import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../../auth/caller.js';
import { ApiError } from '../../errors.js';
import { type AiTextPart, zeroUsage } from '../../ai/provider.js';
import { type UiMessagePart, uiMessageStreamHeaders } from '../../ai/ui-message-stream.js';
import { type ChatDeps, saveChatExchange, startChatAnswer } from './service.js';

export const ZChatBody = z
  .object({
    question: z.string().max(4000).default(''),
    imageUrl: z.url().max(2000).optional(),
  })
  .refine((body) => body.question.trim() !== '' || body.imageUrl, { message: 'Ask a question or attach a photo', path: ['question'] });
export type ChatBody = z.infer<typeof ZChatBody>;

/**
 * POST /api/app/{projectId}/chat: the grounded troubleshooting chat. Answers in the SSE framing
 * of PLATFORM_API.md 5.2, with a `data-sources` part (the manuals and pages the answer draws on)
 * before the text and a `data-message` part (the saved chatMessages id) after it.
 */
export function registerChatRoutes(app: FastifyInstance, deps: ChatDeps) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/app/:projectId/chat',
    {
      schema: { body: ZChatBody },
      config: { rateLimit: { max: 20, timeWindow: 60_000, keyGenerator: (request) => (request.caller.kind === 'user' ? request.caller.userId : request.ip) } },
      preValidation: async (request) => void requireUser(request.caller),
    },
    async (request, reply) => {
      const user = requireUser(request.caller);
      const turn = { user, question: request.body.question, imageUrl: request.body.imageUrl };
      const answer = await startChatAnswer(deps, turn);
      // The first part decides: a model that fails at once is an ordinary HTTP error.
      const parts = answer.parts[Symbol.asyncIterator]();
      const first = await parts.next().catch((error: unknown) => {
        request.log.warn({ err: error }, 'chat model failed before answering');
        throw error instanceof ApiError ? error : new ApiError('SERVICE_UNAVAILABLE', 'The AI provider is not answering; try again shortly');
      });

      // Not ai/ui-message-stream.ts's openUiMessageStream: that stream stops when the client goes
      // away, and a technician's phone losing signal must still get its answer saved.
      reply.hijack();
      const out = reply.raw;
      // A hijacked reply skips Fastify's own sending: carry over the headers set so far (CORS, request id).
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) out.setHeader(name, value);
      out.writeHead(200, uiMessageStreamHeaders);
      // The technician may close the app mid-answer: the answer is still completed and saved.
      const send = (part: UiMessagePart | '[DONE]') => {
        if (!out.destroyed && !out.writableEnded) out.write(`data: ${part === '[DONE]' ? part : JSON.stringify(part)}\n\n`);
      };
      send({ type: 'start', messageId: `msg_${Date.now()}` });
      send({ type: 'data-sources', data: answer.sources });
      send({ type: 'text-start', id: 't1' });
      let text = '';
      let finish: Extract<AiTextPart, { type: 'finish' }> | undefined;
      try {
        for (let step = first; !step.done; step = await parts.next()) {
          const part = step.value;
          if (part.type === 'text-delta') {
            text += part.delta;
            send({ type: 'text-delta', id: 't1', delta: part.delta });
          } else if (part.type === 'finish') finish = part;
        }
        send({ type: 'text-end', id: 't1' });
        const id = await saveChatExchange(deps.pool, turn, { text, sources: answer.sources });
        send({ type: 'data-message', data: { id } });
        send({ type: 'finish', finishReason: finish?.finishReason ?? 'stop', usage: finish?.usage ?? zeroUsage() });
      } catch (error) {
        request.log.warn({ err: error }, 'chat stream failed');
        send({ type: 'error', errorText: error instanceof ApiError ? error.message : 'The answer was interrupted; please ask again' });
      }
      send('[DONE]');
      out.end();
    },
  );
}
