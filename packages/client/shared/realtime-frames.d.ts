import type { z } from 'zod';

/** A message as subscribers and the history receive it (PLATFORM_API.md 8.3); ids are in order within a channel. */
export interface RealtimeMessage {
  /** `<ms>-<seq>`: in order within a channel, so a client can ask for what came after its last id. */
  id: string;
  channel: string;
  type: string;
  data: unknown;
  timestamp: number;
  userId?: string;
  metadata?: Record<string, unknown>;
}

/** One user present on a channel (several tabs of one user count once). */
export interface PresenceUser {
  userId: string;
  metadata?: Record<string, unknown>;
  joinedAt: number;
  lastSeen: number;
}

/** Every frame the server sends (PLATFORM_API.md 8.3, and `authenticated`, the answer to our `auth`). */
export type ServerFrame =
  | { type: 'connected'; payload: { socketId: string } }
  | { type: 'authenticated'; payload: { userId: string } }
  | { type: 'subscribed' | 'unsubscribed'; payload: { channel: string } }
  | { type: 'message'; payload: RealtimeMessage }
  | { type: 'presence'; payload: { channel: string; data: { users: PresenceUser[] } } }
  | { type: 'published'; payload: { channel: string; messageId: string } }
  | { type: 'pong'; payload: Record<string, never> }
  | { type: 'error'; payload: { error: string; code: string; channel?: string } };

/** Every frame the client sends (PLATFORM_API.md 8.2, and `auth`, ours). The server checks each field itself. */
export type ClientFrame =
  | { type: 'auth'; payload: { token: string } }
  | { type: 'subscribe'; payload: { channel: string; metadata?: Record<string, unknown>; lastId?: string } }
  | { type: 'unsubscribe'; payload: { channel: string } }
  | { type: 'publish'; payload: { channel: string; type: string; data: unknown; metadata?: Record<string, unknown> } }
  | { type: 'ping'; payload: Record<string, never> };

/** Any frame's envelope. */
export interface Frame {
  type: string;
  payload: Record<string, unknown>;
}

export declare const ZRealtimeMessage: z.ZodType<RealtimeMessage>;
export declare const ZPresenceUser: z.ZodType<PresenceUser>;
export declare const ZServerFrame: z.ZodType<ServerFrame>;
export declare const ZFrame: z.ZodType<Frame>;
export declare function parseFrame<T>(schema: z.ZodType<T>, text: unknown): T | undefined;
