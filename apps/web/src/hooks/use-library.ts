import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { client } from '@/lib/client';
import { manualsTable, manualTagsTable, releaseVersionsTable, tagsTable } from '@/lib/tables';
import { readThrough } from '@/offline/read-through';

export const LIBRARY_KEY = ['library'] as const;
export const MANUALS_KEY = [...LIBRARY_KEY, 'manuals'] as const;

const randomHex = () => crypto.randomUUID().replaceAll('-', '');

export interface NewVersion {
  versionName: string;
  releaseYear: number;
  description?: string;
}

export interface NewTag {
  name: string;
  color: string;
}

/**
 * The library's tables as SPEC.md section 7 lists them (versions newest year first, manuals
 * newest first, tags by name), and the writes of the library screen. The server leaves out
 * rows the caller may not see (system planners) and refuses writes with SPEC.md's texts.
 */
export function useLibrary(email: string) {
  const queryClient = useQueryClient();
  const reload = (table: string) => () => queryClient.invalidateQueries({ queryKey: [...LIBRARY_KEY, table] });

  // Each list is also kept on the device, so the library (and its saved manuals) opens offline.
  const offline = { networkMode: 'always' } as const;
  const copy = (table: string) => `library:${email}:${table}`;
  const versions = useQuery({
    queryKey: [...LIBRARY_KEY, 'versions'],
    queryFn: () => readThrough(copy('versions'), () => releaseVersionsTable.list({ orderBy: { releaseYear: 'desc' } })),
    ...offline,
  });
  const manuals = useQuery({
    queryKey: MANUALS_KEY,
    queryFn: () => readThrough(copy('manuals'), () => manualsTable.list({ orderBy: { createdAt: 'desc' } })),
    ...offline,
  });
  const tags = useQuery({
    queryKey: [...LIBRARY_KEY, 'tags'],
    queryFn: () => readThrough(copy('tags'), () => tagsTable.list({ orderBy: { name: 'asc' } })),
    ...offline,
  });
  const manualTags = useQuery({
    queryKey: [...LIBRARY_KEY, 'manualTags'],
    queryFn: () => readThrough(copy('manualTags'), () => manualTagsTable.list()),
    ...offline,
  });

  const createVersion = useMutation({
    mutationFn: (version: NewVersion) =>
      releaseVersionsTable.create({ id: `ver_${randomHex()}`, ...version, createdBy: email }),
    onSuccess: reload('versions'),
  });

  const createTag = useMutation({
    mutationFn: (tag: NewTag) => tagsTable.create({ id: `tag_${randomHex()}`, ...tag, createdBy: email }),
    onSuccess: reload('tags'),
  });

  // The server removes the file, its content and its tag links with the row.
  const deleteManual = useMutation({
    mutationFn: (id: string) => client.manuals.delete(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: LIBRARY_KEY }),
  });

  return { versions, manuals, tags, manualTags, createVersion, createTag, deleteManual };
}
