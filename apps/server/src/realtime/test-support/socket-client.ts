import { type Frame, ZServerFrame } from '@fieldassist/client/realtime-frames';
import { WebSocket } from 'ws';

export type { Frame };

/**
 * A raw WebSocket client of the realtime protocol that keeps every frame it receives, so a
 * test can wait for the next one of a type and look at everything that came. A frame that is
 * not one of the shapes the client SDK reads (ZServerFrame) fails the next wait.
 */
export async function openSocket(baseUrl: string, query: Record<string, string> = {}) {
  const url = new URL(baseUrl.replace(/^http/, 'ws'));
  url.search = new URLSearchParams({ project_id: 'fieldassist', ...query }).toString();
  const socket = new WebSocket(url);
  const frames: Frame[] = [];
  const waiters: (() => void)[] = [];
  const misfits: string[] = [];
  socket.on('message', (raw) => {
    const frame = JSON.parse(raw.toString()) as Frame;
    if (!ZServerFrame.safeParse(frame).success) misfits.push(raw.toString());
    frames.push(frame);
    waiters.splice(0).forEach((wake) => wake());
  });
  const closed = new Promise<{ code: number }>((resolve) => socket.on('close', (code) => resolve({ code })));
  await new Promise<void>((resolve, reject) => socket.once('open', resolve).once('error', reject));

  /** The first frame (from `from` on) that matches, waiting up to `ms` for it. */
  async function next(match: (frame: Frame) => boolean, { from = 0, ms = 5000 } = {}): Promise<Frame> {
    const deadline = Date.now() + ms;
    for (;;) {
      if (misfits.length > 0) throw new Error(`frames outside the wire contract: ${misfits.join(' ')}`);
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
