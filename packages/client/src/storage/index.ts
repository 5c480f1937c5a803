// `client.storage` (PLATFORM_API.md section 4): upload, download link, remove. Checks
// SPEC.md section 5's rules before sending; the server re-checks and corrects the extension.
import type { AccessTokenGetter, HttpCore } from '../http.js';
import { asStorageError, invalid, invalidResponse, MAX_UPLOAD_BYTES, tooLarge } from './errors.js';
import type { DownloadResult, StorageClient, UploadSource } from './types.js';
import { uploadWithProgress } from './xhr-upload.js';

export interface StorageOptions {
  http: HttpCore;
  projectId: string;
  secretKey?: string;
  getAccessToken?: AccessTokenGetter;
  refreshAccessToken?: () => Promise<string | null | undefined>;
}

const lastSegment = (path: string) => path.split('/').filter(Boolean).pop() ?? 'file';

function toBlob(file: UploadSource): Blob {
  if (typeof Blob !== 'undefined' && file instanceof Blob) return file;
  if (file instanceof ArrayBuffer) return new Blob([file]);
  if (file instanceof Uint8Array) return new Blob([file as Uint8Array<ArrayBuffer>]);
  throw invalid('Unsupported file type');
}

function uploadForm(blob: Blob, path: string, upsert: boolean | undefined): FormData {
  const form = new FormData();
  // Path first, so the server can refuse a forbidden folder before reading the file.
  form.append('path', path);
  if (upsert !== undefined) form.append('options', JSON.stringify({ upsert }));
  const name = typeof File !== 'undefined' && blob instanceof File && blob.name ? blob.name : lastSegment(path);
  form.append('file', blob, name);
  return form;
}

function publicUrlOf(data: unknown, sentPath: string) {
  const body = data as { publicUrl?: unknown; path?: unknown; data?: { publicUrl?: unknown; path?: unknown } } | null;
  const inner = typeof body?.publicUrl === 'string' ? body : body?.data;
  if (typeof inner?.publicUrl !== 'string') throw invalidResponse('publicUrl');
  return { publicUrl: inner.publicUrl, path: typeof inner.path === 'string' ? inner.path : sentPath };
}

const canShowProgress = () => typeof XMLHttpRequest !== 'undefined';

export function createStorage(options: StorageOptions): StorageClient {
  const { http } = options;
  const route = (name: string) => `/storage/${encodeURIComponent(options.projectId)}/${name}`;

  return {
    async upload(file, path, { upsert, onProgress } = {}) {
      if (typeof path !== 'string' || path.trim() === '') throw invalid('File path is required');
      if (file === null || file === undefined) throw invalid('File is required');
      const blob = toBlob(file);
      if (blob.size > MAX_UPLOAD_BYTES) throw tooLarge(blob.size);
      const form = uploadForm(blob, path.trim(), upsert);
      try {
        if (onProgress && canShowProgress()) {
          const token = options.secretKey ?? (await options.getAccessToken?.());
          const refresh = options.secretKey ? undefined : options.refreshAccessToken;
          const data = await uploadWithProgress({ url: http.url(route('upload')), form, token, onProgress }, refresh);
          return publicUrlOf(data, path.trim());
        }
        const { data } = await http.request({ method: 'POST', path: route('upload'), body: form });
        onProgress?.(100);
        return publicUrlOf(data, path.trim());
      } catch (error) {
        throw asStorageError(error);
      }
    },

    async download(path, { filename } = {}) {
      if (typeof path !== 'string' || path.trim() === '') throw invalid('File path is required');
      const query: Record<string, string> = { path: path.trim() };
      if (filename) query.filename = filename;
      let data: Partial<DownloadResult> | null;
      try {
        data = (await http.request<Partial<DownloadResult> | null>({ path: route('download'), query })).data;
      } catch (error) {
        throw asStorageError(error);
      }
      if (typeof data?.downloadUrl !== 'string') throw invalidResponse('downloadUrl');
      return { ...data, downloadUrl: data.downloadUrl, filename: data.filename ?? filename ?? lastSegment(path) };
    },

    async remove(...paths) {
      if (paths.length === 0) throw invalid('At least one file path is required');
      if (!paths.every((p) => typeof p === 'string' && p !== ''))
        throw invalid('All file paths must be non-empty strings');
      try {
        const { data } = await http.request<{ removed?: string[] } | null>({
          method: 'DELETE',
          path: route('remove'),
          body: { paths },
        });
        return { removed: Array.isArray(data?.removed) ? data.removed : [] };
      } catch (error) {
        throw asStorageError(error);
      }
    },
  };
}
