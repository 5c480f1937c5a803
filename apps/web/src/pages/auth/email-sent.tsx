import { ArrowLeft, MailCheck } from 'lucide-react';
import type { ReactNode } from 'react';

import { Button } from '@/components/ui/button';

import { AuthCard } from './auth-layout';

/** After a link was requested. The server answers alike whether or not the email has an account. */
export function EmailSent({ children, onBack }: { children: ReactNode; onBack: () => void }) {
  return (
    <AuthCard title="Check your email">
      <div className="grid gap-5">
        <div className="flex items-start gap-3">
          <div className="flex size-10 shrink-0 items-center justify-center rounded-full bg-primary/10 text-primary">
            <MailCheck className="size-5" aria-hidden="true" />
          </div>
          <p role="status" className="text-sm leading-relaxed text-muted-foreground sm:text-base">
            {children}
          </p>
        </div>
        <Button variant="outline" size="lg" className="w-full" autoFocus onClick={onBack}>
          <ArrowLeft aria-hidden="true" />
          Back to sign in
        </Button>
      </div>
    </AuthCard>
  );
}
