import { CalendarPlus, Tag, Upload, Users } from 'lucide-react';

import { PageHeading } from '@/components/page-heading';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';

export type LibraryDialog = 'upload' | 'version' | 'tag' | 'roles';

type LibraryHeaderProps = {
  count: number;
  canCreate: boolean;
  isAdmin: boolean;
  onOpen: (dialog: LibraryDialog) => void;
};

/** 'Manual Library', how many manuals there are, and the buttons the user's role allows. */
export function LibraryHeader({ count, canCreate, isAdmin, onOpen }: LibraryHeaderProps) {
  return (
    <PageHeading
      title="Manual Library"
      subtitle={`${count} manual(s) available`}
      action={
        (canCreate || isAdmin) && (
          <div className="grid w-full grid-cols-2 gap-2 sm:flex sm:w-auto sm:flex-wrap">
            {canCreate && (
              <>
                <Button variant="outline" onClick={() => onOpen('version')}>
                  <CalendarPlus aria-hidden="true" />
                  New Version
                </Button>
                <Button variant="outline" onClick={() => onOpen('tag')}>
                  <Tag aria-hidden="true" />
                  New Tag
                </Button>
              </>
            )}
            {isAdmin && (
              <Button variant="outline" onClick={() => onOpen('roles')}>
                <Users aria-hidden="true" />
                Manage Users
              </Button>
            )}
            {canCreate && (
              // Full width on a phone when it would sit alone in its row.
              <Button onClick={() => onOpen('upload')} className={cn(!isAdmin && 'col-span-2')}>
                <Upload aria-hidden="true" />
                Upload Manual
              </Button>
            )}
          </div>
        )
      }
    />
  );
}
