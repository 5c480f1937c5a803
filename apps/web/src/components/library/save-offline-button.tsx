import { CloudDownload, HardDriveDownload, LoaderCircle, Trash2 } from 'lucide-react';

import { Button } from '@/components/ui/button';

import { formatFileSize } from './format-file-size';

type SaveOfflineProps = {
  title: string;
  savedBytes: number | undefined;
  busy: boolean;
  onSave: () => void;
  onRemove: () => void;
};

/** A manual card's "Save for offline", or, once saved, the space it takes and Remove. */
export function SaveOffline({ title, savedBytes, busy, onSave, onRemove }: SaveOfflineProps) {
  if (savedBytes === undefined) {
    return (
      <Button variant="outline" className="w-full" onClick={onSave} disabled={busy}>
        {busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <CloudDownload aria-hidden="true" />}
        {busy ? 'Saving…' : 'Save for offline'}
        <span className="sr-only"> {title}</span>
      </Button>
    );
  }
  return (
    <div className="flex items-center gap-2" data-testid="saved-offline">
      <p className="flex flex-1 items-center gap-2 text-sm font-medium">
        <HardDriveDownload className="size-5 shrink-0 text-primary" aria-hidden="true" />
        Saved on this phone ({formatFileSize(savedBytes)})
      </p>
      <Button variant="outline" onClick={onRemove} disabled={busy} aria-label={`Remove the offline copy of ${title}`}>
        <Trash2 aria-hidden="true" />
        Remove
      </Button>
    </div>
  );
}
