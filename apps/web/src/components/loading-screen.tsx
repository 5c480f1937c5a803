import { LoaderCircle } from 'lucide-react';

import { BrandMark } from '@/components/brand-mark';

/** Shown while the session is being restored (SPEC.md section 2) or a page chunk loads. */
export function LoadingScreen({ label = 'Loading FieldAssist…' }: { label?: string }) {
  return (
    <div className="flex min-h-dvh flex-col items-center justify-center gap-5 bg-linear-to-b from-primary/10 via-background to-background px-5">
      <BrandMark size="lg" />
      <div role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
        <LoaderCircle className="size-4 animate-spin motion-reduce:animate-none" aria-hidden="true" />
        {label}
      </div>
    </div>
  );
}
