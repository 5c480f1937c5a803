import { WebSocket } from 'ws';

export interface Frame {
  type: string;
  payload: Record<string, unknown>;
}

/**
 * A raw WebSocket client of the realtime protocol that keeps every frame it receives, so a
 * test can wait for the next one of a type and look at everything that came.
 */
export async function openSocket(baseUrl: string, query: Record<string, string> = {}) {
  const url = new URL(baseUrl.replace(/^http/, 'ws'));
  url.search = new URLSearchParams({ project_id: 'fieldassist', ...query }).toString();
  const socket = new WebSocket(url);
  const frames: Frame[] = [];
  const waiters: (() => void)[] = [];
  socket.on('message', (raw) => {
    frames.push(JSON.parse(raw.toString()) as Frame);
    waiters.splice(0).forEach((wake) => wake());
  });
  const closed = new Promise<{ code: number }>((resolve) => socket.on('close', (code) => resolve({ code })));
  await new Promise<void>((resolve, reject) => socket.once('open', resolve).once('error', reject));

  /** The first frame (from `from` on) that matches, waiting up to `ms` for it. */
  async function next(match: (frame: Frame) => boolean, { from = 0, ms = 5000 } = {}): Promise<Frame> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = frames.slice(from).find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching frame within ${ms} ms; got ${JSON.stringify(frames)}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }
  const send = (type: string, payload: object = {}) => socket.send(JSON.stringify({ type, payload }));
  const ofType = (type: string, channel?: string) => (f: Frame) =>
    f.type === type && (channel === undefined || f.payload.channel === channel);
  return { socket, frames, next, send, ofType, closed, close: () => socket.close() };
}
