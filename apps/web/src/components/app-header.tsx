import type { AuthUser } from '@fieldassist/client';
import { LogOut } from 'lucide-react';

import { BrandMark } from '@/components/brand-mark';
import { Button } from '@/components/ui/button';
import { UserAvatar } from '@/components/user-avatar';

type AppHeaderProps = { user: AuthUser; onSignOut: () => void };

/** The signed-in header: product name, who is signed in, and Sign Out. Tabs come later (SPEC.md section 2). */
export function AppHeader({ user, onSignOut }: AppHeaderProps) {
  const name = user.displayName || user.email;
  return (
    <header className="sticky top-0 z-10 border-b bg-background/90 backdrop-blur supports-[backdrop-filter]:bg-background/75">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-3 px-4 sm:px-6">
        <BrandMark size="sm" />
        <span className="text-lg font-bold tracking-tight">FieldAssist</span>
        <div className="ml-auto flex min-w-0 items-center gap-3">
          <div className="hidden min-w-0 text-right sm:block" data-testid="header-user">
            <p className="truncate text-sm font-medium">{name}</p>
            {user.displayName && <p className="truncate text-xs text-muted-foreground">{user.email}</p>}
          </div>
          <UserAvatar displayName={user.displayName} email={user.email} />
          <Button variant="outline" size="sm" onClick={onSignOut}>
            <LogOut aria-hidden="true" />
            Sign Out
          </Button>
        </div>
      </div>
    </header>
  );
}
