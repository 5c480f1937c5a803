import { useId, type ReactNode } from 'react';

import { BrandMark } from '@/components/brand-mark';

/** The hosted page's frame: the landing page's background and the product's name above a card. */
export function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col bg-linear-to-b from-primary/10 via-background to-background">
      <main className="mx-auto flex w-full max-w-md flex-1 flex-col justify-center px-4 py-8 sm:px-6 sm:py-16">
        <div className="mb-6 flex items-center justify-center gap-3 sm:mb-8">
          <BrandMark size="md" />
          <span className="text-2xl font-bold tracking-tight">FieldAssist</span>
        </div>
        {children}
      </main>
      <footer className="px-5 pb-8 text-center text-sm text-muted-foreground">
        AI-Powered Assistant for field technicians
      </footer>
    </div>
  );
}

type AuthCardProps = { title: string; description?: ReactNode; children?: ReactNode; footer?: ReactNode };

/** One step of the page: a titled card, and below it a line such as 'New here? Create an account'. */
export function AuthCard({ title, description, children, footer }: AuthCardProps) {
  const titleId = useId();
  return (
    <>
      <section
        aria-labelledby={titleId}
        className="rounded-xl border bg-card p-5 text-card-foreground shadow-sm sm:p-8"
      >
        <h1 id={titleId} className="text-2xl font-semibold tracking-tight">
          {title}
        </h1>
        {description && (
          <p className="mt-2 text-sm leading-relaxed text-muted-foreground sm:text-base">{description}</p>
        )}
        {children && <div className="mt-6">{children}</div>}
      </section>
      {footer && <div className="mt-6 text-center text-sm text-muted-foreground">{footer}</div>}
    </>
  );
}
