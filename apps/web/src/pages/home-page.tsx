import type { AuthUser } from '@fieldassist/client';
import { BookOpen, ClipboardList, MessageSquareText } from 'lucide-react';

import { AppHeader } from '@/components/app-header';
import { FeatureCard } from '@/components/feature-card';
import { client } from '@/lib/client';

/**
 * The signed-in app. For now a header and a welcome; the chat, jobs and manual tabs of
 * SPEC.md section 2 replace the cards below.
 */
export function HomePage({ user }: { user: AuthUser }) {
  const firstName = user.displayName?.trim().split(/\s+/)[0];
  return (
    <div className="flex min-h-dvh flex-col bg-muted/40">
      <AppHeader user={user} onSignOut={() => void client.auth.logout()} />
      <main className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6 sm:py-12">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{firstName ? `Welcome, ${firstName}` : 'Welcome'}</h1>
        <p className="mt-2 text-muted-foreground wrap-anywhere">
          Signed in as <span className="font-medium text-foreground">{user.email}</span>
          {user.role && (
            <span className="ml-2 inline-flex rounded-full bg-primary/10 px-2 py-0.5 text-xs font-medium text-primary capitalize">{user.role}</span>
          )}
        </p>
        <section aria-label="Coming soon" className="mt-8 grid gap-4 sm:grid-cols-3 sm:gap-6">
          <FeatureCard icon={MessageSquareText} title="AI Assistant" description="Troubleshoot equipment with answers from your manuals. Coming soon." />
          <FeatureCard icon={ClipboardList} title="My Jobs" description="Track and manage your field assignments. Coming soon." />
          <FeatureCard icon={BookOpen} title="Manual Library" description="Upload, tag and search your technical manuals. Coming soon." />
        </section>
      </main>
    </div>
  );
}
