import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireSignedIn } from '../auth/caller.js';
import { ApiError } from '../errors.js';
import type { DocumentFile } from './extract.js';
import { type ExtractionDeps, extractFromFile, extractFromUrl } from './extract-service.js';

export interface DataRouteDeps extends ExtractionDeps {
  /** Largest file extract-from-blob accepts; default 50 MB, the storage upload limit. */
  maxUploadBytes?: number;
}

const ZChunkSize = z.coerce.number().int().min(100).max(100_000);

export const ZExtractFromUrlBody = z.object({
  url: z.string().min(1).max(4096),
  chunking: z.boolean().optional(),
  chunkSize: ZChunkSize.optional(),
});
export type ExtractFromUrlBody = z.infer<typeof ZExtractFromUrlBody>;

/** The text fields of the extract-from-blob form; the SDK sends them as strings. */
export const ZExtractFromBlobFields = z.object({
  chunking: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true'),
  chunkSize: ZChunkSize.optional(),
});
export type ExtractFromBlobFields = z.infer<typeof ZExtractFromBlobFields>;

export const ZExtractionResponse = z.union([z.object({ text: z.string() }), z.object({ chunks: z.array(z.string()) })]);

const needsMultipart = () =>
  new ApiError('VALIDATION_ERROR', 'extract-from-blob needs a multipart/form-data body with a file field');

async function signedIn(request: FastifyRequest) {
  requireSignedIn(request.caller);
}

/** Reads the `file` part and the text fields of an extract-from-blob form. */
async function readUpload(
  request: FastifyRequest,
  maxUploadBytes: number,
): Promise<{ file: DocumentFile; fields: ExtractFromBlobFields }> {
  // The 2.9.0 SDK sends its FormData through the JSON path: the body arrives as `{}`.
  if (!request.isMultipart()) throw needsMultipart();
  let file: DocumentFile | undefined;
  const raw: Record<string, string> = {};
  try {
    for await (const part of request.parts({
      limits: { fileSize: maxUploadBytes, files: 1, fields: 10, fieldSize: 1024 },
    })) {
      if (part.type === 'field') raw[part.fieldname] = String(part.value);
      else if (part.fieldname === 'file' && !file)
        file = { bytes: await part.toBuffer(), fileName: part.filename, contentType: part.mimetype };
      else await part.toBuffer();
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      const limit =
        maxUploadBytes >= 1024 * 1024
          ? `${Math.round(maxUploadBytes / 1024 / 1024)}MB`
          : `${Math.round(maxUploadBytes / 1024)}KB`;
      throw new ApiError('PAYLOAD_TOO_LARGE', `File size exceeds maximum allowed size (${limit})`);
    }
    // The parser's own limits carry a 4xx status; a cut-off or malformed form (busboy's
    // "Unexpected end of form", "Malformed part header") carries none and is the caller's fault too.
    if ((error as { statusCode?: number }).statusCode) throw error;
    throw new ApiError('VALIDATION_ERROR', 'extract-from-blob: the multipart body is malformed or cut off');
  }
  if (!file) throw needsMultipart();
  const fields = ZExtractFromBlobFields.safeParse(raw);
  if (!fields.success) {
    const issue = fields.error.issues[0];
    throw new ApiError('VALIDATION_ERROR', `body.${issue?.path.join('.')}: ${issue?.message ?? 'invalid'}`);
  }
  return { file, fields: fields.data };
}

/** POST /api/data/:projectId/extract-from-url and extract-from-blob, for signed-in callers. */
export function registerDataRoutes(app: FastifyInstance, deps: DataRouteDeps) {
  void app.register(async (scope) => {
    // Registered here unless app.ts already registered multipart for every module.
    if (!scope.hasRequestDecorator('isMultipart')) await scope.register(multipart);
    const typed = scope.withTypeProvider<ZodTypeProvider>();
    const response = { 200: ZExtractionResponse };

    typed.post(
      '/api/data/:projectId/extract-from-url',
      { preValidation: signedIn, schema: { body: ZExtractFromUrlBody, response } },
      async (request) => extractFromUrl(deps, request.body),
    );

    typed.post(
      '/api/data/:projectId/extract-from-blob',
      { preValidation: signedIn, schema: { response } },
      async (request) => {
        const { file, fields } = await readUpload(request, deps.maxUploadBytes ?? 50 * 1024 * 1024);
        return extractFromFile(deps, file, fields);
      },
    );
  });
}
