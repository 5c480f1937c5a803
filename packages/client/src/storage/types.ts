/** What `client.storage.upload` accepts: a browser File or Blob, or raw bytes (a Node Buffer is a Uint8Array). */
export type UploadSource = Blob | ArrayBuffer | Uint8Array;

export interface UploadOptions {
  /** Replace a file already stored at this path (the caller's own, or any for an admin). */
  upsert?: boolean;
  /** Percent sent, 0 to 100; in a browser the upload then goes through XMLHttpRequest. */
  onProgress?: (percent: number) => void;
}

export interface UploadResult {
  /** Public, unauthenticated URL of the stored file, fit for `<img src>`. */
  publicUrl: string;
  /** The path it was stored under, with its extension corrected to the detected type. */
  path: string;
}

export interface DownloadOptions {
  /** The name the browser saves the file under; defaults to the stored name. */
  filename?: string;
}

export interface DownloadResult {
  downloadUrl: string;
  filename: string;
  contentType?: string;
  size?: number;
}

export interface StorageClient {
  /**
   * Stores a file at `path` (PLATFORM_API.md 4.1). Throws FieldAssistValidationError for an
   * empty path, an unsupported value or a file over 50MB (nothing is sent), and
   * FieldAssistStorageError for server refusals (409 CONFLICT when the path exists and
   * `upsert` is not set, 403 FORBIDDEN for a folder the caller may not write).
   */
  upload(file: UploadSource, path: string, options?: UploadOptions): Promise<UploadResult>;
  /** The download link of a stored file (4.2); FieldAssistStorageError NOT_FOUND 'File not found'. */
  download(path: string, options?: DownloadOptions): Promise<DownloadResult>;
  /** Removes files (4.3), all or none; paths that do not exist are ignored. */
  remove(...paths: string[]): Promise<{ removed: string[] }>;
}
