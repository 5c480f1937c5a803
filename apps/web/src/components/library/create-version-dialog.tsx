import { useId, useState } from 'react';
import { z } from 'zod';

import { CreateDialog } from '@/components/library/create-dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import type { NewVersion } from '@/hooks/use-library';

// SPEC.md section 5: name and year required, the year read as an integer.
const REQUIRED = 'Version name and year are required';
const ZNewVersion = z.object({
  versionName: z.string().trim().min(1, REQUIRED),
  releaseYear: z
    .string()
    .trim()
    .min(1, REQUIRED)
    .transform((year) => Number.parseInt(year, 10))
    .pipe(z.number({ error: REQUIRED }).int()),
  description: z
    .string()
    .trim()
    .transform((text) => text || undefined),
});
const EMPTY = { versionName: '', releaseYear: '', description: '' };

type CreateVersionDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreate: (version: NewVersion) => Promise<boolean>;
};

/** 'Create Release Version': name, year and an optional description. */
export function CreateVersionDialog({ open, onOpenChange, onCreate }: CreateVersionDialogProps) {
  const id = useId();
  const [fields, setFields] = useState(EMPTY);

  return (
    <CreateDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Create Release Version"
      description="Group manuals by the product release they belong to."
      submitLabel="Create Version"
      schema={ZNewVersion}
      values={fields}
      onCreate={onCreate}
      onReset={() => setFields(EMPTY)}
    >
      <div className="grid gap-2">
        <Label htmlFor={`${id}-name`}>Version Name</Label>
        <Input
          id={`${id}-name`}
          value={fields.versionName}
          onChange={(e) => setFields({ ...fields, versionName: e.target.value })}
          placeholder="e.g., Series 5"
        />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-year`}>Release Year</Label>
        <Input
          id={`${id}-year`}
          type="number"
          inputMode="numeric"
          value={fields.releaseYear}
          onChange={(e) => setFields({ ...fields, releaseYear: e.target.value })}
          placeholder="e.g., 2024"
        />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-description`}>Description (optional)</Label>
        <Textarea
          id={`${id}-description`}
          rows={2}
          value={fields.description}
          onChange={(e) => setFields({ ...fields, description: e.target.value })}
        />
      </div>
    </CreateDialog>
  );
}
