import { useId, useState, type FormEvent } from 'react';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

export interface ProfileFields {
  displayName: string;
  email: string;
  phone: string;
}

type ProfileFormProps = {
  /** What is saved now; Reset returns to it. */
  saved: ProfileFields;
  saving: boolean;
  onSave: (fields: ProfileFields) => Promise<unknown>;
};

/** Display name, email (read-only: it cannot change), phone; Save Changes and Reset. */
export function ProfileForm({ saved, saving, onSave }: ProfileFormProps) {
  const id = useId();
  const [fields, setFields] = useState(saved);
  const [problem, setProblem] = useState<string>();
  // A save, or the record arriving, replaces the fields with what is stored (adjusted while
  // rendering, as React's docs advise, rather than in an effect).
  const [shown, setShown] = useState(saved);
  if (shown !== saved) {
    setShown(saved);
    setFields(saved);
  }

  const set = (key: keyof ProfileFields) => (event: { target: { value: string } }) =>
    setFields((f) => ({ ...f, [key]: event.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!fields.displayName.trim() || !fields.email.trim()) return setProblem('Display name and email are required');
    setProblem(undefined);
    await onSave({ ...fields, displayName: fields.displayName.trim(), phone: fields.phone.trim() });
  };

  return (
    <form onSubmit={(event) => void submit(event)} className="grid gap-4" aria-label="Profile" noValidate>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-name`}>Display Name</Label>
        <Input
          id={`${id}-name`}
          value={fields.displayName}
          onChange={set('displayName')}
          autoComplete="name"
          aria-invalid={problem && !fields.displayName.trim() ? true : undefined}
        />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-email`}>Email</Label>
        <Input
          id={`${id}-email`}
          value={fields.email}
          readOnly
          aria-describedby={`${id}-email-note`}
          className="bg-muted"
        />
        <p id={`${id}-email-note`} className="text-xs text-muted-foreground">
          Your email address cannot be changed.
        </p>
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-phone`}>Phone</Label>
        <Input
          id={`${id}-phone`}
          type="tel"
          value={fields.phone}
          onChange={set('phone')}
          autoComplete="tel"
          placeholder="+1 555 0100"
        />
      </div>
      {problem && <Alert>{problem}</Alert>}
      <div className="flex flex-col-reverse gap-2 sm:flex-row">
        <Button type="submit" disabled={saving}>
          {saving ? 'Saving…' : 'Save Changes'}
        </Button>
        <Button
          type="button"
          variant="outline"
          onClick={() => (setFields(saved), setProblem(undefined))}
          disabled={saving}
        >
          Reset
        </Button>
      </div>
    </form>
  );
}
