import { Wrench } from 'lucide-react';

import { cn } from '@/lib/utils';

const sizes = {
  sm: { box: 'size-8 rounded-lg', icon: 'size-4' },
  md: { box: 'size-11 rounded-xl shadow-md shadow-primary/20', icon: 'size-6' },
  lg: { box: 'size-16 rounded-2xl shadow-lg shadow-primary/25', icon: 'size-8' },
} as const;

/** The product's logo: a wrench on the primary colour. Decorative; the name is always next to it. */
export function BrandMark({ size = 'md', className }: { size?: keyof typeof sizes; className?: string }) {
  return (
    <div
      className={cn(
        'flex shrink-0 items-center justify-center bg-primary text-primary-foreground',
        sizes[size].box,
        className,
      )}
    >
      <Wrench className={sizes[size].icon} aria-hidden="true" />
    </div>
  );
}
