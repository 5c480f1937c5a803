import { BookOpen } from 'lucide-react';

import { Button } from '@/components/ui/button';

type LibraryEmptyStateProps = {
  canUpload: boolean;
  /** Set when the library has manuals but the filters hide them all. */ onClearFilters?: () => void;
};

/**
 * SPEC.md section 2: 'No manuals found', with a next step that fits the user's role; when
 * filters hide every manual, it says so and offers to clear them instead.
 */
export function LibraryEmptyState({ canUpload, onClearFilters }: LibraryEmptyStateProps) {
  return (
    <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed bg-card px-4 py-12 text-center">
      <BookOpen className="size-10 text-muted-foreground" aria-hidden="true" />
      <h2 className="font-semibold">No manuals found</h2>
      {onClearFilters ? (
        <>
          <p className="text-base text-muted-foreground">No manuals match the search and filters.</p>
          <Button variant="outline" onClick={onClearFilters} className="mt-2">
            Clear filters
          </Button>
        </>
      ) : (
        <p className="text-base text-muted-foreground">
          {canUpload ? 'Upload your first manual to get started' : 'Check back later for available manuals'}
        </p>
      )}
    </div>
  );
}
