import { SelectItem } from '@/components/ui/select';
import type { UserRoleName } from '@/lib/tables';

// SPEC.md section 6, the Add User page's roles and descriptions, in its order (Viewer is
// offered in the library's User Role Management dialog).
const OPTIONS: { value: UserRoleName; label: string; description: string }[] = [
  { value: 'admin', label: 'Admin', description: 'Full access' },
  { value: 'manager', label: 'Manager', description: 'Upload manuals' },
  { value: 'technician', label: 'Technician', description: 'Read-only' },
];

/** The items of the role select, each with what the role may do. */
export function RoleOptions() {
  return OPTIONS.map(({ value, label, description }) => (
    <SelectItem key={value} value={value}>
      {label} <span className="text-muted-foreground">– {description}</span>
    </SelectItem>
  ));
}
