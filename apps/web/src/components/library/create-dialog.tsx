import { useState, type FormEvent, type ReactNode } from 'react';
import type { z } from 'zod';

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

type CreateDialogProps<Schema extends z.ZodType> = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  /** The submit button's text; 'Creating…' while it saves. */
  submitLabel: string;
  /** Reads `values` on submit; the first problem shows under the fields. */
  schema: Schema;
  values: unknown;
  /** Saves; true when it worked, which closes the dialog. */
  onCreate: (data: z.output<Schema>) => Promise<boolean>;
  /** Empties the caller's fields when the dialog closes. */
  onReset: () => void;
  /** The labelled fields. */
  children: ReactNode;
};

/** The library's small create dialogs (version, tag): fields, an error line, Cancel and submit. */
export function CreateDialog<Schema extends z.ZodType>({
  open,
  onOpenChange,
  title,
  description,
  submitLabel,
  schema,
  values,
  onCreate,
  onReset,
  children,
}: CreateDialogProps<Schema>) {
  const [problem, setProblem] = useState<string>();
  const [saving, setSaving] = useState(false);

  const change = (open: boolean) => {
    if (!open) {
      onReset();
      setProblem(undefined);
    }
    onOpenChange(open);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = schema.safeParse(values);
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
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <form onSubmit={(event) => void submit(event)} className="grid gap-4" noValidate>
          {children}
          {problem && <Alert>{problem}</Alert>}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => change(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={saving}>
              {saving ? 'Creating…' : submitLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
