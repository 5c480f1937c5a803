import { Files, FileUp } from 'lucide-react';

import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';

type UploadModeDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onChoose: (mode: 'single' | 'bulk') => void;
};

const choices = [
  {
    mode: 'single',
    title: 'Single File',
    text: 'Upload one manual and review the details read from it.',
    Icon: FileUp,
  },
  {
    mode: 'bulk',
    title: 'Bulk Upload',
    text: 'Upload several manuals at once; details are saved as read.',
    Icon: Files,
  },
] as const;

/** 'Upload Manual': choose Single File or Bulk Upload. */
export function UploadModeDialog({ open, onOpenChange, onChoose }: UploadModeDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Upload Manual</DialogTitle>
          <DialogDescription>How many manuals are you adding?</DialogDescription>
        </DialogHeader>
        <div className="grid gap-3 sm:grid-cols-2">
          {choices.map(({ mode, title, text, Icon }) => (
            <button
              key={mode}
              type="button"
              onClick={() => onChoose(mode)}
              className="flex flex-col items-start gap-2 rounded-lg border p-4 text-left outline-none transition-colors hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring"
            >
              <Icon className="size-6 text-primary" aria-hidden="true" />
              <span className="font-semibold">{title}</span>
              <span className="text-sm text-muted-foreground">{text}</span>
            </button>
          ))}
        </div>
      </DialogContent>
    </Dialog>
  );
}
