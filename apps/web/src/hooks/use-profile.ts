import type { AuthUser } from '@fieldassist/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { client } from '@/lib/client';
import { userRolesTable, usersTable, type UserRecord } from '@/lib/tables';

export interface ProfileChanges {
  displayName: string;
  phone: string | null;
  avatarUrl: string | null;
}

/** SPEC.md section 6: the role badge says technician when the role cannot be loaded. */
async function loadRole(email: string): Promise<string | null> {
  try {
    const rows = await userRolesTable.list({ where: { userId: email }, limit: 1 });
    return rows[0]?.role ?? null;
  } catch (error) {
    console.warn('Loading the role failed; showing technician', error);
    return 'technician';
  }
}

/**
 * The signed-in user's users row (SPEC.md section 3; its id is the email) and role, and
 * the save of what a user may change about themselves: name, phone, avatar. The save also
 * updates the account, so the header shows the new name and picture at once.
 */
export function useProfile(user: AuthUser) {
  const queryClient = useQueryClient();
  const recordKey = ['users', user.email];

  const record = useQuery({ queryKey: recordKey, queryFn: () => usersTable.get(user.email) });
  const role = useQuery({ queryKey: ['userRoles', user.email], queryFn: () => loadRole(user.email) });

  const save = useMutation({
    mutationFn: async (changes: ProfileChanges): Promise<UserRecord> => {
      const row = await usersTable.update(user.email, { ...changes, updatedAt: new Date().toISOString() });
      await client.auth.updateMe({ displayName: changes.displayName, photoURL: changes.avatarUrl });
      return row;
    },
    onSuccess: (row) => queryClient.setQueryData(recordKey, row),
  });

  // A new picture is kept at once, without the unsaved edits of the form.
  const saveAvatar = useMutation({
    mutationFn: async (avatarUrl: string): Promise<UserRecord> => {
      const row = await usersTable.update(user.email, { avatarUrl, updatedAt: new Date().toISOString() });
      await client.auth.updateMe({ photoURL: avatarUrl });
      return row;
    },
    onSuccess: (row) => queryClient.setQueryData(recordKey, row),
  });

  return { record, role, save, saveAvatar };
}
