import { TABS, type TabId } from '@/lib/tabs';
import { cn } from '@/lib/utils';

type HeaderTabsProps = { active: TabId; onSelect: (tab: TabId) => void; className?: string };

/** The header's tabs on wide screens; the current one is marked for assistive technology too. */
export function HeaderTabs({ active, onSelect, className }: HeaderTabsProps) {
  return (
    <nav aria-label="Main" className={cn('items-center gap-1', className)}>
      {TABS.map(({ id, label, icon: Icon }) => (
        <button
          key={id}
          type="button"
          aria-current={id === active ? 'page' : undefined}
          onClick={() => onSelect(id)}
          className={cn(
            'inline-flex h-11 items-center gap-2 rounded-md px-3 text-sm font-medium whitespace-nowrap transition-colors outline-none',
            'focus-visible:ring-[3px] focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background',
            id === active
              ? 'bg-primary/10 text-primary'
              : 'text-muted-foreground hover:bg-accent hover:text-foreground',
          )}
        >
          <Icon className="size-4" aria-hidden="true" />
          {label}
        </button>
      ))}
    </nav>
  );
}
