import type { AuthUser } from '@fieldassist/client';
import { LogOut } from 'lucide-react';

import { BrandMark } from '@/components/brand-mark';
import { HeaderTabs } from '@/components/header-tabs';
import { MobileMenu } from '@/components/mobile-menu';
import { Button } from '@/components/ui/button';
import { UserAvatar } from '@/components/user-avatar';
import type { TabId } from '@/lib/tabs';

type AppHeaderProps = {
  user: AuthUser;
  active: TabId;
  onSelect: (tab: TabId) => void;
  /** Moves focus to a tab's screen; the hamburger menu calls it after a tab was chosen. */
  onFocusTab: (tab: TabId) => void;
  onSignOut: () => void;
};

/**
 * The signed-in header (SPEC.md section 2): title, tabs, an avatar button that opens
 * Profile, Sign Out; below the lg breakpoint the tabs move into a hamburger menu.
 */
export function AppHeader({ user, active, onSelect, onFocusTab, onSignOut }: AppHeaderProps) {
  const name = user.displayName || user.email;
  return (
    <header className="sticky top-0 z-20 border-b bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/80">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-2 px-4 sm:gap-3 sm:px-6">
        <BrandMark size="sm" />
        <span className="text-lg font-bold tracking-tight">FieldAssist</span>
        <HeaderTabs active={active} onSelect={onSelect} className="ml-4 hidden lg:flex" />
        <div className="ml-auto flex min-w-0 items-center gap-2">
          <p className="sr-only">Signed in as {user.email}</p>
          <button
            type="button"
            onClick={() => onSelect('profile')}
            aria-label={`Profile of ${name}`}
            className="flex min-h-11 min-w-11 items-center justify-center gap-2 rounded-full p-1 outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring focus-visible:ring-offset-2 xl:pr-3"
          >
            <UserAvatar displayName={user.displayName} email={user.email} imageUrl={user.photoURL} />
            <span className="hidden max-w-40 truncate text-sm font-medium xl:block" data-testid="header-user">
              {name}
            </span>
          </button>
          <Button
            variant="outline"
            size="sm"
            onClick={onSignOut}
            aria-label="Sign Out"
            className="max-sm:size-11 max-sm:px-0"
          >
            <LogOut aria-hidden="true" />
            <span className="max-sm:sr-only">Sign Out</span>
          </Button>
          <MobileMenu
            active={active}
            onSelect={onSelect}
            onFocusTab={onFocusTab}
            onSignOut={onSignOut}
            className="lg:hidden"
          />
        </div>
      </div>
    </header>
  );
}
