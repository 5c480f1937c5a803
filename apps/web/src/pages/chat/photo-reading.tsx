import type { ChatPhoto } from '@fieldassist/client';
import { ScanText } from 'lucide-react';
import { useId, useState } from 'react';

import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/textarea';

/**
 * Under a photo: the text the server read from it, and a way to correct that text and ask
 * again (OCR misreads a worn nameplate; the technician can read it off the unit).
 */
export function PhotoReading({
  photo,
  disabled,
  onAskAgain,
}: {
  photo: ChatPhoto;
  disabled: boolean;
  onAskAgain?: (photoText: string) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(photo.text);
  const fieldId = useId();
  const ask = () => {
    if (!draft.trim() || !onAskAgain) return;
    setEditing(false);
    onAskAgain(draft.trim());
  };
  return (
    <section aria-label="Text read from the photo" className="mb-2 rounded-lg bg-primary-foreground/10 p-2.5 text-sm">
      <p className="mb-1 flex items-center gap-1.5 text-xs font-medium opacity-80">
        <ScanText aria-hidden="true" className="size-3.5" />
        Text read from the photo
      </p>
      {editing ? (
        <>
          <label htmlFor={fieldId} className="sr-only">
            Correct the text read from the photo
          </label>
          <Textarea
            id={fieldId}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            rows={Math.min(6, Math.max(2, draft.split('\n').length))}
            maxLength={2000}
            className="font-mono text-foreground"
            autoFocus
          />
          <div className="mt-2 flex flex-wrap gap-2">
            <Button
              type="button"
              variant="secondary"
              className="h-11 px-4"
              disabled={disabled || !draft.trim()}
              onClick={ask}
            >
              Ask again
            </Button>
            <Button
              type="button"
              variant="ghost"
              className="h-11 px-4 hover:bg-primary-foreground/15 hover:text-primary-foreground"
              onClick={() => setEditing(false)}
            >
              Cancel
            </Button>
          </div>
        </>
      ) : (
        <>
          {photo.text ? (
            <p className="font-mono text-xs leading-relaxed whitespace-pre-wrap wrap-anywhere">{photo.text}</p>
          ) : (
            <p className="italic opacity-90">No text could be read from this photo.</p>
          )}
          {onAskAgain && (
            <Button
              type="button"
              variant="secondary"
              className="mt-2 h-11 px-4"
              disabled={disabled}
              onClick={() => {
                setDraft(photo.text);
                setEditing(true);
              }}
            >
              {photo.text ? 'Correct text' : 'Type the text'}
            </Button>
          )}
        </>
      )}
    </section>
  );
}
