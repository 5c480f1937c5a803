import { canWriteLibrary } from '@fieldassist/client/roles';
import type pg from 'pg';
import { ApiError } from '../errors.js';
import type { FolderRules } from '../storage/index.js';
import { topFolder } from '../storage/paths.js';
import { LIBRARY_FOLDER, libraryFileVisibleTo } from './manuals/file-access.js';

// Any signed-in user keeps their own files here (SPEC.md: chat images, profile avatars).
const personalFolders = new Set(['chat-images', 'avatars']);

/**
 * The product's storage folders, handed to the storage module by app.ts: personal folders for
 * everyone's own files, and the manual library, written by those the role model lets write it
 * and read as the manuals that point to its files are visible (SPEC.md section 6).
 */
export function productFolders({ pool, publicUrl }: { pool: pg.Pool; publicUrl: string }): FolderRules {
  return {
    authorizeWrite(user, path) {
      const folder = topFolder(path);
      if (folder !== undefined && personalFolders.has(folder)) return;
      if (folder === LIBRARY_FOLDER) {
        if (canWriteLibrary(user.role)) return;
        throw new ApiError('FORBIDDEN', 'You do not have permission to upload manuals');
      }
      throw new ApiError('FORBIDDEN', 'You do not have permission to upload to this folder');
    },
    async mayRead(user, object) {
      if (topFolder(object.path) !== LIBRARY_FOLDER) return false;
      return libraryFileVisibleTo(pool, {
        role: user.role,
        fileUrl: `${publicUrl.replace(/\/+$/, '')}/files/${object.key}`,
      });
    },
  };
}
