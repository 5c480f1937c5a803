// The part of s3rver (an S3 peer for tests, no types of its own) the tests use.
declare module 's3rver' {
  interface S3rverContext {
    method: string;
    path: string;
    query: Record<string, string | string[] | undefined>;
    status: number;
  }
  export default class S3rver {
    constructor(options: {
      address?: string;
      port?: number;
      silent?: boolean;
      directory: string;
      configureBuckets?: { name: string }[];
    });
    /** Koa's middleware list, composed when the server starts listening. */
    middleware: ((ctx: S3rverContext, next: () => Promise<void>) => unknown)[];
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
