import type { ChatPhoto } from '@fieldassist/client';
import { ScanText } from 'lucide-react';
import { type RefObject, useId, useLayoutEffect, useRef, useState } from 'react';

import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/textarea';
import { cn } from '@/lib/utils';

/** Whether `element`'s text is cut by its line clamp; followed as its width changes (a phone turned). */
function useIsClamped(element: RefObject<HTMLElement | null>, shown: unknown[]): boolean {
  const [clamped, setClamped] = useState(false);
  useLayoutEffect(() => {
    const node = element.current;
    if (!node) return;
    const measure = () => setClamped(node.scrollHeight > node.clientHeight + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(node);
    return () => observer.disconnect();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- measured again whenever what is shown changes
  }, [element, ...shown]);
  return clamped;
}

/**
 * Under a photo: the text the server read from it, and a way to correct that text and ask
 * again (OCR misreads a worn nameplate; the technician can read it off the unit). A long
 * text (a terminal's error screen) shows its first four lines (a nameplate's usually all) until asked for all of it,
 * so the answer starts on the same screen as the photo.
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
  const [whole, setWhole] = useState(false);
  const text = useRef<HTMLParagraphElement>(null);
  const clamped = useIsClamped(text, [photo.text, editing]);
  const fieldId = useId();
  const textId = useId();
  const ask = () => {
    if (!draft.trim() || !onAskAgain) return;
    setEditing(false);
    onAskAgain(draft.trim());
  };
  return (
    <section
      aria-label="Text read from the photo"
      className="mb-2 rounded-lg border border-primary-foreground/40 p-2.5 text-sm"
    >
      <p className="mb-1 flex items-center gap-1.5 text-xs font-medium">
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
            <p
              ref={text}
              id={textId}
              data-photo-text
              className={cn(
                'font-mono text-xs leading-relaxed whitespace-pre-wrap wrap-anywhere',
                !whole && 'line-clamp-4',
              )}
            >
              {photo.text}
            </p>
          ) : (
            <p className="italic">No text could be read from this photo.</p>
          )}
          {(clamped || whole || onAskAgain) && (
            <div className="mt-2 flex flex-wrap gap-2">
              {(clamped || whole) && (
                <Button
                  type="button"
                  variant="secondary"
                  className="h-11 px-4"
                  aria-expanded={whole}
                  aria-controls={textId}
                  onClick={() => setWhole(!whole)}
                >
                  {whole ? 'Show less' : 'Show all'}
                </Button>
              )}
              {onAskAgain && (
                <Button
                  type="button"
                  variant="secondary"
                  className="h-11 px-4"
                  disabled={disabled}
                  onClick={() => {
                    setDraft(photo.text);
                    setEditing(true);
                  }}
                >
                  {photo.text ? 'Correct text' : 'Type the text'}
                </Button>
              )}
            </div>
          )}
        </>
      )}
    </section>
  );
}
