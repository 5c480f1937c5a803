import type { Caller } from '../auth/caller.js';
import { ApiError } from '../errors.js';
import type { StoredObject } from './objects.js';

/** A caller past requireSignedIn: a user or the service key (which may do anything). */
export type SignedInCaller = Extract<Caller, { kind: 'user' | 'service' }>;
export type UserCaller = Extract<Caller, { kind: 'user' }>;

/**
 * Which folders users may write and read beyond their own files: the product's rules, handed
 * to the storage module by app.ts (the platform knows no product folder).
 */
export interface FolderRules {
  /** Refuses (throws FORBIDDEN) a user who may not write a new file at `path`. */
  authorizeWrite(user: UserCaller, path: string): void;
  /** Whether a user who neither uploaded the file nor is an admin may read it. */
  mayRead(user: UserCaller, object: StoredObject): Promise<boolean>;
}

/** Without rules, nobody writes anywhere and users read only their own files. */
export const closedFolders: FolderRules = {
  authorizeWrite: () => {
    throw new ApiError('FORBIDDEN', 'You do not have permission to upload to this folder');
  },
  mayRead: async () => false,
};

const isAdmin = (caller: SignedInCaller) => caller.kind === 'service' || caller.role === 'admin';
const isOwner = (caller: SignedInCaller, object: StoredObject) =>
  caller.kind === 'user' && object.ownerId === caller.userId;

/** Who may write a new file at `path`: the service key, else as the folder rules say. */
export function authorizeWrite(rules: FolderRules, caller: SignedInCaller, path: string): void {
  if (caller.kind === 'service') return;
  rules.authorizeWrite(caller, path);
}

/** Replacing an existing file (upsert): its uploader or an admin. */
export function authorizeReplace(caller: SignedInCaller, object: StoredObject): void {
  if (!isAdmin(caller) && !isOwner(caller, object))
    throw new ApiError('FORBIDDEN', 'You can only overwrite your own files');
}

/** Removing a file: its uploader or an admin. */
export function authorizeRemove(caller: SignedInCaller, object: StoredObject): void {
  if (!isAdmin(caller) && !isOwner(caller, object))
    throw new ApiError('FORBIDDEN', 'You can only remove your own files');
}

/**
 * Who may ask for a file's download link: its uploader, an admin, or whom the folder rules
 * let read it. The caller of a refused read is told the file does not exist.
 */
export async function mayRead(rules: FolderRules, caller: SignedInCaller, object: StoredObject): Promise<boolean> {
  return (
    isAdmin(caller) || isOwner(caller, object) || (caller.kind === 'user' && (await rules.mayRead(caller, object)))
  );
}
