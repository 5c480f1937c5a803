import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError } from '../../errors.js';
import { MAX_PATH_LENGTH } from '../../storage/paths.js';
import {
  authorizeLibraryWrite,
  deleteManual,
  discardUpload,
  type ManualsDeps,
  saveManual,
  uploadManualFile,
} from './service.js';

const text = (max: number) => z.string().max(max).optional();

export const ZSaveManualBody = z.object({
  path: z.string().min(1).max(MAX_PATH_LENGTH),
  fileName: text(255),
  versionId: z.string().min(1).max(200),
  title: text(500),
  technology: text(200),
  datePublished: text(100),
  partNumber: text(100),
  description: text(5000),
  tagIds: z.array(z.string().min(1).max(200)).max(100).default([]),
});
export type SaveManualBody = z.infer<typeof ZSaveManualBody>;

export const ZManualParams = z.object({ projectId: z.string(), id: z.string().min(1).max(200) });

export const ZDiscardUploadBody = z.object({ path: z.string().min(1).max(MAX_PATH_LENGTH) });
export type DiscardUploadBody = z.infer<typeof ZDiscardUploadBody>;

// Checked before the body, so a caller who may not upload learns nothing from a 400.
const libraryWriter = async (request: FastifyRequest) => authorizeLibraryWrite(request.caller);

/**
 * The manual library's upload (SPEC.md section 4) under /api/app/{projectId}/manuals:
 * POST uploads (multipart `file`): store the file, read its text and metadata, for review;
 * POST (JSON): save the manual with its tags and queue its ingestion; DELETE uploads: discard;
 * DELETE /{id}: delete a manual (admins).
 */
export function registerManualRoutes(app: FastifyInstance, deps: ManualsDeps) {
  void app.register(async (scope) => {
    if (!scope.hasRequestDecorator('parts')) await scope.register(multipart);
    const typed = scope.withTypeProvider<ZodTypeProvider>();
    typed.post('/api/app/:projectId/manuals/uploads', { preValidation: libraryWriter }, async (request, reply) => {
      if (!request.isMultipart())
        throw new ApiError(
          'VALIDATION_ERROR',
          'Invalid request parameters: send multipart/form-data with the field file',
        );
      try {
        // No size limit here: the storage service counts the bytes and answers with SPEC.md's message.
        const file = await request
          .file({
            limits: { fileSize: Number.MAX_SAFE_INTEGER, files: 1, fields: 10, fieldSize: 64 * 1024, parts: 12 },
          })
          .catch(() => {
            throw new ApiError('VALIDATION_ERROR', 'Invalid request parameters: the multipart body is malformed');
          });
        if (!file || file.fieldname !== 'file')
          throw new ApiError('VALIDATION_ERROR', 'Invalid request parameters: send one file, in the field "file"');
        const declared = Number(request.headers['content-length']);
        return await uploadManualFile(deps, {
          caller: request.caller,
          fileName: file.filename,
          stream: file.file,
          declaredBytes: Number.isFinite(declared) ? declared : undefined,
        });
      } catch (error) {
        if (!request.raw.complete) reply.header('connection', 'close');
        throw error;
      }
    });
    typed.post(
      '/api/app/:projectId/manuals',
      { preValidation: libraryWriter, schema: { body: ZSaveManualBody } },
      async (request, reply) => {
        reply.status(201);
        return saveManual(deps, { caller: request.caller, ...request.body });
      },
    );
    typed.delete(
      '/api/app/:projectId/manuals/uploads',
      { preValidation: libraryWriter, schema: { body: ZDiscardUploadBody } },
      async (request) => discardUpload(deps, { caller: request.caller, path: request.body.path }),
    );
    typed.delete('/api/app/:projectId/manuals/:id', { schema: { params: ZManualParams } }, async (request) =>
      deleteManual(deps, { caller: request.caller, id: request.params.id }),
    );
  });
}
