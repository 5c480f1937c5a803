import { useId, useState } from 'react';
import { z } from 'zod';

import { CreateDialog } from '@/components/library/create-dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import type { NewTag } from '@/hooks/use-library';

// SPEC.md sections 5 and 9: a name is required; the colour defaults to #3b82f6.
const DEFAULT_TAG_COLOR = '#3b82f6';
const ZNewTag = z.object({
  name: z.string().trim().min(1, 'Tag name is required'),
  color: z
    .string()
    .regex(/^#[0-9a-f]{6}$/i)
    .catch(DEFAULT_TAG_COLOR),
});

type CreateTagDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreate: (tag: NewTag) => Promise<boolean>;
};

/** 'Create Tag': a name and a colour. */
export function CreateTagDialog({ open, onOpenChange, onCreate }: CreateTagDialogProps) {
  const id = useId();
  const [name, setName] = useState('');
  const [color, setColor] = useState(DEFAULT_TAG_COLOR);

  return (
    <CreateDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Create Tag"
      description="Tags let technicians filter the library."
      submitLabel="Create Tag"
      schema={ZNewTag}
      values={{ name, color }}
      onCreate={onCreate}
      onReset={() => {
        setName('');
        setColor(DEFAULT_TAG_COLOR);
      }}
    >
      <div className="grid gap-2">
        <Label htmlFor={`${id}-name`}>Tag Name</Label>
        <Input
          id={`${id}-name`}
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="e.g., Compressors"
        />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-color`}>Color</Label>
        <div className="flex items-center gap-3">
          <Input
            id={`${id}-color`}
            type="color"
            value={color}
            onChange={(e) => setColor(e.target.value)}
            className="h-11 w-16 cursor-pointer p-1"
          />
          <span className="font-mono text-sm text-muted-foreground">{color}</span>
        </div>
      </div>
    </CreateDialog>
  );
}
