import type { LucideIcon } from 'lucide-react';

type FeatureCardProps = { icon: LucideIcon; title: string; description: string };

export function FeatureCard({ icon: Icon, title, description }: FeatureCardProps) {
  return (
    <article className="rounded-xl border bg-card p-5 text-card-foreground shadow-sm sm:p-6">
      <div className="mb-4 flex size-11 items-center justify-center rounded-lg bg-primary/10 text-primary">
        <Icon className="size-6" aria-hidden="true" />
      </div>
      <h2 className="text-lg font-semibold tracking-tight">{title}</h2>
      <p className="mt-2 text-sm leading-relaxed text-muted-foreground sm:text-base">{description}</p>
    </article>
  );
}
