import { Download, LoaderCircle, ScanText, Trash2, TriangleAlert } from 'lucide-react';

import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';
import type { IndexProgress } from '@/hooks/use-manual-status';
import type { Manual, ReleaseVersion, Tag } from '@/lib/tables';
import { cn } from '@/lib/utils';

import { formatFileSize } from './format-file-size';
import { SaveOffline } from './save-offline-button';

type ManualCardProps = {
  manual: Manual;
  version?: ReleaseVersion;
  tags: Tag[];
  canDelete: boolean;
  deleting: boolean;
  onDelete: () => void;
  /** While the server embeds a ready manual's passages for search (issue 15). */
  indexProgress?: IndexProgress;
  /** Save for offline (issue 18); absent where the browser cannot keep files. */
  offline?: { savedBytes: number | undefined; busy: boolean; onSave: () => void; onRemove: () => void };
};

function Fact({ term, value }: { term: string; value: string | null }) {
  return (
    <div className="flex gap-2">
      <dt className="shrink-0 text-muted-foreground">{term}:</dt>
      <dd className="min-w-0 truncate font-medium">{value || '—'}</dd>
    </div>
  );
}

/**
 * A ready manual is searchable by its words at once; the server then embeds its passages in the
 * background so that questions in other words find it too. Shown until the last one is done.
 */
function SearchPreparation({ embedded, total }: IndexProgress) {
  const label = `Preparing for search: ${embedded.toLocaleString('en')} of ${total.toLocaleString('en')} passages`;
  return (
    <div role="status" className="grid gap-2">
      <p className="flex items-center gap-2 text-sm font-medium text-foreground">
        <LoaderCircle className="size-4 shrink-0 animate-spin text-primary" aria-hidden="true" />
        {label}
      </p>
      <Progress value={(embedded / total) * 100} aria-label="Preparing for search" className="h-2.5" />
    </div>
  );
}

/** One manual (SPEC.md section 2): its facts, tags, live processing state, Download and, for admins, delete. */
export function ManualCard({
  manual,
  version,
  tags,
  canDelete,
  deleting,
  onDelete,
  indexProgress,
  offline,
}: ManualCardProps) {
  const processing = manual.processingStatus === 'pending' || manual.processingStatus === 'processing';
  return (
    <li
      data-testid="manual"
      data-status={manual.processingStatus}
      className="flex flex-col gap-3 rounded-xl border bg-card p-4 shadow-sm"
    >
      <div className="flex items-start justify-between gap-2">
        <h3 className="min-w-0 font-semibold leading-snug break-words">{manual.title}</h3>
        {version && <Badge className="border-primary/30 bg-primary/10 text-primary">{version.versionName}</Badge>}
      </div>
      <dl className="grid gap-1 text-sm">
        <Fact term="Technology" value={manual.technology} />
        <Fact term="Part number" value={manual.partNumber} />
        <Fact term="Published" value={manual.datePublished} />
        <Fact term="File" value={`${manual.fileName} (${formatFileSize(manual.fileSize)})`} />
      </dl>
      {manual.description && <p className="text-sm text-muted-foreground">{manual.description}</p>}
      {tags.length > 0 && (
        <ul className="flex flex-wrap gap-1.5" aria-label="Tags">
          {tags.map((tag) => (
            <li key={tag.id}>
              <Badge
                style={{ borderColor: tag.color, backgroundColor: `color-mix(in srgb, ${tag.color} 15%, transparent)` }}
              >
                {tag.name}
              </Badge>
            </li>
          ))}
        </ul>
      )}
      {processing && (
        <p role="status" className="flex items-center gap-2 text-sm text-primary">
          <LoaderCircle className="size-4 animate-spin" aria-hidden="true" />
          {manual.scanProgress
            ? `Reading scanned pages: ${manual.scanProgress.read} of ${manual.scanProgress.total}`
            : 'Processing content...'}
        </p>
      )}
      {manual.processingStatus === 'ready' && indexProgress && <SearchPreparation {...indexProgress} />}
      {manual.processingStatus === 'ready' && (manual.ocrPages?.length ?? 0) > 0 && (
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <ScanText className="size-4" aria-hidden="true" />
          Scanned manual: text of {manual.ocrPages!.length} {manual.ocrPages!.length === 1 ? 'page' : 'pages'} read by
          OCR
        </p>
      )}
      {manual.processingStatus === 'failed' && (
        <p
          className="flex items-start gap-2 text-sm text-amber-900 dark:text-amber-200"
          title={manual.processingError ?? undefined}
        >
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          Content could not be extracted; the file can still be downloaded.
        </p>
      )}
      {offline && <SaveOffline title={manual.title} {...offline} />}
      <div className="mt-auto flex gap-2 pt-1">
        <a
          href={manual.fileUrl}
          target="_blank"
          rel="noopener noreferrer"
          className={cn(buttonVariants({ variant: 'outline' }), 'flex-1')}
        >
          <Download aria-hidden="true" />
          Download<span className="sr-only"> {manual.title}</span>
        </a>
        {canDelete && (
          <Button
            variant="outline"
            size="icon"
            className="text-destructive hover:text-destructive"
            onClick={onDelete}
            disabled={deleting}
            aria-label={`Delete ${manual.title}`}
          >
            <Trash2 aria-hidden="true" />
          </Button>
        )}
      </div>
    </li>
  );
}
