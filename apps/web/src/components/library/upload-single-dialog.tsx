import type { UploadedManualFile } from '@fieldassist/client';
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
import { errorMessage } from '@/lib/error-message';
import type { ReleaseVersion } from '@/lib/tables';

import { FileField } from './file-field';
import { ReleaseVersionField } from './version-select';

export interface UploadedManual {
  file: UploadedManualFile;
  versionId: string;
}

type Steps = { upload: (file: File, onProgress: (percent: number) => void) => Promise<UploadedManualFile> };

type UploadSingleDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  versions: ReleaseVersion[];
  steps: Steps;
  onUploaded: (uploaded: UploadedManual) => void;
};

/** 'Upload Single Manual': a version and a file; Upload sends it with progress, and the server stores it and reads its details. */
export function UploadSingleDialog({ open, onOpenChange, versions, steps, onUploaded }: UploadSingleDialogProps) {
  const id = useId();
  const [versionId, setVersionId] = useState('');
  const [file, setFile] = useState<File>();
  const [progress, setProgress] = useState<number>();
  const [problem, setProblem] = useState<string>();
  const busy = progress !== undefined;
  // Once every byte is sent, the server stores the file and reads its cover page.
  const reading = progress === 100;

  const reset = () => {
    setVersionId('');
    setFile(undefined);
    setProgress(undefined);
    setProblem(undefined);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return setProblem('Please select a file to upload');
    if (!versionId) return setProblem('Please select a release version');
    setProblem(undefined);
    setProgress(0);
    try {
      onUploaded({ file: await steps.upload(file, setProgress), versionId });
      reset();
    } catch (error) {
      console.warn('Uploading the manual failed', error);
      toast.error('Failed to upload manual', { description: errorMessage(error, '') || undefined });
      setProgress(undefined);
    }
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !busy && (next || reset(), onOpenChange(next))}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Upload Single Manual</DialogTitle>
          <DialogDescription>
            The title, technology, date and part number are read from the file for you to check.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={(event) => void submit(event)} className="grid gap-4" noValidate>
          <ReleaseVersionField id={`${id}-version`} versions={versions} value={versionId} onChange={setVersionId} />
          <FileField id={`${id}-file`} label="Manual File" disabled={busy} onPick={(files) => setFile(files[0])} />
          {busy && (
            <div className="grid gap-1.5" aria-live="polite">
              <Progress value={reading ? 100 : progress} aria-label="Upload progress" />
              <p className="text-xs text-muted-foreground">
                {reading ? 'Reading the cover page…' : `Uploading… ${progress}%`}
              </p>
            </div>
          )}
          {problem && <Alert>{problem}</Alert>}
          <DialogFooter>
            <Button type="button" variant="outline" disabled={busy} onClick={() => (reset(), onOpenChange(false))}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? 'Uploading…' : 'Upload'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
