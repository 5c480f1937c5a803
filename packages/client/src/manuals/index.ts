// `client.manuals` (the product's manual library, /api/app/{projectId}/manuals): the upload's
// way is upload (store + read) -> review in the app -> save (manual + tags + ingestion queued);
// delete takes a manual out again.
import { ZManual, ZUploadedManualFile } from '@fieldassist/client/manuals';
import type { z } from 'zod';
import type { AccessTokenGetter, HttpCore } from '../http.js';
import { asStorageError, invalid, invalidResponse, MAX_UPLOAD_BYTES, tooLarge } from '../storage/errors.js';
import { uploadWithProgress } from '../storage/xhr-upload.js';
import type { ManualsClient } from './types.js';

export interface ManualsOptions {
  http: HttpCore;
  projectId: string;
  secretKey?: string;
  getAccessToken?: AccessTokenGetter;
  refreshAccessToken?: () => Promise<string | null | undefined>;
}

const canShowProgress = () => typeof XMLHttpRequest !== 'undefined';

/** The server's answer read through its schema; what does not fit is an invalid response, not a crash later. */
function answer<T>(schema: z.ZodType<T>, data: unknown): T {
  const result = schema.safeParse(data);
  if (!result.success) throw invalidResponse(result.error.issues[0]?.path.join('.') || 'body');
  return result.data;
}

export function createManuals(options: ManualsOptions): ManualsClient {
  const { http } = options;
  const route = (name = '') => `/app/${encodeURIComponent(options.projectId)}/manuals${name}`;

  return {
    async upload(file, { onProgress } = {}) {
      if (!(file instanceof Blob)) throw invalid('Unsupported file type');
      if (file.size > MAX_UPLOAD_BYTES) throw tooLarge(file.size);
      const form = new FormData();
      form.append(
        'file',
        file,
        typeof File !== 'undefined' && file instanceof File && file.name ? file.name : 'manual',
      );
      try {
        if (onProgress && canShowProgress()) {
          const token = options.secretKey ?? (await options.getAccessToken?.());
          const refresh = options.secretKey ? undefined : options.refreshAccessToken;
          return answer(
            ZUploadedManualFile,
            await uploadWithProgress({ url: http.url(route('/uploads')), form, token, onProgress }, refresh),
          );
        }
        const { data } = await http.request({ method: 'POST', path: route('/uploads'), body: form });
        onProgress?.(100);
        return answer(ZUploadedManualFile, data);
      } catch (error) {
        throw asStorageError(error);
      }
    },

    async save(input) {
      try {
        const { data } = await http.request({
          method: 'POST',
          path: route(),
          body: { ...input, tagIds: input.tagIds ?? [] },
        });
        return answer(ZManual, data);
      } catch (error) {
        throw asStorageError(error);
      }
    },

    async discard(path) {
      if (typeof path !== 'string' || path === '') throw invalid('File path is required');
      try {
        await http.request({ method: 'DELETE', path: route('/uploads'), body: { path } });
      } catch (error) {
        throw asStorageError(error);
      }
    },

    async delete(id) {
      if (typeof id !== 'string' || id === '') throw invalid('Manual id is required');
      try {
        await http.request({ method: 'DELETE', path: route(`/${encodeURIComponent(id)}`) });
      } catch (error) {
        throw asStorageError(error);
      }
    },
  };
}

export type * from './types.js';
