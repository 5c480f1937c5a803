import { useMutation, useQueryClient } from '@tanstack/react-query';

import { inviteUser, type InviteUserInput } from '@/lib/invite-user';

/** Adds a user and emails their invitation (admins only; the server refuses others). */
export function useInviteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: InviteUserInput) => inviteUser(input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['userRoles'] }),
  });
}
