import type { AuthUser } from '@fieldassist/client';

import { ManualViewerProvider } from '@/components/manual-viewer/manual-viewer-provider';

import { ChatComposer } from './chat-composer';
import { MessageList } from './message-list';
import { QueuedNotice } from './queued-notice';
import { useChat } from './use-chat';

/**
 * The AI Assistant tab (SPEC.md section 2 'AI chat'): the conversation above the composer, in
 * a box the viewport's height minus 8rem. Phones use the dynamic viewport height, which leaves
 * out the browser's own bars, so the input is never pushed below the screen. A cited page
 * opens in the manual viewer: beside the conversation on a wide screen, over it on a phone.
 * On a phone the box runs to the screen's edges (over the page's side padding): answers need
 * the width more than a frame does.
 */
export function ChatPage({ user }: { user: AuthUser }) {
  const { messages, isLoading, send, askAgain, queuedCount } = useChat(user.id);
  return (
    <ManualViewerProvider>
      <div className="flex h-[calc(100vh-8rem-var(--status-banner-height,0px))] min-h-80 flex-col overflow-hidden rounded-xl border bg-card shadow-xs max-sm:-mx-4 max-sm:rounded-none max-sm:border-x-0 supports-[height:100dvh]:h-[calc(100dvh-8rem-var(--status-banner-height,0px))]">
        <h1 tabIndex={-1} className="sr-only">
          AI Assistant
        </h1>
        <MessageList
          messages={messages}
          busy={isLoading}
          onAskAgain={(message, photoText) =>
            message.imageUrl && askAgain({ question: message.content, imageUrl: message.imageUrl, photoText })
          }
        />
        <QueuedNotice count={queuedCount} />
        <ChatComposer isLoading={isLoading} onSend={send} />
      </div>
    </ManualViewerProvider>
  );
}
