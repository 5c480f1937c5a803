import { ImagePlus, Loader2, SendHorizontal } from 'lucide-react';
import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ChangeEvent,
  type FormEvent,
  type KeyboardEvent,
} from 'react';

import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/textarea';

import { ImagePreview } from './image-preview';
import { useAttachment } from './use-attachment';
import type { SendOutcome } from './use-chat';

type ChatComposerProps = {
  isLoading: boolean;
  onSend: (input: { question: string; image: File | null }) => Promise<SendOutcome>;
};

/** The spec's limit on the input's growth (SPEC.md section 2): 8rem. */
const MAX_INPUT_PX = 128;

/** Photo preview, attach button, the growing input and Send (SPEC.md sections 2 and 5). */
export function ChatComposer({ isLoading, onSend }: ChatComposerProps) {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const { attachment, attach, clear } = useAttachment();
  const input = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const refocus = useRef(false);
  const inputId = useId();
  const canSend = !isLoading && (text.trim() !== '' || attachment !== null);

  // Grows with its text up to the limit, then scrolls; shrinks back when cleared.
  useLayoutEffect(() => {
    const element = input.current;
    if (!element) return;
    element.style.height = 'auto';
    element.style.height = `${Math.min(element.scrollHeight, MAX_INPUT_PX)}px`;
  }, [text]);

  // A disabled input loses focus; give it back after the answer to whoever was typing.
  useEffect(() => {
    if (!isLoading && refocus.current) {
      refocus.current = false;
      input.current?.focus();
    }
  }, [isLoading]);

  async function submit() {
    if (!canSend) return;
    setProblem(null);
    refocus.current = document.activeElement === input.current;
    const outcome = await onSend({ question: text, image: attachment?.file ?? null });
    if (outcome.status === 'sent') {
      setText('');
      clear();
    } else if (outcome.status === 'upload-failed') {
      setProblem(`The photo could not be uploaded, so nothing was sent: ${outcome.message}`);
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // Enter sends, Shift+Enter is a new line; Enter that confirms an IME composition is neither.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void submit();
  }

  function onPick(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // Cleared so that picking the same photo again after removing it is still a change.
    event.target.value = '';
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      setProblem('Please attach an image file');
      return;
    }
    setProblem(null);
    attach(file);
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void submit();
  }

  return (
    <form onSubmit={onSubmit} className="border-t bg-background p-2 sm:p-3">
      {attachment && (
        <ImagePreview url={attachment.url} name={attachment.file.name} onRemove={clear} disabled={isLoading} />
      )}
      {problem && (
        <p role="alert" className="mb-2 text-sm text-destructive">
          {problem}
        </p>
      )}
      <div className="flex items-end gap-2">
        <input
          ref={picker}
          type="file"
          accept="image/*"
          className="hidden"
          tabIndex={-1}
          aria-hidden="true"
          onChange={onPick}
          data-testid="chat-image-input"
        />
        <Button
          type="button"
          variant="outline"
          size="icon"
          className="size-12"
          aria-label="Attach image"
          title="Attach image"
          disabled={isLoading}
          onClick={() => picker.current?.click()}
        >
          <ImagePlus className="size-5" />
        </Button>
        <label htmlFor={inputId} className="sr-only">
          Message
        </label>
        <Textarea
          id={inputId}
          ref={input}
          rows={1}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          disabled={isLoading}
          enterKeyHint="send"
          placeholder="Ask about equipment issues, troubleshooting steps..."
          // One line until typed in: on a phone the long placeholder would otherwise open three.
          className="max-h-32 min-h-12 min-w-0 flex-1 resize-none placeholder:overflow-hidden placeholder:text-ellipsis placeholder:whitespace-nowrap"
        />
        <Button
          type="submit"
          size="icon"
          className="size-12"
          aria-label="Send message"
          title="Send message"
          disabled={!canSend}
        >
          {isLoading ? <Loader2 className="size-5 animate-spin" /> : <SendHorizontal className="size-5" />}
        </Button>
      </div>
    </form>
  );
}
