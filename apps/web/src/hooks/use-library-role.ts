import { useQuery } from '@tanstack/react-query';

import { userRolesTable } from '@/lib/tables';
import { readThrough } from '@/offline/read-through';

// Who may do what in the library, as the server's policies decide it (README, SPEC.md
// section 6): admins, technicians and managers write; only admins delete and manage roles.
const WRITERS = ['admin', 'technician', 'manager'];

/** The signed-in user's role (the userRoles row of their email; none means no role) and what it allows. */
export function useLibraryRole(email: string) {
  const role = useQuery({
    queryKey: ['userRoles', 'library', email],
    queryFn: () => readThrough(`role:${email}`, async () => (await userRolesTable.list({ where: { userId: email }, limit: 1 }))[0]?.role ?? null),
    networkMode: 'always',
  });
  const name = role.data ?? null;
  return {
    role: name,
    loaded: !role.isPending,
    canCreate: name !== null && WRITERS.includes(name),
    isAdmin: name === 'admin',
  };
}
