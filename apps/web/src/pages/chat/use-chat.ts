import type { TableClient } from '@fieldassist/client';
import { useCallback, useEffect, useRef, useState } from 'react';

import { client } from '@/lib/client';
import { errorMessage } from '@/lib/error-message';

import { messagesFromRow, type ChatMessageRow } from './chat-history';
import type { ChatMessage } from './chat-message';
import { ensureSignedIn } from './ensure-signed-in';
import { uploadChatImage } from './upload-chat-image';

/** What `send` did: 'sent' once the question is on screen, or why it did not go. */
export type SendOutcome = { status: 'sent' } | { status: 'blocked' } | { status: 'upload-failed'; message: string };

const chatMessages = client.db.table('chatMessages') as TableClient<ChatMessageRow>;

async function loadHistory(userId: string): Promise<ChatMessage[]> {
  const rows = await chatMessages.list({ where: { userId }, orderBy: { createdAt: 'asc' } });
  return rows.flatMap(messagesFromRow);
}

/**
 * The chat of one user (SPEC.md sections 2, 4 'Chat send' and 8 'Chat'): their history,
 * then each question streamed into an assistant placeholder. A change of user starts over.
 */
export function useChat(userId: string) {
  const [owner, setOwner] = useState(userId);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [isLoading, setIsLoading] = useState(false);
  // The state flag arrives a render late; a second Enter in between must not send twice.
  const busy = useRef(false);
  const stream = useRef<AbortController | null>(null);

  // Reset during render (not in an effect) so the old user's messages never paint for the new one.
  if (owner !== userId) {
    setOwner(userId);
    setMessages([]);
    setIsLoading(false);
  }

  useEffect(() => {
    let current = true;
    busy.current = false;
    loadHistory(userId)
      // Prepended: a question asked before the history arrived stays after it.
      .then((history) => current && setMessages((shown) => [...history, ...shown]))
      .catch((error: unknown) => console.error('Failed to load chat history', error));
    return () => {
      current = false;
      stream.current?.abort();
    };
  }, [userId]);

  const streamAnswer = useCallback(async (answerId: string, question: string, imageUrl: string | undefined, photoText?: string) => {
    const questionId = answerId.replace(/-assistant$/, '-user');
    const controller = new AbortController();
    stream.current = controller;
    const update = (change: (message: ChatMessage) => Partial<ChatMessage>) =>
      setMessages((shown) => shown.map((m) => (m.id === answerId ? { ...m, ...change(m) } : m)));
    try {
      await ensureSignedIn();
      await client.ai.chat(
        { question, imageUrl, ...(photoText !== undefined && { photoText }) },
        {
          signal: controller.signal,
          // What was read from the photo is shown under it, on the question's bubble.
          onPhoto: (photo) => setMessages((shown) => shown.map((m) => (m.id === questionId ? { ...m, photo } : m))),
          onSources: (sources) => update(() => ({ sources })),
          onChunk: (delta) => update((m) => ({ content: m.content + delta, status: 'streaming' })),
        },
      );
      update(() => ({ status: 'done' }));
    } catch (error) {
      if (controller.signal.aborted) return;
      console.error('Chat request failed', error);
      update(() => ({
        status: 'error',
        sources: [],
        content: `❌ Error: ${errorMessage(error, 'Unknown error occurred')}\n\nPlease check the browser console for more details.`,
      }));
    } finally {
      // An aborted stream belonged to a user (or a screen) that is gone: leave the new state alone.
      if (!controller.signal.aborted) {
        busy.current = false;
        setIsLoading(false);
      }
    }
  }, []);

  /** Uploads the photo first (nothing is sent if that fails), then asks. */
  const send = useCallback(
    async ({ question, image }: { question: string; image: File | null }): Promise<SendOutcome> => {
      const text = question.trim();
      if ((!text && !image) || busy.current) return { status: 'blocked' };
      busy.current = true;
      setIsLoading(true);
      let imageUrl: string | undefined;
      if (image) {
        try {
          imageUrl = await uploadChatImage(image);
        } catch (error) {
          console.error('Chat image upload failed', error);
          busy.current = false;
          setIsLoading(false);
          return { status: 'upload-failed', message: errorMessage(error, 'Unknown error occurred') };
        }
      }
      const now = Date.now();
      const answerId = `${now}-assistant`;
      setMessages((shown) => [
        ...shown,
        { id: `${now}-user`, role: 'user', content: text, imageUrl, timestamp: now },
        { id: answerId, role: 'assistant', content: '', status: 'waiting', timestamp: now },
      ]);
      void streamAnswer(answerId, text, imageUrl);
      return { status: 'sent' };
    },
    [streamAnswer],
  );

  /** Asks the same question of the same photo again, with the text read from it as the user corrected it. */
  const askAgain = useCallback(
    ({ question, imageUrl, photoText }: { question: string; imageUrl: string; photoText: string }) => {
      if (busy.current) return;
      busy.current = true;
      setIsLoading(true);
      const now = Date.now();
      const answerId = `${now}-assistant`;
      setMessages((shown) => [
        ...shown,
        { id: `${now}-user`, role: 'user', content: question, imageUrl, photo: { text: photoText, identifiers: [], manual: null }, timestamp: now },
        { id: answerId, role: 'assistant', content: '', status: 'waiting', timestamp: now },
      ]);
      void streamAnswer(answerId, question, imageUrl, photoText);
    },
    [streamAnswer],
  );

  return { messages, isLoading, send, askAgain };
}
