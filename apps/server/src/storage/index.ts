// The storage module (PLATFORM_API.md section 4): what the rest of the server uses.
export type { FolderRules, UserCaller } from './access.js';
export type { StoredObject } from './objects.js';
export { createFileStore, type FileStore, type FileStoreOptions } from './file-store.js';
export { registerStorageRoutes } from './routes.js';
export type { S3Options } from './s3.js';
export type { Storage } from './storage.js';
