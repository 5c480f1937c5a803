import { useEffect, useRef } from 'react';

import type { ChatMessage } from './chat-message';
import { EmptyChat } from './empty-chat';
import { MessageBubble } from './message-bubble';

/**
 * Where the conversation scrolls to: the newest question at the top, so its answer is read from its
 * first line (the direct answer), not from its end, under the question (a photo and the text read
 * from it) it answers; of a question taller than 60% of the list only its end shows, so that at
 * least 40% of the list is answer. The list's bottom while no answer follows the question yet, or
 * when what follows fits below it.
 */
function scrollTargetOf(list: HTMLElement): number {
  const bottom = list.scrollHeight - list.clientHeight;
  const questions = list.querySelectorAll('article[data-role="user"]');
  const question = questions[questions.length - 1];
  const answer = question?.nextElementSibling;
  if (!question || !answer) return bottom;
  const top = list.getBoundingClientRect().top - list.scrollTop;
  const paddingTop = parseFloat(getComputedStyle(list).paddingTop) || 0;
  const questionTop = question.getBoundingClientRect().top - top - paddingTop;
  const answerTop = answer.getBoundingClientRect().top - top - paddingTop;
  return Math.min(bottom, Math.max(questionTop, answerTop - list.clientHeight * 0.6));
}

/** The scrolling conversation; glides to the newest question and its answer whenever one arrives or grows. */
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
    if (element) element.scrollTo({ top: scrollTargetOf(element), behavior: 'smooth' });
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
