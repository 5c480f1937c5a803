import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Progress } from '@/components/ui/progress';
import { type BulkFileState, FAILED, useManualBulkUpload } from '@/hooks/use-manual-bulk-upload';
import type { ReleaseVersion } from '@/lib/tables';

import { FileField } from './file-field';
import { ReleaseVersionField } from './version-select';

type BulkUploadDialogProps = { open: boolean; onOpenChange: (open: boolean) => void; versions: ReleaseVersion[] };

/** 'Bulk Upload Manuals': a version and several files, uploaded one at a time with progress each. */
export function BulkUploadDialog({ open, onOpenChange, versions }: BulkUploadDialogProps) {
  const id = useId();
  const bulk = useManualBulkUpload();
  const [versionId, setVersionId] = useState('');
  const [picked, setPicked] = useState<File[]>([]);
  const [problem, setProblem] = useState<string>();
  // A new picker after each run: the browser's own "5 files" would otherwise stay on show.
  const [round, setRound] = useState(0);

  const close = (next: boolean) => {
    if (bulk.running) return; // the files are still going up; the dialog shows how far
    if (!next) {
      setVersionId('');
      setPicked([]);
      setProblem(undefined);
      bulk.reset();
    }
    onOpenChange(next);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (picked.length === 0) return setProblem('Please select at least one file to upload');
    if (!versionId) return setProblem('Please select a release version');
    setProblem(undefined);
    try {
      const { succeeded, failed } = await bulk.run(picked, versionId);
      toast.success('Bulk Upload Complete', { description: `${succeeded} succeeded, ${failed} failed` });
      setPicked([]);
      setRound((n) => n + 1);
    } catch (error) {
      console.warn('Bulk upload failed', error);
      toast.error('Bulk upload failed');
    }
  };

  const rows = bulk.files.length ? bulk.files : picked.map((file): BulkFileState => ({ name: file.name, progress: 0 }));
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Bulk Upload Manuals</DialogTitle>
          <DialogDescription>
            Files go up one at a time; their details are saved as read, without a review.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={(event) => void submit(event)} className="grid gap-4" noValidate>
          <ReleaseVersionField id={`${id}-version`} versions={versions} value={versionId} onChange={setVersionId} />
          <FileField
            key={round}
            id={`${id}-files`}
            label="Manual Files"
            multiple
            disabled={bulk.running}
            onPick={(files) => (setPicked(files), bulk.reset())}
          />
          {rows.length > 0 && (
            <ul className="grid max-h-64 gap-3 overflow-y-auto" aria-label="Files">
              {rows.map((row, index) => (
                <li
                  key={`${row.name}-${index}`}
                  data-testid="bulk-file"
                  data-progress={row.progress}
                  className="grid gap-1"
                >
                  <div className="flex items-center justify-between gap-3 text-sm">
                    <span className="min-w-0 truncate">{row.name}</span>
                    <span
                      className={row.progress === FAILED ? 'font-medium text-destructive' : 'text-muted-foreground'}
                    >
                      {row.progress === FAILED ? 'Failed' : `${row.progress}%`}
                    </span>
                  </div>
                  <Progress
                    value={row.progress === FAILED ? 100 : row.progress}
                    aria-label={`Progress of ${row.name}`}
                    className={row.progress === FAILED ? '[&>div]:bg-destructive' : undefined}
                  />
                  {row.progress === FAILED && row.error && <p className="text-xs text-destructive">{row.error}</p>}
                  {row.progress !== FAILED && row.note && <p className="text-xs text-muted-foreground">{row.note}</p>}
                </li>
              ))}
            </ul>
          )}
          {problem && <Alert>{problem}</Alert>}
          <DialogFooter>
            <Button type="button" variant="outline" disabled={bulk.running} onClick={() => close(false)}>
              {bulk.files.length && !bulk.running ? 'Done' : 'Cancel'}
            </Button>
            <Button type="submit" disabled={bulk.running}>
              {bulk.running ? 'Uploading…' : 'Upload'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
