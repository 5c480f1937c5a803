import type { ChatPhoto, ChatSource, ChatSuggestion } from '@fieldassist/client';

/**
 * One message on screen (SPEC.md section 3, in-memory chat message). `status` is for the
 * assistant's reply: 'waiting' until the first text arrives, 'streaming' while it is written,
 * 'error' when it failed (the content is then plain text, not markdown).
 */
export type ChatMessage = {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  imageUrl?: string;
  /** On the user's message with a photo: the text the server read from it. */
  photo?: ChatPhoto;
  sources?: ChatSource[];
  /** On an answer the manuals do not hold: the closest pages its text lists, each opening its page. */
  suggestions?: ChatSuggestion[];
  status?: 'waiting' | 'streaming' | 'done' | 'error';
  timestamp: number;
};
