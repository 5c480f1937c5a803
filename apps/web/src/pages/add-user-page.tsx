import { toast } from 'sonner';

import { AddUserForm } from '@/components/add-user/add-user-form';
import { PageHeading } from '@/components/page-heading';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useInviteUser } from '@/hooks/use-invite-user';
import { errorMessage } from '@/lib/error-message';
import type { InviteUserInput } from '@/lib/invite-user';

/**
 * Add User (SPEC.md section 2): visible to everyone signed in; the server lets only admins
 * add, and anyone else sees its refusal in the failure toast.
 */
export function AddUserPage() {
  const invite = useInviteUser();

  const add = async (input: InviteUserInput): Promise<boolean> => {
    try {
      const result = await invite.mutateAsync(input);
      toast.success(`User ${input.displayName} added successfully!`, {
        description: result.invitationSent ? `An invitation was emailed to ${input.email}.` : 'The invitation email could not be sent; they can still sign in with a magic link.',
      });
      return true;
    } catch (error) {
      console.warn('Adding the user failed', error);
      toast.error('Failed to add user', { description: errorMessage(error, '') || undefined });
      return false;
    }
  };

  return (
    <div className="mx-auto max-w-3xl">
      <PageHeading title="Add User" subtitle="Invite a team member and choose their role" />
      <Card>
        <CardHeader>
          <CardTitle>New User</CardTitle>
          <CardDescription>They receive an email with a link to sign in.</CardDescription>
        </CardHeader>
        <CardContent>
          <AddUserForm submitting={invite.isPending} onSubmit={add} />
        </CardContent>
      </Card>
    </div>
  );
}
