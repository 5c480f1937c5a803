import { Check } from 'lucide-react';

import { cn } from '@/lib/utils';
import type { Tag } from '@/lib/tables';

type TagChipsProps = {
  tags: Tag[];
  selected: string[];
  onToggle: (tagId: string) => void;
  label: string;
  className?: string;
};

/**
 * Tags as toggle chips in their own colour. The text stays the page's colour on a light tint
 * of the tag's, so any colour an admin picks stays readable.
 */
export function TagChips({ tags, selected, onToggle, label, className }: TagChipsProps) {
  return (
    <div role="group" aria-label={label} className={cn('flex flex-wrap gap-2', className)}>
      {tags.map((tag) => {
        const on = selected.includes(tag.id);
        return (
          <button
            key={tag.id}
            type="button"
            aria-pressed={on}
            onClick={() => onToggle(tag.id)}
            style={{
              borderColor: tag.color,
              backgroundColor: on ? `color-mix(in srgb, ${tag.color} 22%, transparent)` : undefined,
            }}
            className="inline-flex min-h-11 items-center gap-1.5 rounded-full border px-4 py-1 text-sm font-medium outline-none transition-colors hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring focus-visible:ring-offset-1"
          >
            {on ? (
              <Check className="size-3.5" aria-hidden="true" />
            ) : (
              <span className="size-2.5 rounded-full" style={{ backgroundColor: tag.color }} aria-hidden="true" />
            )}
            {tag.name}
          </button>
        );
      })}
    </div>
  );
}
