import { LogOut, Menu } from 'lucide-react';
import { useRef } from 'react';

import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { TABS, type TabId } from '@/lib/tabs';
import { cn } from '@/lib/utils';

type MobileMenuProps = {
  active: TabId;
  onSelect: (tab: TabId) => void;
  /** Once the menu has closed after a tab was chosen: focus goes to that tab's screen. */
  onFocusTab: (tab: TabId) => void;
  onSignOut: () => void;
  className?: string;
};

/** The hamburger menu of small screens (SPEC.md section 2): the tabs plus Sign Out. */
export function MobileMenu({ active, onSelect, onFocusTab, onSignOut, className }: MobileMenuProps) {
  const chosen = useRef<TabId | null>(null);
  // Radix focuses the first item only if no pointer moved since the key was pressed; a stray
  // pointermove (a nudged mouse, a layout change under a resting cursor) would leave a keyboard
  // user on the menu's frame instead, so the key that opened the menu is remembered here.
  const openedByKey = useRef(false);
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button
          variant="outline"
          size="icon"
          aria-label="Open menu"
          className={cn('size-12', className)}
          onKeyDown={(event) => (openedByKey.current = [' ', 'Enter', 'ArrowDown'].includes(event.key))}
          onPointerDown={() => (openedByKey.current = false)}
        >
          <Menu aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent
        align="end"
        className="w-56"
        onFocus={(event) => {
          // Opening, Radix focuses the menu's frame, then its first item if it still thinks a key opened it.
          if (event.target !== event.currentTarget || !openedByKey.current) return;
          openedByKey.current = false;
          event.currentTarget.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
        }}
        onCloseAutoFocus={(event) => {
          // Escape or Sign Out: Radix gives focus back to the button. A chosen tab is a new
          // screen instead: its heading takes focus, so a screen reader announces where the user is.
          if (!chosen.current) return;
          event.preventDefault();
          onFocusTab(chosen.current);
          chosen.current = null;
        }}
      >
        {TABS.map(({ id, label, icon: Icon }) => (
          <DropdownMenuItem
            key={id}
            onSelect={() => {
              chosen.current = id;
              onSelect(id);
            }}
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
