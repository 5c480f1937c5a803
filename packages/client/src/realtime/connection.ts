import { type ClientFrame, parseFrame, type ServerFrame, ZServerFrame } from '@fieldassist/client/realtime-frames';
import { FieldAssistRealtimeError } from '../errors.js';
import { CONNECT_TIMEOUT_MS, PING_INTERVAL_MS, reconnectDelay } from './timing.js';
import type { RealtimeState, WebSocketFactory, WebSocketLike } from './types.js';

export interface ConnectionOptions {
  /** ws(s)://host/?project_id=... */
  url: string;
  createSocket: WebSocketFactory;
  getAccessToken: () => Promise<string | null | undefined>;
  onFrame: (frame: ServerFrame) => void;
  /** Called after every (re)authenticated open, to join the channels again. */
  onReady: () => void;
  /** Called when the socket closes; pending acknowledgements fail with `error`. */
  onLost: (error: FieldAssistRealtimeError) => void;
  /** Whether to reconnect after a close (true while channels are joined). */
  wantsConnection: () => boolean;
  onState: (state: RealtimeState) => void;
  random?: () => number;
}

export const realtimeError = (message: string, code: string) =>
  new FieldAssistRealtimeError({ message, code, status: 0 });
const OPEN = 1;

/**
 * One WebSocket, authenticated with an `auth` frame (so the token never appears in a URL or a
 * log), kept alive with a ping every 25 s and reopened with back-off while it is wanted.
 */
export function createConnection(options: ConnectionOptions) {
  let socket: WebSocketLike | undefined;
  let ready: Promise<void> | undefined;
  let attempt = 0;
  let ping: ReturnType<typeof setInterval> | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let closedByUs = false;

  function open(): Promise<void> {
    closedByUs = false;
    options.onState('connecting');
    return new Promise<void>((resolve, reject) => {
      const ws = options.createSocket(options.url);
      socket = ws;
      let authenticated = false;
      const fail = (error: FieldAssistRealtimeError) => {
        clearTimeout(timer);
        reject(error);
        ws.close();
      };
      const timer = setTimeout(
        () => fail(realtimeError('Connection timeout - the realtime server did not answer', 'TIMEOUT')),
        CONNECT_TIMEOUT_MS,
      );
      ws.onopen = () => {
        void options.getAccessToken().then((token) => {
          if (!token) return fail(realtimeError('Authentication required: sign in to use realtime', 'UNAUTHORIZED'));
          ws.send(JSON.stringify({ type: 'auth', payload: { token } }));
        }, fail);
      };
      ws.onmessage = (event) => {
        // What does not fit PLATFORM_API.md 8.3's frames is dropped, as a frame that is not JSON.
        const frame = parseFrame(ZServerFrame, event.data);
        if (!frame) return;
        if (frame.type === 'authenticated') {
          authenticated = true;
          clearTimeout(timer);
          attempt = 0;
          ping = setInterval(() => send({ type: 'ping', payload: {} }), PING_INTERVAL_MS);
          options.onState('connected');
          resolve();
          options.onReady();
        } else if (frame.type === 'error' && !authenticated) {
          fail(realtimeError(frame.payload.error, frame.payload.code));
        }
        options.onFrame(frame);
      };
      ws.onerror = () => undefined; // the close that follows says what happened
      ws.onclose = () => {
        clearTimeout(timer);
        clearInterval(ping);
        if (socket === ws) {
          socket = undefined;
          ready = undefined;
        }
        reject(realtimeError('Connection closed', 'CONNECTION_CLOSED'));
        options.onLost(realtimeError('Connection closed', 'CONNECTION_CLOSED'));
        options.onState('disconnected');
        if (!closedByUs && options.wantsConnection()) scheduleReconnect();
      };
    });
  }

  function scheduleReconnect() {
    clearTimeout(retry);
    const delay = reconnectDelay(attempt++, options.random);
    retry = setTimeout(() => void connect().catch(() => undefined), delay); // a failed try closes and schedules the next
  }

  /** Resolves once the socket is open and authenticated, opening it if needed. */
  function connect(): Promise<void> {
    if (!ready) {
      ready = open();
      ready.catch(() => (ready = undefined));
    }
    return ready;
  }

  function send(frame: ClientFrame): boolean {
    if (!socket || socket.readyState !== OPEN) return false;
    socket.send(JSON.stringify(frame));
    return true;
  }

  function close() {
    closedByUs = true;
    clearTimeout(retry);
    socket?.close(1000, 'Closed by the client');
  }

  return { connect, send, close };
}
