import type { AuthUser } from '@fieldassist/client';
import { Info } from 'lucide-react';
import { toast } from 'sonner';

import { AddUserForm } from '@/components/add-user/add-user-form';
import { PageHeading } from '@/components/page-heading';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useInviteUser } from '@/hooks/use-invite-user';
import { useLibraryRole } from '@/hooks/use-library-role';
import { errorMessage } from '@/lib/error-message';
import type { InviteUserInput, InviteUserResult } from '@/lib/invite-user';

/** Where the invitation went, so the admin knows where the new user will find it. */
function deliveryNote(result: InviteUserResult, email: string): string {
  if (!result.invitationSent)
    return 'The invitation email could not be sent; they can still sign in with a magic link.';
  if (result.deliveredTo === 'outbox')
    return `No mail server is set up, so the invitation for ${email} is in the server's outbox (/dev/outbox), not in their inbox.`;
  return `An invitation was emailed to ${email}.`;
}

/**
 * Add User (SPEC.md section 2): visible to everyone signed in; the server lets only admins
 * add. Anyone else is told so above the form, before typing, and sees the refusal if they try.
 */
export function AddUserPage({ user }: { user: AuthUser }) {
  const invite = useInviteUser();
  const access = useLibraryRole(user.email);

  const add = async (input: InviteUserInput): Promise<boolean> => {
    try {
      const result = await invite.mutateAsync(input);
      toast.success(`User ${input.displayName} added successfully!`, {
        description: deliveryNote(result, input.email),
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
      {access.loaded && !access.isAdmin && (
        <p
          role="note"
          className="mb-4 flex items-start gap-2.5 rounded-md border border-primary/30 bg-card px-3 py-2.5 text-base"
          data-testid="admin-only-notice"
        >
          <Info className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
          Only admins can add users. Ask an admin of your team to add a new member.
        </p>
      )}
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
