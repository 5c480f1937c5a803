import type { AuthUser } from '@fieldassist/client';

import { ChatComposer } from './chat-composer';
import { MessageList } from './message-list';
import { QueuedNotice } from './queued-notice';
import { useChat } from './use-chat';

/**
 * The AI Assistant tab (SPEC.md section 2 'AI chat'): the conversation above the composer, in
 * a box the viewport's height minus 8rem. Phones use the dynamic viewport height, which leaves
 * out the browser's own bars, so the input is never pushed below the screen.
 */
export function ChatPage({ user }: { user: AuthUser }) {
  const { messages, isLoading, send, queuedCount } = useChat(user.id);
  return (
    <div className="flex h-[calc(100vh-8rem-var(--status-banner-height,0px))] min-h-80 flex-col overflow-hidden rounded-xl border bg-card shadow-xs supports-[height:100dvh]:h-[calc(100dvh-8rem-var(--status-banner-height,0px))]">
      <h1 tabIndex={-1} className="sr-only">
        AI Assistant
      </h1>
      <MessageList messages={messages} />
      <QueuedNotice count={queuedCount} />
      <ChatComposer isLoading={isLoading} onSend={send} />
    </div>
  );
}
