import type { ModelMessage, UserContent } from 'ai';
import type { AiMessage, DownloadFile } from './provider.js';

const textOf = (content: AiMessage['content']) =>
  typeof content === 'string'
    ? content
    : content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');

/** The bytes of a base64 `data:` URL (the chat sends its photo inline), or undefined. */
function dataUrlFile(url: string): { bytes: Uint8Array; contentType?: string } | undefined {
  const match = /^data:([^;,]*);base64,/i.exec(url);
  return match
    ? { bytes: Buffer.from(url.slice(match[0].length), 'base64'), contentType: match[1] || undefined }
    : undefined;
}

/**
 * Our wire messages as AI SDK messages. System messages join the `system` text, so the SDK
 * never sees one mid-conversation. Images are downloaded here, through the injected
 * downloader, and sent as bytes: the server decides which addresses it fetches, and an
 * upstream model never needs to reach our (possibly private) file URLs itself.
 */
export async function toModelPrompt(
  { system, messages }: { system?: string; messages: AiMessage[] },
  downloadFile: DownloadFile,
  signal?: AbortSignal,
): Promise<{ system?: string; messages: ModelMessage[] }> {
  const systemTexts = [system, ...messages.filter((m) => m.role === 'system').map((m) => textOf(m.content))].filter(
    (t): t is string => !!t,
  );
  const converted = await Promise.all(
    messages
      .filter((m) => m.role !== 'system')
      .map(async (message): Promise<ModelMessage> => {
        if (message.role === 'assistant' || typeof message.content === 'string') {
          return message.role === 'assistant'
            ? { role: 'assistant', content: textOf(message.content) }
            : { role: 'user', content: textOf(message.content) };
        }
        const content: UserContent = await Promise.all(
          message.content.map(async (part) => {
            if (part.type === 'text') return part;
            const file = dataUrlFile(part.image) ?? (await downloadFile(new URL(part.image), signal));
            return { type: 'image' as const, image: file.bytes, mediaType: file.contentType };
          }),
        );
        return { role: 'user', content };
      }),
  );
  return { system: systemTexts.length ? systemTexts.join('\n\n') : undefined, messages: converted };
}
