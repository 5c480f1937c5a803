import { LogOut, Menu } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { TABS, type TabId } from '@/lib/tabs';
import { cn } from '@/lib/utils';

type MobileMenuProps = { active: TabId; onSelect: (tab: TabId) => void; onSignOut: () => void; className?: string };

/** The hamburger menu of small screens (SPEC.md section 2): the tabs plus Sign Out. */
export function MobileMenu({ active, onSelect, onSignOut, className }: MobileMenuProps) {
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="icon" aria-label="Open menu" className={className}>
          <Menu aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-56">
        {TABS.map(({ id, label, icon: Icon }) => (
          <DropdownMenuItem
            key={id}
            onSelect={() => onSelect(id)}
            aria-current={id === active ? 'page' : undefined}
            className={cn(id === active && 'bg-primary/10 font-medium text-primary')}
          >
            <Icon aria-hidden="true" />
            {label}
          </DropdownMenuItem>
        ))}
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={onSignOut}>
          <LogOut aria-hidden="true" />
          Sign Out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
