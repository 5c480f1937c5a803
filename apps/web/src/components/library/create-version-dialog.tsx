import { useId, useState, type FormEvent } from 'react';
import { z } from 'zod';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import type { NewVersion } from '@/hooks/use-library';

// SPEC.md section 5: name and year required, the year read as an integer.
const REQUIRED = 'Version name and year are required';
const ZNewVersion = z.object({
  versionName: z.string().trim().min(1, REQUIRED),
  releaseYear: z.string().trim().min(1, REQUIRED).transform((year) => Number.parseInt(year, 10)).pipe(z.number({ error: REQUIRED }).int()),
  description: z.string().trim().transform((text) => text || undefined),
});

type CreateVersionDialogProps = { open: boolean; onOpenChange: (open: boolean) => void; onCreate: (version: NewVersion) => Promise<boolean> };

/** 'Create Release Version': name, year and an optional description. */
export function CreateVersionDialog({ open, onOpenChange, onCreate }: CreateVersionDialogProps) {
  const id = useId();
  const [fields, setFields] = useState({ versionName: '', releaseYear: '', description: '' });
  const [problem, setProblem] = useState<string>();
  const [saving, setSaving] = useState(false);

  const change = (open: boolean) => {
    if (!open) {
      setFields({ versionName: '', releaseYear: '', description: '' });
      setProblem(undefined);
    }
    onOpenChange(open);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = ZNewVersion.safeParse(fields);
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message ?? REQUIRED);
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
          <DialogTitle>Create Release Version</DialogTitle>
          <DialogDescription>Group manuals by the product release they belong to.</DialogDescription>
        </DialogHeader>
        <form onSubmit={(event) => void submit(event)} className="grid gap-4" noValidate>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-name`}>Version Name</Label>
            <Input id={`${id}-name`} value={fields.versionName} onChange={(e) => setFields({ ...fields, versionName: e.target.value })} placeholder="e.g., Series 5" />
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-year`}>Release Year</Label>
            <Input id={`${id}-year`} type="number" inputMode="numeric" value={fields.releaseYear} onChange={(e) => setFields({ ...fields, releaseYear: e.target.value })} placeholder="e.g., 2024" />
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-description`}>Description (optional)</Label>
            <Textarea id={`${id}-description`} rows={2} value={fields.description} onChange={(e) => setFields({ ...fields, description: e.target.value })} />
          </div>
          {problem && <Alert>{problem}</Alert>}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => change(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={saving}>
              {saving ? 'Creating…' : 'Create Version'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
