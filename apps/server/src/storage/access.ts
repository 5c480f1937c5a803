import type { Caller, Role } from '../auth/caller.js';
import { ApiError } from '../errors.js';
import type { StoredObject } from './objects.js';
import { topFolder } from './paths.js';

/** A caller past requireSignedIn: a user or the service key (which may do anything). */
export type SignedInCaller = Extract<Caller, { kind: 'user' | 'service' }>;

// Any signed-in user keeps their own files here (SPEC.md: chat images, profile avatars).
const personalFolders = new Set(['chat-images', 'avatars']);
// The manual library: read by every signed-in user, written by these roles (SPEC.md section 6).
const libraryFolder = 'manuals';
const librarians: Role[] = ['admin', 'technician'];

const isAdmin = (caller: SignedInCaller) => caller.kind === 'service' || caller.role === 'admin';
const isOwner = (caller: SignedInCaller, object: StoredObject) => caller.kind === 'user' && object.ownerId === caller.userId;

/** Who may write a new file at `path`: decided by its top-level folder. */
export function authorizeWrite(caller: SignedInCaller, path: string): void {
  if (caller.kind === 'service') return;
  const folder = topFolder(path);
  if (folder !== undefined && personalFolders.has(folder)) return;
  if (folder === libraryFolder) {
    if (caller.role && librarians.includes(caller.role)) return;
    throw new ApiError('FORBIDDEN', 'You do not have permission to upload manuals');
  }
  throw new ApiError('FORBIDDEN', 'You do not have permission to upload to this folder');
}

/** Replacing an existing file (upsert): its uploader or an admin. */
export function authorizeReplace(caller: SignedInCaller, object: StoredObject): void {
  if (!isAdmin(caller) && !isOwner(caller, object)) throw new ApiError('FORBIDDEN', 'You can only overwrite your own files');
}

/** Removing a file: its uploader or an admin. */
export function authorizeRemove(caller: SignedInCaller, object: StoredObject): void {
  if (!isAdmin(caller) && !isOwner(caller, object)) throw new ApiError('FORBIDDEN', 'You can only remove your own files');
}

/**
 * Who may ask for a file's download link: every signed-in user for the manual library,
 * else its uploader or an admin. The caller of a refused read is told the file does not exist.
 */
export function mayRead(caller: SignedInCaller, object: StoredObject): boolean {
  return topFolder(object.path) === libraryFolder || isAdmin(caller) || isOwner(caller, object);
}
