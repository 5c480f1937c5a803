import websocket from '@fastify/websocket';
import type { ServerFrame } from '@fieldassist/client/realtime-frames';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireSignedIn } from '../auth/caller.js';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError } from '../errors.js';
import { authorizeChannel } from './channels.js';
import type { RealtimeHub } from './hub.js';
import { serveSocket, type SocketDeps } from './socket.js';

export interface RealtimeRouteDeps extends SocketDeps {
  projectId: string;
}

const ZChannelQuery = z.object({ channel: z.string().min(1).max(128) });
const ZMessagesQuery = ZChannelQuery.extend({
  limit: z.coerce.number().int().min(1).max(1000).default(50),
  // Redis-stream style bounds: '-' and '+' are open; ids are exclusive.
  start: z.string().max(64).default('-'),
  end: z.string().max(64).default('+'),
});
const ZPublishBody = z.object({
  channel: z.string().min(1).max(128),
  type: z.string().min(1).max(128),
  data: z.unknown().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
const ZSocketQuery = z.object({ project_id: z.string().optional(), access_token: z.string().optional() });

// The caller is checked before the input, so a signed-out client learns nothing from a 400.
const signedIn = async (request: FastifyRequest) => requireSignedIn(request.caller);

const publisherId = (caller: { kind: string; userId?: string }) => (caller.kind === 'user' ? caller.userId : 'service');

/**
 * Realtime (PLATFORM_API.md section 8): the WebSocket at the root path (`/?project_id=`), and
 * REST publish, presence and history. A plain GET of `/` still gets the web app.
 */
export async function registerRealtimeRoutes(app: FastifyInstance, deps: RealtimeRouteDeps) {
  // No per-message compression: zlib contexts per socket cost memory without bound at scale.
  await app.register(websocket, { options: { maxPayload: 256 * 1024, perMessageDeflate: false } });
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const hub: RealtimeHub = deps.hub;

  typed.route({
    method: 'GET',
    url: '/',
    schema: { querystring: ZSocketQuery },
    handler: (_request, reply) => reply.callNotFound(),
    wsHandler: (socket, request) => {
      const { project_id: projectId, access_token: accessToken } = request.query as z.infer<typeof ZSocketQuery>;
      if (projectId !== undefined && projectId !== deps.projectId) {
        const refusal: ServerFrame = {
          type: 'error',
          payload: { error: `Project '${projectId.slice(0, 64)}' not found`, code: 'PROJECT_NOT_FOUND' },
        };
        socket.send(JSON.stringify(refusal));
        return socket.close(4404, 'Project not found');
      }
      serveSocket(socket, request.raw.socket, accessToken, deps);
    },
  });

  typed.post(
    '/api/realtime/:projectId/publish',
    { preValidation: signedIn, schema: { body: ZPublishBody } },
    async (request) => {
      const channel = authorizeChannel(request.caller, request.body.channel);
      const message = await hub.publish({
        ...request.body,
        channel,
        data: request.body.data ?? null,
        userId: publisherId(request.caller),
      });
      return { messageId: message.id, channel, timestamp: message.timestamp };
    },
  );

  typed.get(
    '/api/realtime/:projectId/presence',
    { preValidation: signedIn, schema: { querystring: ZChannelQuery } },
    async (request) => {
      const channel = authorizeChannel(request.caller, request.query.channel);
      const users = await hub.presence(channel);
      return { channel, users, count: users.length };
    },
  );

  typed.get(
    '/api/realtime/:projectId/messages',
    { preValidation: signedIn, schema: { querystring: ZMessagesQuery } },
    async (request) => {
      const channel = authorizeChannel(request.caller, request.query.channel);
      const bound = (value: string) => (value === '-' || value === '+' ? undefined : checkId(value));
      const { messages, hasMore } = await hub.history(channel, {
        after: bound(request.query.start),
        before: bound(request.query.end),
        limit: request.query.limit,
      });
      return { channel, messages, count: messages.length, hasMore };
    },
  );
}

function checkId(value: string): string {
  if (!/^\d{1,16}-\d{1,10}$/.test(value))
    throw new ApiError('INVALID_PARAMETER', "start and end must be message ids like '1700000000000-0', or '-' and '+'");
  return value;
}
