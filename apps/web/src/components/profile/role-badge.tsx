import { Badge } from '@/components/ui/badge';

// SPEC.md section 6: admin red, manager blue, technician green, anything else grey.
const colours: Record<string, string> = {
  admin: 'border-red-200 bg-red-100 text-red-900',
  manager: 'border-blue-200 bg-blue-100 text-blue-900',
  technician: 'border-green-200 bg-green-100 text-green-900',
};
const grey = 'border-gray-200 bg-gray-100 text-gray-800';

/** The user's role as a coloured badge; a user without a role record is shown as such. */
export function RoleBadge({ role }: { role: string | null }) {
  return (
    <Badge className={(role && colours[role]) || grey} data-role={role ?? 'none'}>
      <span className="capitalize">{role ?? 'No role'}</span>
    </Badge>
  );
}
