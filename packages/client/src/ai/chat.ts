// The product's chat endpoint: the UI message stream of the text endpoint plus data parts:
// `data-photo` (with a photo: what was read from it), `data-sources` (the manual passages),
// `data-suggestions` (when the manuals hold no answer: the closest pages the text lists, before
// the text) and `data-message` (the id of the saved chatMessages row, at the end).
import {
  type ChatSource,
  type ChatSuggestion,
  chatSourcesOf,
  chatSuggestionsOf,
} from '@fieldassist/client/chat-sources';
import type { AiTransport } from './transport.js';
import type { AiClient, ChatPhoto } from './types.js';
import { collectUiMessageText, type UiMessagePart } from './ui-message-stream.js';
import { invalid } from './validation.js';

/** The data-photo part as a ChatPhoto; anything malformed in it is left out. */
export function photoOf(data: unknown): ChatPhoto | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const { text, identifiers, manual } = data as Record<string, unknown>;
  if (typeof text !== 'string') return undefined;
  const kinds = ['model', 'part', 'serial', 'error'];
  const named = (Array.isArray(identifiers) ? identifiers : []).filter(
    (item): item is ChatPhoto['identifiers'][number] => typeof item?.value === 'string' && kinds.includes(item?.kind),
  );
  const found = manual as { manualId?: unknown; title?: unknown } | null;
  const identified =
    found && typeof found.manualId === 'string' && typeof found.title === 'string'
      ? { manualId: found.manualId, title: found.title }
      : null;
  return { text, identifiers: named.map(({ kind, value }) => ({ kind, value })), manual: identified };
}

export function createChat(transport: AiTransport, projectId: string): AiClient['chat'] {
  return async ({ question, imageUrl, photoText }, { onChunk, onSources, onSuggestions, onPhoto, signal } = {}) => {
    if (!question?.trim() && !imageUrl) throw invalid('Ask a question or attach an image');
    let sources: ChatSource[] = [];
    let suggestions: ChatSuggestion[] = [];
    let photo: ChatPhoto | undefined;
    let messageId: string | undefined;
    const onOther = (part: UiMessagePart) => {
      if (part.type === 'data-photo') {
        photo = photoOf(part.data);
        if (photo) onPhoto?.(photo);
      } else if (part.type === 'data-sources') {
        sources = chatSourcesOf(part.data);
        onSources?.(sources);
      } else if (part.type === 'data-suggestions') {
        suggestions = chatSuggestionsOf(part.data);
        onSuggestions?.(suggestions);
      } else if (part.type === 'data-message') {
        const id = (part.data as { id?: unknown } | undefined)?.id;
        if (typeof id === 'string' || typeof id === 'number') messageId = String(id);
      }
    };
    const request = photoText === undefined ? { question, imageUrl } : { question, imageUrl, photoText };
    const result = await transport.stream(`/app/${encodeURIComponent(projectId)}/chat`, request, signal, (response) =>
      collectUiMessageText(response, onChunk, onOther),
    );
    return { ...result, sources, suggestions, ...(photo && { photo }), messageId };
  };
}
