import { useId, useState, type FormEvent } from 'react';
import { ROLES } from '@fieldassist/client/roles';
import { z } from 'zod';

import { RoleOptions } from '@/components/add-user/role-options';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectTrigger, SelectValue } from '@/components/ui/select';
import type { InviteUserInput } from '@/lib/invite-user';
import type { UserRoleName } from '@/lib/tables';

// SPEC.md section 5: the basic pattern of the original form.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ZAddUserForm = z.object({
  email: z
    .string()
    .trim()
    .min(1, 'Email and display name are required')
    .regex(EMAIL_PATTERN, 'Please enter a valid email address'),
  displayName: z.string().trim().min(1, 'Email and display name are required'),
  phone: z.string().trim(),
  role: z.enum(ROLES),
});

const EMPTY = { email: '', displayName: '', phone: '', role: 'technician' as UserRoleName };

type AddUserFormProps = { submitting: boolean; onSubmit: (input: InviteUserInput) => Promise<boolean> };

/** Email, display name, phone and role; Add User and Clear. A successful add clears the form. */
export function AddUserForm({ submitting, onSubmit }: AddUserFormProps) {
  const id = useId();
  const [fields, setFields] = useState(EMPTY);
  const [problem, setProblem] = useState<string>();
  const set = (key: 'email' | 'displayName' | 'phone') => (event: { target: { value: string } }) =>
    setFields((f) => ({ ...f, [key]: event.target.value }));
  const clear = () => (setFields(EMPTY), setProblem(undefined));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // Both required fields first, so the message matches what is missing.
    const missing = !fields.email.trim() || !fields.displayName.trim();
    const parsed = ZAddUserForm.safeParse(fields);
    if (missing || !parsed.success)
      return setProblem(missing ? 'Email and display name are required' : parsed.error?.issues[0]?.message);
    setProblem(undefined);
    const { phone, email, ...rest } = parsed.data;
    if (await onSubmit({ ...rest, email: email.toLowerCase(), phone: phone || undefined })) clear();
  };

  return (
    <form onSubmit={(event) => void submit(event)} className="grid gap-4" aria-label="Add User" noValidate>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid gap-2">
          <Label htmlFor={`${id}-email`}>Email</Label>
          <Input
            id={`${id}-email`}
            type="email"
            value={fields.email}
            onChange={set('email')}
            placeholder="technician@company.com"
            autoComplete="off"
          />
        </div>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-name`}>Display Name</Label>
          <Input
            id={`${id}-name`}
            value={fields.displayName}
            onChange={set('displayName')}
            placeholder="Jane Smith"
            autoComplete="off"
          />
        </div>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-phone`}>Phone</Label>
          <Input
            id={`${id}-phone`}
            type="tel"
            value={fields.phone}
            onChange={set('phone')}
            placeholder="+1 555 0100"
            autoComplete="off"
          />
        </div>
        <div className="grid gap-2">
          <Label id={`${id}-role`}>Role</Label>
          <Select
            value={fields.role}
            onValueChange={(role) => setFields((f) => ({ ...f, role: role as UserRoleName }))}
          >
            <SelectTrigger aria-labelledby={`${id}-role`}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <RoleOptions />
            </SelectContent>
          </Select>
        </div>
      </div>
      {problem && <Alert>{problem}</Alert>}
      <div className="flex flex-col-reverse gap-2 sm:flex-row">
        <Button type="submit" disabled={submitting}>
          {submitting ? 'Adding…' : 'Add User'}
        </Button>
        <Button type="button" variant="outline" onClick={clear} disabled={submitting}>
          Clear
        </Button>
      </div>
    </form>
  );
}
