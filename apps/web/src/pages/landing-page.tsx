import { Camera, LogIn, MessageSquareText } from 'lucide-react';

import { BrandMark } from '@/components/brand-mark';
import { FeatureCard } from '@/components/feature-card';
import { Button } from '@/components/ui/button';
import { client } from '@/lib/client';

/** What a signed-out visitor sees (SPEC.md sections 1 and 2). */
export function LandingPage() {
  // SPEC.md section 2: the hosted page with redirect_url, project_id and a state the client checks on the return.
  const signIn = () => client.auth.login(`${window.location.origin}/`);

  return (
    <div className="flex min-h-dvh flex-col bg-linear-to-b from-primary/10 via-background to-background">
      <main className="mx-auto flex w-full max-w-4xl flex-1 flex-col justify-center px-5 py-12 sm:px-8 sm:py-20">
        <section className="flex flex-col items-center text-center">
          <BrandMark size="lg" className="mb-6" />
          <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">FieldAssist</h1>
          <p className="mt-3 text-lg font-medium text-primary sm:text-xl">AI-Powered Assistant</p>
          <p className="mt-4 max-w-xl text-base leading-relaxed text-muted-foreground sm:text-lg">
            Troubleshoot equipment on site with answers drawn from your own technical manuals.
          </p>
          <Button type="button" size="lg" className="mt-8 w-full max-w-xs sm:w-auto sm:min-w-44" onClick={signIn}>
            <LogIn aria-hidden="true" />
            Sign In
          </Button>
        </section>

        <section aria-label="Features" className="mt-12 grid gap-4 sm:mt-16 sm:grid-cols-2 sm:gap-6">
          <FeatureCard
            icon={MessageSquareText}
            title="AI Chat Support"
            description="Ask technical questions and get step-by-step answers grounded in your technical documentation."
          />
          <FeatureCard
            icon={Camera}
            title="Visual Diagnostics"
            description="Snap a photo of an equipment issue and get an AI analysis of what might be wrong."
          />
        </section>
      </main>
      <footer className="px-5 pb-8 text-center text-sm text-muted-foreground">
        For field technicians, managers and admins.
      </footer>
    </div>
  );
}
