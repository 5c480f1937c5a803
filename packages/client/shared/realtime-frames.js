// Realtime's WebSocket frames (PLATFORM_API.md section 8): JSON text {"type", "payload"}. The
// server builds the frames it sends typed from these schemas and reads the envelope of what it
// receives with ZFrame (each handler checks its own fields, in the order its errors need); the
// client SDK reads every server frame through ZServerFrame and drops what does not fit. Plain
// JavaScript with its types beside it, as roles.js.
import { z } from 'zod';

const ZMetadata = z.record(z.string(), z.unknown());

/** A message as subscribers and the history receive it (PLATFORM_API.md 8.3). */
export const ZRealtimeMessage = z.object({
  /** `<ms>-<seq>`: in order within a channel, so a client can ask for what came after its last id. */
  id: z.string(),
  channel: z.string(),
  type: z.string(),
  data: z.unknown(),
  timestamp: z.number(),
  userId: z.string().optional(),
  metadata: ZMetadata.optional(),
});

/** One user present on a channel (several tabs of one user count once). */
export const ZPresenceUser = z.object({
  userId: z.string(),
  metadata: ZMetadata.optional(),
  joinedAt: z.number(),
  lastSeen: z.number(),
});

const frame = (type, payload) => z.object({ type: z.literal(type), payload });
const onChannel = (type) => frame(type, z.object({ channel: z.string() }));

/** Every frame the server sends (PLATFORM_API.md 8.3, and `authenticated`, the answer to our `auth`). */
export const ZServerFrame = z.discriminatedUnion('type', [
  frame('connected', z.object({ socketId: z.string() })),
  frame('authenticated', z.object({ userId: z.string() })),
  onChannel('subscribed'),
  onChannel('unsubscribed'),
  frame('message', ZRealtimeMessage),
  frame('presence', z.object({ channel: z.string(), data: z.object({ users: z.array(ZPresenceUser) }) })),
  frame('published', z.object({ channel: z.string(), messageId: z.string() })),
  frame('pong', z.object({})),
  frame('error', z.object({ error: z.string(), code: z.string(), channel: z.string().optional() })),
]);

/** Any frame's envelope, as the server reads a client's: a payload that is not an object reads as {}. */
export const ZFrame = z.object({
  type: z.string(),
  payload: ZMetadata.catch({}),
});

/** The frame in a WebSocket message's text, or undefined when it is not JSON or does not fit `schema`. */
export function parseFrame(schema, text) {
  let json;
  try {
    json = JSON.parse(String(text));
  } catch {
    return undefined;
  }
  const result = schema.safeParse(json);
  return result.success ? result.data : undefined;
}
