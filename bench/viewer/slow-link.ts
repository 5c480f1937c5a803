// A slow phone network between the browser and the server, as a proxy on loopback: each
// answer waits one round trip, then its bytes share one link of a fixed rate. Chromium's own
// network emulation leaves out pdf.js's fetches, which is what is measured here. Scripts and
// styles are gzipped on the way, as deploy/Caddyfile's `encode` does.
import { createServer, request, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { createGzip } from 'node:zlib';
import type { Readable } from 'node:stream';

export type LinkSpeed = { roundTripMs: number; bytesPerSecond: number } | null;

/** Starts the proxy on `port` in front of `target` (http://host:port); `setSpeed(null)` lets bytes through at once. */
export async function startSlowLink(target: string, port: number) {
  const upstream = new URL(target);
  let speed: LinkSpeed = null;
  let linkFreeAt = 0;

  const server = createServer((incoming, outgoing) => {
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (answer: IncomingMessage) => {
        const current = speed;
        const zip =
          answer.statusCode === 200 &&
          /gzip/.test(String(incoming.headers['accept-encoding'])) &&
          /javascript|css|html|json/.test(String(answer.headers['content-type']));
        const headers = { ...answer.headers };
        if (zip) {
          delete headers['content-length'];
          headers['content-encoding'] = 'gzip';
        }
        const body: Readable = zip ? answer.pipe(createGzip()) : answer;
        setTimeout(() => {
          outgoing.writeHead(answer.statusCode ?? 502, headers);
          // Each chunk leaves when the link is free for it; the end waits for the last one.
          let sent = Promise.resolve();
          const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
          body.on('data', (chunk: Buffer) => {
            if (!current) return void outgoing.write(chunk);
            body.pause();
            const now = Date.now();
            linkFreeAt = Math.max(now, linkFreeAt) + (chunk.length / current.bytesPerSecond) * 1000;
            const due = linkFreeAt - now;
            sent = sent
              .then(() => sleep(due))
              .then(() => {
                outgoing.write(chunk);
                body.resume();
              });
          });
          body.on('end', () => void sent.then(() => outgoing.end()));
        }, current?.roundTripMs ?? 0);
      },
    );
    forward.on('error', () => outgoing.destroy());
    outgoing.on('close', () => forward.destroy()); // pdf.js cancels a request it no longer needs
    incoming.pipe(forward);
  });
  // WebSockets (realtime) pass through untouched.
  server.on('upgrade', (incoming: IncomingMessage, socket, head: Buffer) => {
    const to = connect(Number(upstream.port), upstream.hostname, () => {
      const lines = [
        `${incoming.method} ${incoming.url} HTTP/1.1`,
        ...Object.entries(incoming.headers).map(([name, value]) => `${name}: ${String(value)}`),
      ];
      to.write(`${lines.join('\r\n')}\r\n\r\n`);
      to.write(head);
      to.pipe(socket).pipe(to);
    });
    to.on('error', () => socket.destroy());
    socket.on('error', () => to.destroy());
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    setSpeed: (next: LinkSpeed) => void (speed = next),
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
