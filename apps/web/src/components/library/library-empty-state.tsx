import { BookOpen } from 'lucide-react';

/** SPEC.md section 2: 'No manuals found', with a next step that fits the user's role. */
export function LibraryEmptyState({ canUpload }: { canUpload: boolean }) {
  return (
    <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed bg-card px-4 py-12 text-center">
      <BookOpen className="size-10 text-muted-foreground/60" aria-hidden="true" />
      <h2 className="font-semibold">No manuals found</h2>
      <p className="text-sm text-muted-foreground">{canUpload ? 'Upload your first manual to get started' : 'Check back later for available manuals'}</p>
    </div>
  );
}
