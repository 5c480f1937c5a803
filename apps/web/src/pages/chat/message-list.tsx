import { useEffect, useRef } from 'react';

import type { ChatMessage } from './chat-message';
import { EmptyChat } from './empty-chat';
import { MessageBubble } from './message-bubble';

/** The scrolling conversation; glides to the newest message whenever one arrives or grows. */
export function MessageList({
  messages,
  busy = false,
  onAskAgain,
}: {
  messages: ChatMessage[];
  busy?: boolean;
  onAskAgain?: (message: ChatMessage, photoText: string) => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = scroller.current;
    // Only the list scrolls: scrollIntoView would also move the page under a phone's header.
    if (element) element.scrollTo({ top: element.scrollHeight, behavior: 'smooth' });
  }, [messages]);

  return (
    <div
      ref={scroller}
      role="log"
      aria-label="Conversation"
      // Focusable so the conversation can be scrolled from the keyboard.
      tabIndex={0}
      className="min-h-0 flex-1 overflow-y-auto overscroll-contain p-3 outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset sm:p-4"
    >
      {messages.length === 0 ? (
        <EmptyChat />
      ) : (
        <div className="flex flex-col gap-4">
          {messages.map((message) => (
            <MessageBubble
              key={message.id}
              message={message}
              busy={busy}
              onAskAgain={onAskAgain && message.imageUrl ? (photoText) => onAskAgain(message, photoText) : undefined}
            />
          ))}
        </div>
      )}
    </div>
  );
}
