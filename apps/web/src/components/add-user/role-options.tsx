import { SelectItem } from '@/components/ui/select';
import type { UserRoleName } from '@/lib/tables';

// SPEC.md section 6, the Add User page's role descriptions.
const OPTIONS: { value: UserRoleName; label: string; description: string }[] = [
  { value: 'technician', label: 'Technician', description: 'Read-only' },
  { value: 'manager', label: 'Manager', description: 'Upload manuals' },
  { value: 'admin', label: 'Admin', description: 'Full access' },
  { value: 'viewer', label: 'Viewer', description: 'View only' },
];

/** The items of the role select, each with what the role may do. */
export function RoleOptions() {
  return OPTIONS.map(({ value, label, description }) => (
    <SelectItem key={value} value={value}>
      {label} <span className="text-muted-foreground">– {description}</span>
    </SelectItem>
  ));
}
