import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { userRolesTable, type UserRoleName } from '@/lib/tables';

const randomHex = () => crypto.randomUUID().replaceAll('-', '');

/**
 * User Role Management (SPEC.md sections 4 and 7), for admins: every role row, newest change
 * first; assigning updates the email's row when it has one and creates it otherwise.
 */
export function useLibraryRoles(adminEmail: string, enabled: boolean) {
  const queryClient = useQueryClient();
  const reload = () => queryClient.invalidateQueries({ queryKey: ['userRoles'] });

  const roles = useQuery({
    queryKey: ['userRoles', 'all'],
    queryFn: () => userRolesTable.list({ orderBy: { updatedAt: 'desc' } }),
    enabled,
  });

  const assign = useMutation({
    mutationFn: async ({ email, role }: { email: string; role: UserRoleName }) => {
      const [existing] = await userRolesTable.list({ where: { userId: email }, limit: 1 });
      if (existing) return userRolesTable.update(existing.id, { role, updatedAt: new Date().toISOString() });
      return userRolesTable.create({ id: `role_${randomHex()}`, userId: email, role, assignedBy: adminEmail });
    },
    onSuccess: reload,
  });

  const remove = useMutation({ mutationFn: (id: string) => userRolesTable.delete(id), onSuccess: reload });

  return { roles, assign, remove };
}
