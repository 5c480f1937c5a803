import { Search } from 'lucide-react';
import { useId } from 'react';

import { Input } from '@/components/ui/input';
import type { ReleaseVersion, Tag } from '@/lib/tables';

import type { LibraryFilter } from './filter-manuals';
import { TagChips } from './tag-chips';
import { VersionSelect } from './version-select';

type LibraryFiltersProps = {
  filter: LibraryFilter;
  versions: ReleaseVersion[];
  tags: Tag[];
  onChange: (filter: LibraryFilter) => void;
};

/** The search box, the version filter and the tag chips above the cards. */
export function LibraryFilters({ filter, versions, tags, onChange }: LibraryFiltersProps) {
  const id = useId();
  const toggleTag = (tagId: string) =>
    onChange({
      ...filter,
      tagIds: filter.tagIds.includes(tagId) ? filter.tagIds.filter((t) => t !== tagId) : [...filter.tagIds, tagId],
    });

  return (
    <div className="mb-6 grid gap-3">
      <div className="flex flex-col gap-3 sm:flex-row">
        <div className="relative flex-1">
          <label htmlFor={`${id}-search`} className="sr-only">
            Search manuals
          </label>
          <Search
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
            aria-hidden="true"
          />
          <Input
            id={`${id}-search`}
            type="search"
            value={filter.search}
            onChange={(event) => onChange({ ...filter, search: event.target.value })}
            placeholder="Search manuals..."
            className="pl-9"
          />
        </div>
        <span id={`${id}-version`} className="sr-only">
          Version
        </span>
        <VersionSelect
          versions={versions}
          value={filter.versionId}
          onChange={(versionId) => onChange({ ...filter, versionId })}
          labelId={`${id}-version`}
          withAll
          className="sm:w-60"
        />
      </div>
      {tags.length > 0 && <TagChips tags={tags} selected={filter.tagIds} onToggle={toggleTag} label="Filter by tag" />}
    </div>
  );
}
