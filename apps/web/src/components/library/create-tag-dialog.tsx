import { useId, useState, type FormEvent } from 'react';
import { z } from 'zod';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import type { NewTag } from '@/hooks/use-library';

// SPEC.md sections 5 and 9: a name is required; the colour defaults to #3b82f6.
const DEFAULT_TAG_COLOR = '#3b82f6';
const ZNewTag = z.object({ name: z.string().trim().min(1, 'Tag name is required'), color: z.string().regex(/^#[0-9a-f]{6}$/i).catch(DEFAULT_TAG_COLOR) });

type CreateTagDialogProps = { open: boolean; onOpenChange: (open: boolean) => void; onCreate: (tag: NewTag) => Promise<boolean> };

/** 'Create Tag': a name and a colour. */
export function CreateTagDialog({ open, onOpenChange, onCreate }: CreateTagDialogProps) {
  const id = useId();
  const [name, setName] = useState('');
  const [color, setColor] = useState(DEFAULT_TAG_COLOR);
  const [problem, setProblem] = useState<string>();
  const [saving, setSaving] = useState(false);

  const change = (open: boolean) => {
    if (!open) {
      setName('');
      setColor(DEFAULT_TAG_COLOR);
      setProblem(undefined);
    }
    onOpenChange(open);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = ZNewTag.safeParse({ name, color });
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message);
    setProblem(undefined);
    setSaving(true);
    const created = await onCreate(parsed.data);
    setSaving(false);
    if (created) change(false);
  };

  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Create Tag</DialogTitle>
          <DialogDescription>Tags let technicians filter the library.</DialogDescription>
        </DialogHeader>
        <form onSubmit={(event) => void submit(event)} className="grid gap-4" noValidate>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-name`}>Tag Name</Label>
            <Input id={`${id}-name`} value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g., Compressors" />
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-color`}>Color</Label>
            <div className="flex items-center gap-3">
              <Input id={`${id}-color`} type="color" value={color} onChange={(e) => setColor(e.target.value)} className="h-10 w-16 cursor-pointer p-1" />
              <span className="font-mono text-sm text-muted-foreground">{color}</span>
            </div>
          </div>
          {problem && <Alert>{problem}</Alert>}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => change(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={saving}>
              {saving ? 'Creating…' : 'Create Tag'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
