import type { TableClient } from '@fieldassist/client';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';

import { client } from '@/lib/client';
import { errorMessage } from '@/lib/error-message';
import { isNetworkError } from '@/offline/network-error';
import {
  enqueue,
  pendingChanges,
  readSnapshot,
  removeChange,
  saveSnapshot,
  type OutboxEntry,
} from '@/offline/offline-db';

import { messagesFromRow, type ChatMessageRow } from './chat-history';
import type { ChatMessage } from './chat-message';
import { ensureSignedIn } from './ensure-signed-in';
import { uploadChatImage } from './upload-chat-image';

/** What `send` did: 'sent' once the question is on screen, or why it did not go. */
export type SendOutcome = { status: 'sent' } | { status: 'blocked' } | { status: 'upload-failed'; message: string };

const chatMessages = client.db.table('chatMessages') as TableClient<ChatMessageRow>;
const snapshotKey = (userId: string) => `chat:${userId}`;

/** The saved history from the server; with no network, the copy kept on the device (issue 18). */
async function loadHistory(userId: string): Promise<ChatMessage[]> {
  try {
    const rows = await chatMessages.list({ where: { userId }, orderBy: { createdAt: 'asc' } });
    return rows.flatMap(messagesFromRow);
  } catch (error) {
    if (!isNetworkError(error)) throw error;
    // Kept by the effect below after each answer (with its sources), not as the server's rows.
    return (await readSnapshot<ChatMessage[]>(snapshotKey(userId))) ?? [];
  }
}

type QueuedQuestion = Extract<OutboxEntry, { kind: 'chat.ask' }>;
const queuedId = (question: { askedAt: number }) => `${question.askedAt}-queued-user`;
const queuedMessage = (question: { question: string; askedAt: number }): ChatMessage => ({
  id: queuedId(question),
  role: 'user',
  content: question.question,
  timestamp: question.askedAt,
});

/**
 * The chat of one user (SPEC.md sections 2, 4 'Chat send' and 8 'Chat'): their history,
 * then each question streamed into an assistant placeholder. A change of user starts over.
 * Offline, the history is the copy kept on the device, and a question is queued in the
 * device's outbox and asked, in order, when the network returns.
 */
