// The product's chat endpoint: the UI message stream of the text endpoint plus two data
// parts, `data-sources` (the manual passages, before the text) and `data-message` (the id of
// the saved chatMessages row, at the end).
import type { AiTransport } from './transport.js';
import type { AiClient, ChatSource } from './types.js';
import { collectUiMessageText, type UiMessagePart } from './ui-message-stream.js';
import { invalid } from './validation.js';

function sourcesOf(data: unknown): ChatSource[] {
  if (!Array.isArray(data)) return [];
  return data
    .filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null && typeof item.manualId === 'string')
    .map((item) => ({
      manualId: item.manualId as string,
      title: typeof item.title === 'string' ? item.title : '',
      page: typeof item.page === 'number' ? item.page : null,
      fileUrl: typeof item.fileUrl === 'string' ? item.fileUrl : '',
      ...(typeof item.quote === 'string' ? { quote: item.quote } : {}),
    }));
}

export function createChat(transport: AiTransport, projectId: string): AiClient['chat'] {
  return async ({ question, imageUrl }, { onChunk, onSources, signal } = {}) => {
    if (!question?.trim() && !imageUrl) throw invalid('Ask a question or attach an image');
    let sources: ChatSource[] = [];
    let messageId: string | undefined;
    const onOther = (part: UiMessagePart) => {
      if (part.type === 'data-sources') {
        sources = sourcesOf(part.data);
        onSources?.(sources);
      } else if (part.type === 'data-message') {
        const id = (part.data as { id?: unknown } | undefined)?.id;
        if (typeof id === 'string' || typeof id === 'number') messageId = String(id);
      }
    };
    const result = await transport.stream(`/app/${encodeURIComponent(projectId)}/chat`, { question, imageUrl }, signal, (body) =>
      collectUiMessageText(body, onChunk, onOther),
    );
    return { ...result, sources, messageId };
  };
}
