import type { AuthUser } from '@fieldassist/client';
import { useMemo } from 'react';
import { toast } from 'sonner';

import { PageHeading } from '@/components/page-heading';
import { AccountInfoCard } from '@/components/profile/account-info-card';
import { AvatarUpload } from '@/components/profile/avatar-upload';
import { ProfileForm, type ProfileFields } from '@/components/profile/profile-form';
import { ThemeChoiceCard } from '@/components/profile/theme-choice';
import { TabLoading } from '@/components/tab-loading';
import { Alert } from '@/components/ui/alert';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { avatarProblem, useAvatarUpload } from '@/hooks/use-avatar-upload';
import { useProfile } from '@/hooks/use-profile';
import { errorMessage } from '@/lib/error-message';

/** Profile (SPEC.md section 2): the user's picture, name and phone, and their account. */
export function ProfilePage({ user }: { user: AuthUser }) {
  const { record, role, save, saveAvatar } = useProfile(user);
  const avatar = useAvatarUpload(user);
  const row = record.data;
  const saved = useMemo<ProfileFields>(
    () => ({
      displayName: row?.displayName ?? user.displayName ?? '',
      email: row?.email ?? user.email,
      phone: row?.phone ?? '',
    }),
    [row, user.displayName, user.email],
  );

  const pickAvatar = async (file: File) => {
    const problem = avatarProblem(file);
    if (problem) return void toast.error(problem);
    try {
      await saveAvatar.mutateAsync(await avatar.upload(file));
      toast.success('Profile picture uploaded successfully!');
    } catch (error) {
      console.warn('Uploading the profile picture failed', error);
      toast.error('Failed to upload profile picture', { description: errorMessage(error, '') || undefined });
    }
  };

  const saveProfile = async (fields: ProfileFields) => {
    try {
      await save.mutateAsync({
        displayName: fields.displayName,
        phone: fields.phone || null,
        avatarUrl: row?.avatarUrl ?? user.photoURL ?? null,
      });
      toast.success('Profile updated successfully!');
    } catch (error) {
      console.warn('Saving the profile failed', error);
      toast.error('Failed to update profile', { description: errorMessage(error, '') || undefined });
    }
  };

  if (record.isPending) return <TabLoading label="Loading profile…" />;
  return (
    <div className="mx-auto max-w-5xl">
      <PageHeading title="Profile" subtitle="Manage your personal information" />
      {record.isError && <Alert className="mb-4">{errorMessage(record.error, 'Failed to load data')}</Alert>}
      <div className="grid gap-6 lg:grid-cols-[1fr_22rem]">
        <Card>
          <CardHeader>
            <CardTitle>Personal Information</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-6">
            <AvatarUpload
              displayName={saved.displayName}
              email={user.email}
              imageUrl={row?.avatarUrl ?? user.photoURL ?? null}
              progress={avatar.progress}
              onPick={(file) => void pickAvatar(file)}
            />
            <ProfileForm saved={saved} saving={save.isPending} onSave={saveProfile} />
          </CardContent>
        </Card>
        <div className="grid content-start gap-6">
          <AccountInfoCard
            email={user.email}
            displayName={row?.displayName ?? user.displayName ?? null}
            createdAt={row?.createdAt ?? user.createdAt ?? null}
            emailVerified={row ? row.emailVerified === 1 : Boolean(user.emailVerified)}
            role={role.data}
          />
          <ThemeChoiceCard />
        </div>
      </div>
    </div>
  );
}
