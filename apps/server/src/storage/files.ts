import { Readable } from 'node:stream';
import { type Caller, requireSignedIn } from '../auth/caller.js';
import { ApiError } from '../errors.js';
import { authorizeRemove, mayRead } from './access.js';
import { cleanFileName } from './content-disposition.js';
import { publicUrlOf, removeBytes, type StorageContext } from './context.js';
import {
  findObjectByKey,
  findObjectByPath,
  removeObjectByKey,
  removeObjects,
  saveObject,
  type StoredObject,
} from './objects.js';
import { isStorageKey, lastSegment, newStorageKey } from './paths.js';
import type { ByteRange } from './storage.js';

const notFound = () => new ApiError('NOT_FOUND', 'File not found');

/**
 * The download link of the file at `path` (PLATFORM_API.md 4.2), with its name, type and
 * size. A file the caller may not read is NOT_FOUND, like a missing one.
 */
export async function getDownload(
  ctx: StorageContext,
  { caller, path, filename }: { caller: Caller; path: string; filename?: string },
) {
  requireSignedIn(caller);
  const object = await findObjectByPath(ctx.pool, path);
  if (!object || !(await mayRead(ctx.rules, caller, object))) throw notFound();
  const name = cleanFileName(filename) ?? object.fileName;
  return {
    downloadUrl: `${publicUrlOf(ctx, object.key)}?download=1&filename=${encodeURIComponent(name)}`,
    filename: name,
    contentType: object.contentType,
    size: object.size,
  };
}

/**
 * Removes the files at `paths` (PLATFORM_API.md 4.3), all or none: each must be the
 * caller's own or the caller an admin, else FORBIDDEN. Paths that do not exist are ignored.
 */
export async function removeFiles(
  ctx: StorageContext,
  { caller, paths }: { caller: Caller; paths: string[] },
): Promise<{ removed: string[] }> {
  requireSignedIn(caller);
  const removed = await removeObjects(ctx.pool, [...new Set(paths)], (object) => authorizeRemove(caller, object));
  await Promise.all(removed.map((object) => removeBytes(ctx, object.key)));
  return { removed: removed.map((object) => object.path) };
}

/** The file stored under `key` (the capability in its public URL), or undefined. */
export async function findFile(ctx: StorageContext, key: string): Promise<StoredObject | undefined> {
  return isStorageKey(key) ? findObjectByKey(ctx.pool, key) : undefined;
}

/** The bytes of a found file, or a range of them; NOT_FOUND when they are missing from the store. */
export async function readFile(ctx: StorageContext, object: StoredObject, range?: ByteRange): Promise<Readable> {
  const body = await ctx.storage.read(object.key, range);
  if (body) return body;
  ctx.log(`Stored object ${object.key} (${object.path}) is missing from the file store`);
  throw notFound();
}

/** The file stored at `path`, with its public URL, for server-side services (the manual library). */
export async function findByPath(
  ctx: StorageContext,
  path: string,
): Promise<(StoredObject & { publicUrl: string }) | undefined> {
  const object = await findObjectByPath(ctx.pool, path);
  return object && { ...object, publicUrl: publicUrlOf(ctx, object.key) };
}

/** The key of one of our public URLs (`${publicUrl}/files/<key>`), or undefined for any other URL. */
function keyOfPublicUrl(ctx: StorageContext, url: string): string | undefined {
  const prefix = publicUrlOf(ctx, '');
  if (!url.startsWith(prefix)) return undefined;
  const key = url.slice(prefix.length).split(/[?#]/)[0]!;
  return isStorageKey(key) ? key : undefined;
}

/**
 * The whole content of the file behind one of our public URLs, for server-side readers
 * (manual ingestion); undefined when the URL is not ours or the file is gone.
 */
export async function readByPublicUrl(
  ctx: StorageContext,
  url: string,
): Promise<{ bytes: Buffer; contentType: string; fileName: string; size: number } | undefined> {
  const key = keyOfPublicUrl(ctx, url);
  const object = key === undefined ? undefined : await findObjectByKey(ctx.pool, key);
  if (!object) return undefined;
  const body = await ctx.storage.read(object.key);
  if (!body) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  return { bytes, contentType: object.contentType, fileName: object.fileName, size: bytes.length };
}

/** Deletes the file behind one of our public URLs (a deleted manual's file); false when there was none. */
export async function removeByPublicUrl(ctx: StorageContext, url: string): Promise<boolean> {
  const key = keyOfPublicUrl(ctx, url);
  if (key === undefined || !(await removeObjectByKey(ctx.pool, key))) return false;
  await removeBytes(ctx, key);
  return true;
}

/**
 * Stores bytes the server made itself (generated images and speech) at a new path, owned by
 * no user, and returns the public URL. The path is chosen by the server, never by a client.
 */
export async function saveServerFile(
  ctx: StorageContext,
  { path, bytes, contentType }: { path: string; bytes: Uint8Array; contentType: string },
): Promise<string> {
  const fileName = lastSegment(path);
  const key = newStorageKey(fileName);
  await ctx.storage.write(key, Readable.from([Buffer.from(bytes)]), contentType);
  try {
    await saveObject(ctx.pool, {
      object: { path, key, size: bytes.byteLength, contentType, fileName, ownerId: null, ownerEmail: null },
      upsert: false,
      mayReplace: () => undefined,
    });
  } catch (error) {
    await removeBytes(ctx, key);
    throw error;
  }
  return publicUrlOf(ctx, key);
}
