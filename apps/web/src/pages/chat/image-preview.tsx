import { X } from 'lucide-react';

import { Button } from '@/components/ui/button';

type ImagePreviewProps = { url: string; name: string; onRemove: () => void; disabled?: boolean };

/** The attached photo above the input, with a button that takes it off again. */
export function ImagePreview({ url, name, onRemove, disabled }: ImagePreviewProps) {
  return (
    <div className="mb-2 flex items-center gap-3">
      <div className="relative">
        <img src={url} alt={`Attached: ${name}`} className="size-16 rounded-lg border object-cover sm:size-20" />
        <Button
          type="button"
          variant="destructive"
          size="icon"
          aria-label="Remove image"
          title="Remove image"
          disabled={disabled}
          onClick={onRemove}
          className="absolute -top-3 -right-3 size-11 rounded-full shadow-md"
        >
          <X className="size-3.5" />
        </Button>
      </div>
      <p className="min-w-0 truncate text-xs text-muted-foreground">{name}</p>
    </div>
  );
}
