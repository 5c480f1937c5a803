import { photoOf } from '@fieldassist/client';
import { chatSourcesOf, chatSuggestionsOf } from '@fieldassist/client/chat-sources';

import type { ChatMessage } from './chat-message';

/** A chatMessages row as the client returns it (SPEC.md section 3). */
export type ChatMessageRow = {
  id: string;
  userId: string;
  message: string;
  response: string;
  createdAt: number | string;
};

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Each saved exchange becomes the user's message and the assistant's answer. A column that
 * is not the JSON we expect is shown as it is rather than dropped (SPEC.md section 3).
 */
export function messagesFromRow(row: ChatMessageRow): ChatMessage[] {
  const timestamp = Number(row.createdAt) || 0;
  const message = parseJson(row.message);
  const response = parseJson(row.response);
  const question = message && typeof message.content === 'string' ? message.content : row.message;
  const answer = response && typeof response.content === 'string' ? response.content : row.response;
  const imageUrl = message && typeof message.imageUrl === 'string' ? message.imageUrl : undefined;
  const photo = imageUrl ? photoOf(response?.photo) : undefined;
  return [
    {
      id: `${timestamp}-${row.id}-user`,
      role: 'user',
      content: question,
      imageUrl,
      ...(photo && { photo }),
      timestamp,
    },
    {
      id: `${timestamp}-${row.id}-assistant`,
      role: 'assistant',
      content: answer,
      sources: chatSourcesOf(response?.sources),
      suggestions: chatSuggestionsOf(response?.suggestions),
      status: 'done',
      timestamp,
    },
  ];
}