export function useChat(userId: string) {
  const [owner, setOwner] = useState(userId);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [isLoading, setIsLoading] = useState(false);
  const [queued, setQueued] = useState<QueuedQuestion[]>([]);
  const [historyLoaded, setHistoryLoaded] = useState(false);
  // The state flag arrives a render late; a second Enter in between must not send twice.
  const busy = useRef(false);
  const stream = useRef<AbortController | null>(null);

  // Reset during render (not in an effect) so the old user's messages never paint for the new one.
  if (owner !== userId) {
    setOwner(userId);
    setMessages([]);
    setQueued([]);
    setHistoryLoaded(false);
    setIsLoading(false);
  }

  useEffect(() => {
    let current = true;
    busy.current = false;
    Promise.all([loadHistory(userId), pendingChanges(userId, ['chat.ask']) as Promise<QueuedQuestion[]>])
      .then(([history, waiting]) => {
        if (!current) return;
        // Prepended: a question asked before the history arrived stays after it.
        setMessages((shown) => [...history, ...waiting.map(queuedMessage), ...shown]);
        setQueued(waiting);
        setHistoryLoaded(true);
      })
      .catch((error: unknown) => console.error('Failed to load chat history', error));
    return () => {
      current = false;
      stream.current?.abort();
    };
  }, [userId]);

  // The finished conversation is kept on the device, to read with no network.
  useEffect(() => {
    if (!historyLoaded || isLoading) return;
    const finished = messages.filter(
      (m) => !m.id.endsWith('-queued-user') && m.status !== 'waiting' && m.status !== 'streaming',
    );
    void saveSnapshot(snapshotKey(userId), finished).catch((error: unknown) =>
      console.warn('Keeping the chat on the device failed', error),
    );
  }, [historyLoaded, isLoading, messages, userId]);

  /** Streams the answer into its placeholder; 'offline' when the question never reached the server. */
  const streamAnswer = useCallback(
    async (
      answerId: string,
      question: string,
      imageUrl: string | undefined,
      photoText?: string,
    ): Promise<'done' | 'failed' | 'offline'> => {
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
            onSuggestions: (suggestions) => update(() => ({ suggestions })),
            onChunk: (delta) => update((m) => ({ content: m.content + delta, status: 'streaming' })),
          },
        );
        update(() => ({ status: 'done' }));
        return 'done';
      } catch (error) {
        if (controller.signal.aborted) return 'failed';
        console.error('Chat request failed', error);
        update(() => ({
          status: 'error',
          sources: [],
          suggestions: [],
          content: isNetworkError(error)
            ? '❌ No network: the question did not reach the server. Ask again when you are back online.'
            : `❌ Error: ${errorMessage(error, 'Unknown error occurred')}\n\nPlease check the browser console for more details.`,
        }));
        return isNetworkError(error) ? 'offline' : 'failed';
      } finally {
        // An aborted stream belonged to a user (or a screen) that is gone: leave the new state alone.
        if (!controller.signal.aborted) {
          busy.current = false;
          setIsLoading(false);
        }
      }
    },
    [],
  );

  // Questions asked offline are asked, oldest first, as soon as there is a network; each answer
  // goes under its question. One tab at a time, so a question is never asked twice.
  useEffect(() => {
    if (!historyLoaded) return;
    let current = true;
    const askQueued = async () => {
      const waiting = (await pendingChanges(userId, ['chat.ask'])) as QueuedQuestion[];
      let answered = 0;
      for (const question of waiting) {
        if (!current || !navigator.onLine || busy.current) break;
        busy.current = true;
        setIsLoading(true);
        const answerId = `${question.askedAt}-assistant`;
        setMessages((shown) => {
          const at = shown.findIndex((m) => m.id === queuedId(question));
          const placeholder: ChatMessage = {
            id: answerId,
            role: 'assistant',
            content: '',
            status: 'waiting',
            timestamp: question.askedAt,
          };
          return at < 0
            ? [...shown, queuedMessage(question), placeholder]
            : [...shown.slice(0, at + 1), placeholder, ...shown.slice(at + 1)];
        });
        const outcome = await streamAnswer(answerId, question.question, undefined);
        if (outcome === 'offline') {
          setMessages((shown) => shown.filter((m) => m.id !== answerId)); // still queued: asked next time
          break;
        }
        await removeChange(question.seq); // answered, or its error is shown in place of the answer
        // The question is now an ordinary one: kept with the history from here on.
        setMessages((shown) =>
          shown.map((m) => (m.id === queuedId(question) ? { ...m, id: `${question.askedAt}-user` } : m)),
        );
        setQueued((list) => list.filter((entry) => entry.seq !== question.seq));
        if (outcome === 'done') answered += 1;
      }
      if (answered > 0)
        toast.success(
          answered === 1
            ? 'Your question asked offline has been answered'
            : `${answered} questions asked offline have been answered`,
        );
    };
    const run = () => {
      const ask = () =>
        askQueued().catch((error: unknown) => console.warn('Asking the queued questions failed', error));
      void (navigator.locks ? navigator.locks.request(`fieldassist-chat-${userId}`, ask) : ask());
    };
    run();
    window.addEventListener('online', run);
    return () => {
      current = false;
      window.removeEventListener('online', run);
    };
  }, [historyLoaded, streamAnswer, userId]);

  /** Uploads the photo first (nothing is sent if that fails), then asks; offline, queues the question. */
  const send = useCallback(
    async ({ question, image }: { question: string; image: File | null }): Promise<SendOutcome> => {
      const text = question.trim();
      if ((!text && !image) || busy.current) return { status: 'blocked' };
      if (!navigator.onLine) {
        if (image)
          return {
            status: 'upload-failed',
            message: 'there is no network. Send the photo when you are back online, or ask in words now.',
          };
        const askedAt = Date.now();
        const seq = await enqueue(userId, { kind: 'chat.ask', question: text, askedAt });
        setMessages((shown) => [...shown, queuedMessage({ question: text, askedAt })]);
        setQueued((list) => [...list, { seq, userId, kind: 'chat.ask', question: text, askedAt }]);
        return { status: 'sent' };
      }
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
    [streamAnswer, userId],
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
        {
          id: `${now}-user`,
          role: 'user',
          content: question,
          imageUrl,
          photo: { text: photoText, identifiers: [], manual: null },
          timestamp: now,
        },
        { id: answerId, role: 'assistant', content: '', status: 'waiting', timestamp: now },
      ]);
      void streamAnswer(answerId, question, imageUrl, photoText);
    },
    [streamAnswer],
  );

  return { messages, isLoading, send, askAgain, queuedCount: queued.length };
}
