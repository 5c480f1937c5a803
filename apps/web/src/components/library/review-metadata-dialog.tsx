import { useId, useState, type FormEvent } from 'react';

import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import type { Tag } from '@/lib/tables';

import type { ExtractedMetadata } from './manual-metadata';
import { TagChips } from './tag-chips';

type ReviewMetadataDialogProps = {
  /** The details read from the file; the dialog is open while there are some. */
  metadata: ExtractedMetadata | null;
  fileName: string;
  tags: Tag[];
  onSave: (details: ExtractedMetadata & { tagIds: string[] }) => Promise<void>;
  onCancel: () => void;
};

const FIELDS = [
  ['title', 'Title'],
  ['technology', 'Technology'],
  ['datePublished', 'Publication Date'],
  ['partNumber', 'Part Number'],
] as const;

/** 'Review Extracted Metadata': the details read from the file, editable, and the manual's tags. */
export function ReviewMetadataDialog({ metadata, fileName, tags, onSave, onCancel }: ReviewMetadataDialogProps) {
  return (
    <Dialog open={metadata !== null} onOpenChange={(open) => !open && onCancel()}>
      <DialogContent>
        {metadata && (
          <ReviewForm
            key={fileName}
            metadata={metadata}
            fileName={fileName}
            tags={tags}
            onSave={onSave}
            onCancel={onCancel}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

function ReviewForm({
  metadata,
  fileName,
  tags,
  onSave,
  onCancel,
}: Omit<ReviewMetadataDialogProps, 'metadata'> & { metadata: ExtractedMetadata }) {
  const id = useId();
  const [fields, setFields] = useState(metadata);
  const [tagIds, setTagIds] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    try {
      await onSave({ ...fields, tagIds });
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <DialogHeader>
        <DialogTitle>Review Extracted Metadata</DialogTitle>
        <DialogDescription className="[overflow-wrap:anywhere]">
          Read from {fileName}. Correct anything that is wrong; Unknown is saved as empty.
        </DialogDescription>
      </DialogHeader>
      <form onSubmit={(event) => void submit(event)} className="grid gap-4">
        {FIELDS.map(([key, label]) => (
          <div key={key} className="grid gap-2">
            <Label htmlFor={`${id}-${key}`}>{label}</Label>
            <Input
              id={`${id}-${key}`}
              value={fields[key]}
              onChange={(e) => setFields({ ...fields, [key]: e.target.value })}
            />
          </div>
        ))}
        <div className="grid gap-2">
          <span className="text-sm leading-none font-medium">Tags</span>
          {tags.length ? (
            <TagChips
              tags={tags}
              selected={tagIds}
              label="Tags"
              onToggle={(tagId) =>
                setTagIds((ids) => (ids.includes(tagId) ? ids.filter((t) => t !== tagId) : [...ids, tagId]))
              }
            />
          ) : (
            <p className="text-xs text-muted-foreground">No tags yet: create some with New Tag.</p>
          )}
        </div>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onCancel} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" disabled={saving}>
            {saving ? 'Saving…' : 'Save Manual'}
          </Button>
        </DialogFooter>
      </form>
    </>
  );
}
