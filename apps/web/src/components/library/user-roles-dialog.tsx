import { Trash2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';

import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import type { UserRoleName, UserRoleRecord } from '@/lib/tables';

// SPEC.md section 6: the library dialog's roles and what each may do.
const ROLES = [
  { value: 'admin', label: 'Admin', text: 'Full access' },
  { value: 'technician', label: 'Technician', text: 'Upload and view' },
  { value: 'viewer', label: 'Viewer', text: 'View only' },
] as const;

type UserRolesDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  roles: UserRoleRecord[];
  onAssign: (email: string, role: UserRoleName) => Promise<boolean>;
  onRemove: (row: UserRoleRecord) => void;
  /** The admin's own row has no remove button: an admin cannot lock themselves out here. */
  currentEmail: string;
};

/** 'User Role Management' (admins): assign a role by email, and the roles given so far. */
export function UserRolesDialog({ open, onOpenChange, roles, onAssign, onRemove, currentEmail }: UserRolesDialogProps) {
  const id = useId();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<UserRoleName>('technician');
  const [problem, setProblem] = useState<string>();
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim().toLowerCase();
    if (!address) return setProblem('Email is required');
    setProblem(undefined);
    setSaving(true);
    if (await onAssign(address, role)) setEmail('');
    setSaving(false);
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>User Role Management</DialogTitle>
          <DialogDescription>Admin: full access. Technician: upload and view. Viewer: view only.</DialogDescription>
        </DialogHeader>
        <form
          onSubmit={(event) => void submit(event)}
          className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-end"
          noValidate
        >
          <div className="grid gap-2 sm:col-span-2">
            <Label htmlFor={`${id}-email`}>Email</Label>
            <Input
              id={`${id}-email`}
              type="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              placeholder="name@company.com"
              autoComplete="off"
            />
          </div>
          <div className="grid min-w-0 gap-2">
            <Label id={`${id}-role`}>Role</Label>
            <Select value={role} onValueChange={(value) => setRole(value as UserRoleName)}>
              <SelectTrigger aria-labelledby={`${id}-role`}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {ROLES.map((option) => (
                  <SelectItem key={option.value} value={option.value}>
                    {option.label} – {option.text}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <Button type="submit" disabled={saving}>
            {saving ? 'Assigning…' : 'Assign Role'}
          </Button>
          {problem && <Alert className="sm:col-span-2">{problem}</Alert>}
        </form>
        <section aria-labelledby={`${id}-list`} className="grid min-w-0 gap-2">
          <h3 id={`${id}-list`} className="text-sm font-semibold">
            Current roles
          </h3>
          {roles.length === 0 && <p className="text-sm text-muted-foreground">No roles assigned yet.</p>}
          <ul className="grid max-h-72 gap-2 overflow-y-auto" aria-label="User roles">
            {roles.map((row) => (
              <li
                key={row.id}
                data-testid="user-role"
                className="flex min-h-12 min-w-0 items-center justify-between gap-3 rounded-md border px-3 py-1.5"
              >
                <span className="min-w-0 truncate text-sm">{row.userId}</span>
                <span className="flex shrink-0 items-center gap-2">
                  <Badge className="capitalize">{row.role}</Badge>
                  {row.userId.toLowerCase() !== currentEmail.toLowerCase() && (
                    <Button
                      variant="ghost"
                      size="icon"
                      className="text-destructive"
                      aria-label={`Remove role of ${row.userId}`}
                      onClick={() => onRemove(row)}
                    >
                      <Trash2 aria-hidden="true" />
                    </Button>
                  )}
                </span>
              </li>
            ))}
          </ul>
        </section>
      </DialogContent>
    </Dialog>
  );
}
