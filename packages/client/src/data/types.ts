export interface ExtractOptions {
  /** Answer the text in passages of about `chunkSize` characters (passages never cross a page). */
  chunking?: boolean;
  /** 100 to 100,000 characters; default 1,000 on the server. */
  chunkSize?: number;
  signal?: AbortSignal;
}

export interface DataClient {
  /**
   * The text of the document at `url` (PDF, Word, plain text): one of this server's stored
   * files (`publicUrl` of an upload) or a public address (PLATFORM_API.md section 6).
   * Throws FieldAssistValidationError for an empty URL or a refused body (400),
   * FieldAssistAuthError when signed out (401), and FieldAssistDataError with the server's
   * code for everything else the server refuses (NOT_FOUND, UNREADABLE_DOCUMENT,
   * EMPTY_DOCUMENT, UNSUPPORTED_FILE_TYPE, RATE_LIMITED, ...); no response at all stays a
   * FieldAssistNetworkError.
   */
  extractFromUrl(url: string, options?: ExtractOptions & { chunking?: false }): Promise<string>;
  extractFromUrl(url: string, options: ExtractOptions & { chunking: true }): Promise<string[]>;
}
