import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../../auth/caller.js';
import { ApiError } from '../../errors.js';
import { openUiMessageStream, uiMessageStreamHeaders } from '../../ai/ui-message-stream.js';
import { type ChatDeps, saveChatExchange, startChatAnswer } from './service.js';

export const ZChatBody = z
  .object({
    question: z.string().max(4000).default(''),
    imageUrl: z.url().max(2000).optional(),
    /** The text read from the photo as the user corrected it (sent back with the same imageUrl). */
    photoText: z.string().max(2000).optional(),
  })
  .refine((body) => body.question.trim() !== '' || body.imageUrl, {
    message: 'Ask a question or attach a photo',
    path: ['question'],
  })
  .refine((body) => body.photoText === undefined || body.imageUrl, {
    message: 'The corrected photo text needs its photo (imageUrl)',
    path: ['photoText'],
  });
export type ChatBody = z.infer<typeof ZChatBody>;

/**
 * POST /api/app/{projectId}/chat: the grounded troubleshooting chat. Answers in the SSE framing
 * of PLATFORM_API.md 5.2, with a `data-photo` part (with a photo: the text read from it, its
 * identifiers and manual), a `data-sources` part (the manuals and pages the answer draws on) and,
 * when the manuals hold no answer, a `data-suggestions` part (the closest pages, which the text
 * lists as suggestions) before the text, and a `data-message` part (the saved chatMessages id) after it.
 */
export function registerChatRoutes(
  app: FastifyInstance,
  { rateLimit, ...deps }: ChatDeps & { rateLimit: preHandlerAsyncHookHandler },
) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/app/:projectId/chat',
    {
      schema: { body: ZChatBody },
      // Signed in (401), then the AI budget it shares with the AI routes (429), then the body (400).
      preValidation: [async (request) => void requireUser(request.caller), rateLimit],
    },
    async (request, reply) => {
      const user = requireUser(request.caller);
      const turn = {
        user,
        question: request.body.question,
        imageUrl: request.body.imageUrl,
        photoText: request.body.photoText,
      };
      const answer = await startChatAnswer(deps, turn);
      const stream = await openUiMessageStream(answer.parts, {
        before: [
          ...(answer.photo ? [{ type: 'data-photo' as const, data: answer.photo }] : []),
          { type: 'data-sources', data: answer.sources },
          ...(answer.suggestions.length > 0 ? [{ type: 'data-suggestions' as const, data: answer.suggestions }] : []),
        ],
        onFinish: async ({ text }) => [
          {
            type: 'data-message',
            data: {
              id: await saveChatExchange(deps.pool, turn, {
                text,
                sources: answer.sources,
                suggestions: answer.suggestions,
                photo: answer.photo,
              }),
            },
          },
        ],
        onError: (error) => request.log.warn({ err: error }, 'chat stream failed'),
        errorText: 'The answer was interrupted; please ask again',
        // The technician may close the app or lose signal mid-answer: the answer is still completed and saved.
        runToEnd: true,
      }).catch((error: unknown) => {
        // The first part decides: a model that fails at once is an ordinary HTTP error.
        request.log.warn({ err: error }, 'chat model failed before answering');
        throw error instanceof ApiError
          ? error
          : new ApiError('SERVICE_UNAVAILABLE', 'The AI provider is not answering; try again shortly');
      });
      return reply.headers(uiMessageStreamHeaders).send(stream);
    },
  );
}
