import { Bot, Loader2, User } from 'lucide-react';

import { cn } from '@/lib/utils';

import type { ChatMessage } from './chat-message';
import { ChatMarkdown } from './chat-markdown';
import { MessageSources } from './message-sources';
import { PhotoReading } from './photo-reading';
import { PhotoThumbnail } from './photo-thumbnail';

/** One message: the technician's on the right, the assistant's on the left with its sources. */
export function MessageBubble({
  message,
  busy = false,
  onAskAgain,
}: {
  message: ChatMessage;
  busy?: boolean;
  onAskAgain?: (photoText: string) => void;
}) {
  const mine = message.role === 'user';
  const pending = message.status === 'waiting' || message.status === 'streaming';
  return (
    <article
      aria-label={mine ? 'You' : 'Assistant'}
      aria-busy={pending || undefined}
      data-role={message.role}
      data-status={message.status}
      className={cn('flex min-w-0 items-start gap-2 sm:gap-3', mine && 'flex-row-reverse')}
    >
      <span
        aria-hidden="true"
        className={cn(
          'mt-0.5 size-7 shrink-0 items-center justify-center rounded-full sm:flex sm:size-8',
          // On a phone the answer takes the whole width: its steps and commands need it more than an icon does.
          mine ? 'flex bg-primary text-primary-foreground' : 'hidden bg-primary/10 text-primary',
        )}
      >
        {mine ? <User className="size-4" /> : <Bot className="size-4" />}
      </span>
      <div
        className={cn(
          'min-w-0 rounded-2xl px-3.5 py-2.5 sm:max-w-[75%] sm:px-4 sm:py-3',
          mine ? 'max-w-[85%]' : 'max-w-full flex-1 sm:flex-none',
          mine
            ? 'rounded-tr-sm bg-primary text-primary-foreground'
            : 'rounded-tl-sm border bg-card text-card-foreground shadow-xs',
          message.status === 'error' && 'border-destructive/40 bg-destructive/5',
        )}
      >
        {/* Beside each other where there is room, so the answer starts close under them. */}
        <div className="sm:flex sm:items-start sm:gap-3">
          {message.imageUrl && <PhotoThumbnail url={message.imageUrl} />}
          {mine && message.photo && (
            <div className="min-w-0 sm:flex-1">
              <PhotoReading photo={message.photo} disabled={busy} onAskAgain={onAskAgain} />
            </div>
          )}
        </div>
        {mine ? (
          message.content && (
            <p className="text-base leading-relaxed whitespace-pre-wrap wrap-anywhere">{message.content}</p>
          )
        ) : message.status === 'waiting' ? (
          <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
            <Loader2 aria-hidden="true" className="size-4 animate-spin" />
            Thinking…
          </p>
        ) : message.status === 'error' ? (
          <p role="alert" className="text-sm leading-relaxed whitespace-pre-wrap text-destructive wrap-anywhere">
            {message.content}
          </p>
        ) : (
          <ChatMarkdown content={message.content} sources={message.sources} suggestions={message.suggestions} />
        )}
        {!mine && message.status === 'done' && <MessageSources sources={message.sources ?? []} />}
      </div>
    </article>
  );
}
