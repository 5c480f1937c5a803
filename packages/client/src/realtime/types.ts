import type { PresenceUser, RealtimeMessage } from '@fieldassist/client/realtime-frames';

export type { PresenceUser, RealtimeMessage };

/** The connection as an app sees it (issue: disconnected, connecting, connected, subscribed). */
export type RealtimeState = 'disconnected' | 'connecting' | 'connected' | 'subscribed';

export interface RealtimeChannel {
  readonly name: string;
  /** Resolves with the message id once the server has it; rejects after 10 s without an answer. */
  publish(type: string, data: unknown, options?: { metadata?: Record<string, unknown> }): Promise<string>;
  /** Called with everyone present whenever that changes. */
  onPresence(listener: (users: PresenceUser[]) => void): () => void;
  unsubscribe(): Promise<void>;
}

export interface RealtimeClient {
  readonly state: RealtimeState;
  onStateChange(listener: (state: RealtimeState) => void): () => void;
  /**
   * Joins a channel (connecting first if needed; 10 s time-outs). After a lost connection the
   * client reconnects, joins again and first receives the messages it missed.
   */
  subscribe(
    channel: string,
    onMessage: (message: RealtimeMessage) => void,
    options?: { metadata?: Record<string, unknown> },
  ): Promise<RealtimeChannel>;
  presence(channel: string): Promise<PresenceUser[]>;
  history(channel: string, options?: { limit?: number; after?: string; before?: string }): Promise<RealtimeMessage[]>;
  /** Leaves every channel and closes the socket. */
  close(): void;
}

/** The part of the browser's WebSocket the client uses (Node's `ws` fits too). */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
}

export type WebSocketFactory = (url: string) => WebSocketLike;
