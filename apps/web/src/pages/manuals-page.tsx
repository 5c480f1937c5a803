import type { AuthUser } from '@fieldassist/client';
import { useEffect, useMemo, useState } from 'react';
import { toast } from 'sonner';

import { CreateTagDialog } from '@/components/library/create-tag-dialog';
import { CreateVersionDialog } from '@/components/library/create-version-dialog';
import { filterManuals, type LibraryFilter } from '@/components/library/filter-manuals';
import { LibraryEmptyState } from '@/components/library/library-empty-state';
import { LibraryFilters } from '@/components/library/library-filters';
import { LibraryHeader, type LibraryDialog } from '@/components/library/library-header';
import { ManualCard } from '@/components/library/manual-card';
import { UploadManualFlow } from '@/components/library/upload-manual-flow';
import { UserRolesDialog } from '@/components/library/user-roles-dialog';
import { TabLoading } from '@/components/tab-loading';
import { useLibrary } from '@/hooks/use-library';
import { useLibraryRole } from '@/hooks/use-library-role';
import { useLibraryRoles } from '@/hooks/use-library-roles';
import { useManualStatus } from '@/hooks/use-manual-status';
import { useSavedManuals } from '@/hooks/use-saved-manuals';
import { formatFileSize } from '@/components/library/format-file-size';
import { errorMessage } from '@/lib/error-message';

/** A failure toast with the server's reason (a denial message of SPEC.md section 6) under it. */
const failed = (title: string, error: unknown) => {
  console.warn(title, error);
  toast.error(title, { description: errorMessage(error, '') || undefined });
};

// Runs a write and shows its toast; true when it worked, so a dialog knows to close.
const withToasts = async (run: () => Promise<unknown>, success: string, failure: string) =>
  run().then(
    () => (toast.success(success), true),
    (error: unknown) => (failed(failure, error), false),
  );

const NO_FILTER: LibraryFilter = { search: '', versionId: 'all', tagIds: [] };

/** The Manual Library (SPEC.md section 2): filters, the card grid and the library's dialogs. */
export function ManualsPage({ user }: { user: AuthUser }) {
  const access = useLibraryRole(user.email);
  const library = useLibrary(user.email);
  const [dialog, setDialog] = useState<LibraryDialog | null>(null);
  const userRoles = useLibraryRoles(user.email, access.isAdmin && dialog === 'roles');
  const [filter, setFilter] = useState<LibraryFilter>(NO_FILTER);
  const saved = useSavedManuals();
  const saveOffline = (manual: { fileUrl: string; title: string }) =>
    saved.save.mutate(manual.fileUrl, {
      onSuccess: () =>
        toast.success('Saved for offline', { description: `${manual.title} opens on this phone with no network.` }),
      onError: (error) => failed('Failed to save for offline', error),
    });
  const { watch, indexing } = useManualStatus((_id, status) => {
    if (status === 'ready') toast.success('Manual Processed', { description: 'AI can now answer questions about it' });
    else
      toast.warning('Processing Warning', {
        description: 'Manual uploaded but content extraction failed. You can still download it.',
      });
  });

  const { versions, manuals, tags, manualTags } = library;
  const loadError = [versions, manuals, tags, manualTags].find((query) => query.isError)?.error;
  useEffect(() => {
    if (loadError) failed('Failed to load data', loadError);
  }, [loadError]);

  const shown = useMemo(
    () => filterManuals(manuals.data ?? [], manualTags.data ?? [], filter),
    [manuals.data, manualTags.data, filter],
  );
  const tagsOf = (manualId: string) => {
    const ids = new Set((manualTags.data ?? []).filter((link) => link.manualId === manualId).map((link) => link.tagId));
    return (tags.data ?? []).filter((tag) => ids.has(tag.id));
  };

  const deleteManual = (id: string) => {
    if (!window.confirm('Are you sure you want to delete this manual?')) return;
    void withToasts(
      () => library.deleteManual.mutateAsync(id),
      'Manual deleted successfully',
      'Failed to delete manual',
    );
  };

  const removeRole = (id: string) => {
    if (!window.confirm('Are you sure you want to remove this user role?')) return;
    void withToasts(() => userRoles.remove.mutateAsync(id), 'User role removed', 'Failed to delete user role');
  };

  if (manuals.isPending || !access.loaded) return <TabLoading label="Loading manuals…" />;
  const close = (open: boolean) => !open && setDialog(null);
  return (
    <div>
      <LibraryHeader
        count={manuals.data?.length ?? 0}
        canCreate={access.canCreate}
        isAdmin={access.isAdmin}
        onOpen={setDialog}
      />
      {saved.count > 0 && (
        <p className="-mt-3 mb-4 text-base text-muted-foreground" data-testid="offline-storage">
          Saved for offline: {saved.count} manual(s), {formatFileSize(saved.totalBytes)} on this phone
        </p>
      )}
      <LibraryFilters filter={filter} versions={versions.data ?? []} tags={tags.data ?? []} onChange={setFilter} />
      {shown.length === 0 ? (
        <LibraryEmptyState
          canUpload={access.canCreate}
          onClearFilters={manuals.data?.length ? () => setFilter(NO_FILTER) : undefined}
        />
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Manuals">
          {shown.map((manual) => (
            <ManualCard
              key={manual.id}
              manual={manual}
              version={versions.data?.find((version) => version.id === manual.versionId)}
              tags={tagsOf(manual.id)}
              indexProgress={indexing[manual.id]}
              canDelete={access.isAdmin}
              deleting={library.deleteManual.isPending && library.deleteManual.variables === manual.id}
              onDelete={() => deleteManual(manual.id)}
              offline={
                saved.available
                  ? {
                      savedBytes: saved.sizeOf(manual.fileUrl),
                      busy:
                        (saved.save.isPending && saved.save.variables === manual.fileUrl) ||
                        (saved.remove.isPending && saved.remove.variables === manual.fileUrl),
                      onSave: () => saveOffline(manual),
                      onRemove: () =>
                        saved.remove.mutate(manual.fileUrl, { onSuccess: () => toast.success('Offline copy removed') }),
                    }
                  : undefined
              }
            />
          ))}
        </ul>
      )}
      <CreateVersionDialog
        open={dialog === 'version'}
        onOpenChange={close}
        onCreate={(version) =>
          withToasts(
            () => library.createVersion.mutateAsync(version),
            'Release version created successfully',
            'Failed to create version',
          )
        }
      />
      <CreateTagDialog
        open={dialog === 'tag'}
        onOpenChange={close}
        onCreate={(tag) =>
          withToasts(() => library.createTag.mutateAsync(tag), 'Tag created successfully', 'Failed to create tag')
        }
      />
      <UploadManualFlow
        open={dialog === 'upload'}
        onClose={() => setDialog(null)}
        versions={versions.data ?? []}
        tags={tags.data ?? []}
        watch={(id) => void watch(id)}
      />
      {access.isAdmin && (
        <UserRolesDialog
          open={dialog === 'roles'}
          onOpenChange={close}
          roles={userRoles.roles.data ?? []}
          onAssign={(email, role) =>
            withToasts(
              () => userRoles.assign.mutateAsync({ email, role }),
              `${email} assigned as ${role}`,
              'Failed to assign user role',
            )
          }
          onRemove={(row) => removeRole(row.id)}
          currentEmail={user.email}
        />
      )}
    </div>
  );
}
