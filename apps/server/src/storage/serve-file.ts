import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError } from '../errors.js';
import { cleanFileName, contentDisposition, isInlineSafe } from './content-disposition.js';
import type { FileStore } from './file-store.js';
import type { StoredObject } from './objects.js';
import { parseRange } from './range.js';

const ZFileQuery = z.object({ download: z.string().optional(), filename: z.string().optional() });
type FileQuery = z.infer<typeof ZFileQuery>;

/**
 * GET and HEAD /files/<key>: public, the unguessable key being the capability (PLATFORM_API.md
 * 14.15). Nothing stored can run as a page of this origin: nosniff, a sandboxing CSP on every
 * file, and only inert types shown inline. Ranges are served (a PDF viewer jumps to page 300).
 */
export function registerFileRoutes(app: FastifyInstance, files: FileStore) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  for (const method of ['GET', 'HEAD'] as const) {
    typed.route({
      method,
      url: '/files/*',
      exposeHeadRoute: false,
      schema: { querystring: ZFileQuery },
      handler: async (request, reply) => {
        const object = await files.findFile((request.params as { '*': string })['*']);
        if (!object) throw new ApiError('NOT_FOUND', 'File not found');
        return sendFile(files, { request, reply, object, query: request.query });
      },
    });
  }
}

// On every answer about a file: nothing in it may run as a page of this origin.
const sandboxed = {
  'content-security-policy': "sandbox; default-src 'none'",
  'x-content-type-options': 'nosniff',
  // Public by capability: pages of the other allowed origins may embed it (<img src>).
  'cross-origin-resource-policy': 'cross-origin',
};

async function sendFile(
  files: FileStore,
  {
    request,
    reply,
    object,
    query,
  }: { request: FastifyRequest; reply: FastifyReply; object: StoredObject; query: FileQuery },
) {
  // A key's bytes never change (a replaced file gets a new key): its hex is a strong validator.
  const etag = `"${object.key.slice(0, 32)}"`;
  const lastModified = object.updatedAt.toUTCString();
  const cacheable = { etag, 'last-modified': lastModified, 'cache-control': 'public, max-age=31536000, immutable' };
  if (matchesEtag(request.headers['if-none-match'], etag))
    return reply
      .status(304)
      .headers({ ...sandboxed, ...cacheable })
      .send();

  const ifRange = request.headers['if-range'];
  const range =
    ifRange === undefined || ifRange === etag || ifRange === lastModified
      ? parseRange(request.headers.range, object.size)
      : undefined;
  if (range === 'unsatisfiable')
    return reply
      .status(416)
      .headers({ ...sandboxed, 'content-range': `bytes */${object.size}` })
      .send();

  // Opened before any header is set: bytes missing from the store are a plain 404.
  const body = request.method === 'HEAD' ? undefined : await files.readFile(object, range);
  const download = query.download === '1' || query.download === 'true';
  const name = (download && cleanFileName(query.filename)) || object.fileName;
  reply.headers({
    ...sandboxed,
    ...cacheable,
    'accept-ranges': 'bytes',
    'content-type': object.contentType,
    'content-disposition': contentDisposition(
      download || !isInlineSafe(object.contentType) ? 'attachment' : 'inline',
      name,
    ),
    'content-length': String(range ? range.end - range.start + 1 : object.size),
  });
  if (range) reply.status(206).header('content-range', `bytes ${range.start}-${range.end}/${object.size}`);
  return reply.send(body);
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.trim() === '*' || header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
