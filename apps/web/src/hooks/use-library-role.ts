import { canManageRoles, canWriteLibrary } from '@fieldassist/client/roles';
import { useQuery } from '@tanstack/react-query';

import { userRolesTable } from '@/lib/tables';
import { readThrough } from '@/offline/read-through';

/**
 * The signed-in user's role (the userRoles row of their email; none means no role) and what it
 * allows in the library, by the role model the server enforces (SPEC.md section 6).
 */
export function useLibraryRole(email: string) {
  const role = useQuery({
    queryKey: ['userRoles', 'library', email],
    queryFn: () =>
      readThrough(
        `role:${email}`,
        async () => (await userRolesTable.list({ where: { userId: email }, limit: 1 }))[0]?.role ?? null,
      ),
    networkMode: 'always',
  });
  const name = role.data ?? null;
  return {
    role: name,
    loaded: !role.isPending,
    canCreate: canWriteLibrary(name),
    /** Deletes manuals and manages user roles. */
    isAdmin: canManageRoles(name),
  };
}
