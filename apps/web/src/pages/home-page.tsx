import type { AuthUser } from '@fieldassist/client';
import { lazy, Suspense, useRef, useState, type ComponentType } from 'react';

import { AppHeader } from '@/components/app-header';
import { AppStatusBanner } from '@/components/app-status-banner';
import { TabLoading } from '@/components/tab-loading';
import { client } from '@/lib/client';
import { focusHeadingOf } from '@/lib/focus-heading';
import { useOutboxSync } from '@/offline/use-outbox-sync';
import { DEFAULT_TAB, TABS, type TabId } from '@/lib/tabs';

type TabProps = { user: AuthUser };

// Each tab's code loads when it is first opened (issue 6, item 1).
const tabPages: Record<TabId, ComponentType<TabProps>> = {
  chat: lazy(() => import('@/pages/chat/chat-page').then((m) => ({ default: m.ChatPage }))),
  jobs: lazy(() => import('@/pages/jobs-page').then((m) => ({ default: m.JobsPage }))),
  manuals: lazy(() => import('@/pages/manuals-page').then((m) => ({ default: m.ManualsPage }))),
  'add-user': lazy(() => import('@/pages/add-user-page').then((m) => ({ default: m.AddUserPage }))),
  profile: lazy(() => import('@/pages/profile-page').then((m) => ({ default: m.ProfilePage }))),
};

/**
 * The signed-in app: the header and one tab at a time, switched in memory (SPEC.md
 * section 2, no URL routes). A tab once opened stays mounted while hidden, so a chat
 * answer that is streaming or a half-filled form survives a look at another tab.
 */
export function HomePage({ user }: { user: AuthUser }) {
  const [active, setActive] = useState<TabId>(DEFAULT_TAB);
  const [opened, setOpened] = useState<TabId[]>([DEFAULT_TAB]);
  const screens = useRef(new Map<TabId, HTMLElement>());
  useOutboxSync(user.id);

  const select = (tab: TabId) => {
    setActive(tab);
    setOpened((tabs) => (tabs.includes(tab) ? tabs : [...tabs, tab]));
  };

  return (
    <div className="flex min-h-dvh flex-col bg-muted/40">
      <AppHeader
        user={user}
        active={active}
        onSelect={select}
        onFocusTab={(tab) => {
          const screen = screens.current.get(tab);
          if (screen) focusHeadingOf(screen);
        }}
        onSignOut={() => void client.auth.logout()}
      />
      <AppStatusBanner />
      {TABS.filter(({ id }) => opened.includes(id)).map(({ id, label }) => {
        const Page = tabPages[id];
        return (
          <main
            key={id}
            ref={(screen) => {
              if (screen) screens.current.set(id, screen);
              else screens.current.delete(id);
            }}
            hidden={id !== active}
            aria-label={label}
            className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 sm:px-6 sm:py-8"
          >
            <Suspense fallback={<TabLoading />}>
              <Page user={user} />
            </Suspense>
          </main>
        );
      })}
    </div>
  );
}
