import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireSignedIn } from '../auth/caller.js';
import { ApiError } from '../errors.js';
import type { FileStore } from './file-store.js';
import { MAX_PATH_LENGTH, ZStoragePath } from './paths.js';
import { registerFileRoutes } from './serve-file.js';
import type { UploadPart } from './upload.js';
import { discardRest } from './upload-body.js';

const ZDownloadQuery = z.object({ path: ZStoragePath, filename: z.string().max(255).optional() });
const ZRemoveBody = z.object({ paths: z.array(z.string().max(MAX_PATH_LENGTH)).min(1).max(100) });

// The caller is checked before the body, so a signed-out client learns nothing from a 400.
const signedIn = async (request: FastifyRequest) => requireSignedIn(request.caller);

/** The storage API (PLATFORM_API.md section 4) and the public files at /files/<key>. */
export function registerStorageRoutes(app: FastifyInstance, files: FileStore) {
  // Encapsulated: the multipart parser serves the upload route only.
  void app.register(async (scope) => {
    if (!scope.hasRequestDecorator('parts')) await scope.register(multipart);
    const typed = scope.withTypeProvider<ZodTypeProvider>();

    typed.post('/api/storage/:projectId/upload', { preValidation: signedIn }, async (request, reply) => {
      if (!request.isMultipart())
        throw new ApiError(
          'VALIDATION_ERROR',
          'Invalid request parameters: send multipart/form-data with the fields file and path',
        );
      const declaredBytes = declaredLength(request);
      try {
        return await files.uploadFile({ caller: request.caller, parts: formParts(request), declaredBytes });
      } catch (error) {
        // The rest of a refused body is read and dropped (up to a bound), so a client still sending hears why.
        if (!(await discardRest(request.raw, declaredBytes))) reply.header('connection', 'close');
        throw error;
      }
    });

    typed.get(
      '/api/storage/:projectId/download',
      { preValidation: signedIn, schema: { querystring: ZDownloadQuery } },
      async (request) => files.getDownload({ caller: request.caller, ...request.query }),
    );

    typed.delete(
      '/api/storage/:projectId/remove',
      { preValidation: signedIn, schema: { body: ZRemoveBody } },
      async (request) => files.removeFiles({ caller: request.caller, paths: request.body.paths }),
    );

    registerFileRoutes(scope, files);
  });
}

function declaredLength(request: FastifyRequest): number | undefined {
  const length = Number(request.headers['content-length']);
  return Number.isFinite(length) ? length : undefined;
}

/** The multipart parts as the upload service reads them; the file part stays a stream. */
async function* formParts(request: FastifyRequest): AsyncGenerator<UploadPart> {
  // No file size limit here: the service counts the bytes and answers with SPEC.md's message.
  const parts = request.parts({
    limits: { fileSize: Number.MAX_SAFE_INTEGER, files: 2, fields: 20, fieldSize: 64 * 1024, parts: 24 },
  });
  try {
    for await (const part of parts) {
      yield part.type === 'file'
        ? { kind: 'file', name: part.fieldname, fileName: part.filename, stream: part.file }
        : { kind: 'field', name: part.fieldname, value: part.value };
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError(
      'VALIDATION_ERROR',
      'Invalid request parameters: the multipart body is malformed or has too many parts',
    );
  }
}
