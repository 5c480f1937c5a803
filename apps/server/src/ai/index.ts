// The AI module (ARCHITECTURE.md): what the rest of the server uses.
import type { Config } from '../config.js';
import { safeFetch } from '../data/safe-fetch.js';
import { createLocalProvider } from './local.js';
import { createOpenAiCompatibleProvider } from './openai-compatible.js';
import type { AiProvider, DownloadFile, SaveGeneratedFile } from './provider.js';

export { createAiRateLimit, registerAiRoutes, type AiRouteDeps } from './routes.js';
export {
  openUiMessageStream,
  uiMessageStreamHeaders,
  type UiMessagePart,
  type UiMessageStreamOptions,
} from './ui-message-stream.js';
export { NO_MODEL_ANSWER } from './local.js';
export type * from './provider.js';

/** The settings the AI drivers read (config.ts documents each). */
export type AiConfig = Pick<
  Config,
  | 'aiBaseUrl'
  | 'aiApiKey'
  | 'aiModel'
  | 'aiImageModel'
  | 'aiSpeechModel'
  | 'aiTranscribeModel'
  | 'aiTimeoutMs'
  | 'aiMaxOutputTokens'
>;

export interface AiProviderDeps {
  /** Stores generated images and speech; returns the public URL (the storage module). */
  saveGeneratedFile: SaveGeneratedFile;
  /** Fetches user-supplied image and audio URLs. Default: public addresses only, 25 MB, 30 s. */
  downloadFile?: DownloadFile;
}

const MAX_DOWNLOAD_BYTES = 25 * 1024 * 1024;

/** Downloads through data/safe-fetch: public addresses only, every hop vetted, time and size capped. */
export const downloadPublicFile: DownloadFile = async (url) => {
  const file = await safeFetch(url.href, { timeoutMs: 30_000, maxBytes: MAX_DOWNLOAD_BYTES });
  return { bytes: file.bytes, contentType: file.contentType?.split(';')[0]?.trim() };
};

/** The configured driver: OpenAI-compatible when AI_BASE_URL is set, else local. */
export function createAiProvider(config: AiConfig, deps: AiProviderDeps): AiProvider {
  if (!config.aiBaseUrl) return createLocalProvider();
  return createOpenAiCompatibleProvider({
    baseUrl: config.aiBaseUrl,
    apiKey: config.aiApiKey,
    model: config.aiModel,
    imageModel: config.aiImageModel,
    speechModel: config.aiSpeechModel,
    transcribeModel: config.aiTranscribeModel,
    timeoutMs: config.aiTimeoutMs,
    maxOutputTokens: config.aiMaxOutputTokens,
    saveGeneratedFile: deps.saveGeneratedFile,
    downloadFile: deps.downloadFile ?? downloadPublicFile,
  });
}
