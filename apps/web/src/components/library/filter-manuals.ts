import type { Manual, ManualTag } from '@/lib/tables';

export interface LibraryFilter {
  search: string;
  /** 'all' or a version id. */
  versionId: string;
  tagIds: string[];
}

/**
 * SPEC.md section 2: the search matches title or description, case-insensitive; a chosen
 * version must match; with tags chosen, a manual must carry at least one of them.
 */
export function filterManuals(
  manuals: Manual[],
  manualTags: ManualTag[],
  { search, versionId, tagIds }: LibraryFilter,
): Manual[] {
  const needle = search.trim().toLowerCase();
  const chosen = new Set(tagIds);
  const tagged = new Set(manualTags.filter((link) => chosen.has(link.tagId)).map((link) => link.manualId));
  return manuals.filter(
    (manual) =>
      (!needle ||
        manual.title.toLowerCase().includes(needle) ||
        (manual.description ?? '').toLowerCase().includes(needle)) &&
      (versionId === 'all' || manual.versionId === versionId) &&
      (chosen.size === 0 || tagged.has(manual.id)),
  );
}
