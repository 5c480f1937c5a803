import { Maximize2 } from 'lucide-react';

import { Dialog, DialogContent, DialogTitle, DialogTrigger } from '@/components/ui/dialog';

/**
 * The photo sent with a question, as a thumbnail of a fixed size (so the conversation does not
 * jump when it loads, and the answer fits under it on a phone's first screen); a tap opens it
 * full size.
 */
export function PhotoThumbnail({ url }: { url: string }) {
  return (
    <Dialog>
      <DialogTrigger
        aria-label="Open the photo full size"
        className="group relative mb-2 block h-24 w-32 shrink-0 overflow-hidden rounded-lg bg-black/20 outline-none sm:h-32 sm:w-44 focus-visible:ring-[3px] focus-visible:ring-primary-foreground"
      >
        <img src={url} alt="Attached photo" className="size-full object-contain" />
        <span
          aria-hidden="true"
          className="absolute right-1.5 bottom-1.5 flex size-7 items-center justify-center rounded-md bg-black/70 text-white"
        >
          <Maximize2 className="size-4" />
        </span>
      </DialogTrigger>
      <DialogContent aria-describedby={undefined} className="max-w-5xl gap-3">
        <DialogTitle>Attached photo</DialogTitle>
        <img
          src={url}
          alt="Attached photo, full size"
          className="mx-auto h-auto max-h-[calc(100dvh-9rem)] w-auto max-w-full rounded-lg object-contain"
        />
      </DialogContent>
    </Dialog>
  );
}
