import { BookOpen } from 'lucide-react';

import { PageHeading } from '@/components/page-heading';
import { Card, CardContent } from '@/components/ui/card';

/** The Manuals tab until the manual library arrives (issue 8): says so, shows no made-up data. */
export function ManualsPage() {
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeading title="Manual Library" subtitle="Technical manuals for your equipment" />
      <Card>
        <CardContent className="flex flex-col items-center gap-3 py-12 text-center sm:py-16">
          <div className="flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
            <BookOpen className="size-6" aria-hidden="true" />
          </div>
          <h2 className="text-lg font-semibold">The manual library arrives in a later release</h2>
          <p className="max-w-md text-sm text-muted-foreground">
            Uploading, tagging and searching manuals is not available yet. The AI Assistant already answers from manuals that are in the library.
          </p>
        </CardContent>
      </Card>
    </div>
  );
}
