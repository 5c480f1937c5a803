import type { ChatSource, ChatSuggestion } from '@fieldassist/client/chat-sources';

export type AiContentPart = { type: 'text'; text: string } | { type: 'image'; image: string };

export interface AiMessage {
  role: 'system' | 'user' | 'assistant';
  content: string | AiContentPart[];
}

export interface AiUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** Either `prompt` or `messages`. `model` is sent but the server answers with its configured model. */
export interface TextGenerationOptions {
  prompt?: string;
  messages?: AiMessage[];
  system?: string;
  model?: string;
  /** Capped by the server (AI_MAX_OUTPUT_TOKENS). */
  maxTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
}

export interface TextGenerationResponse {
  text: string;
  finishReason: string;
  usage?: AiUsage;
}

export interface ObjectGenerationOptions {
  prompt: string;
  /** A JSON Schema with `type: "object"` at the top. */
  schema: Record<string, unknown>;
  system?: string;
  /** The file the text came from: lets the server read a part number and name from it. */
  fileName?: string;
  model?: string;
  signal?: AbortSignal;
}

export interface ObjectGenerationResponse<T = Record<string, unknown>> {
  object: T;
  finishReason: string;
  usage?: AiUsage;
}

export interface ImageGenerationOptions {
  prompt: string;
  n?: number;
  size?: string;
  model?: string;
  signal?: AbortSignal;
}

export interface ImageModificationOptions extends ImageGenerationOptions {
  /** 1 to 50 HTTPS image URLs. */
  images: string[];
}

export interface ImageGenerationResponse {
  data: { url: string }[];
  created?: number;
}

export type SpeechFormat = 'mp3' | 'opus' | 'aac' | 'flac' | 'wav' | 'pcm';

export interface SpeechGenerationOptions {
  text: string;
  /** Default alloy. */
  voice?: string;
  /** Default mp3. */
  response_format?: SpeechFormat;
  speed?: number;
  model?: string;
  signal?: AbortSignal;
}

export interface SpeechGenerationResponse {
  url: string;
  voice: string;
  format: string;
  mimeType: string;
}

export interface TranscriptionOptions {
  /** A URL, base64 or a data URL; or the bytes (sent as a JSON array of byte values). */
  audio: string | number[] | Uint8Array | ArrayBuffer;
  language?: string;
  response_format?: 'json' | 'text' | 'srt' | 'verbose_json' | 'vtt';
  model?: string;
  signal?: AbortSignal;
}

export interface TranscriptionResponse {
  text: string;
  transcript: string;
  language?: string;
  duration?: number;
  segments?: { text: string; start: number; end: number }[];
}

/** What the chat read from an attached photo: its text, the identifiers in it and the manual they name. */
export interface ChatPhoto {
  /** '' when the photo holds no readable text. */
  text: string;
  identifiers: { kind: 'model' | 'part' | 'serial' | 'error'; value: string }[];
  manual: { manualId: string; title: string } | null;
}

export interface ChatRequest {
  question: string;
  imageUrl?: string;
  /** The text read from the photo as the user corrected it (with the same imageUrl). */
  photoText?: string;
}

export interface ChatHandlers {
  onChunk?: (delta: string) => void;
  onSources?: (sources: ChatSource[]) => void;
  /** When the manuals hold no answer: the closest pages the answer's text lists, before the text. */
  onSuggestions?: (suggestions: ChatSuggestion[]) => void;
  /** What was read from the attached photo, before the answer's text. */
  onPhoto?: (photo: ChatPhoto) => void;
  signal?: AbortSignal;
}

export interface ChatResponse {
  text: string;
  sources: ChatSource[];
  /** The pages offered as suggestions when the manuals hold no answer (never among `sources`). */
  suggestions: ChatSuggestion[];
  photo?: ChatPhoto;
  /** The id of the saved chatMessages row. */
  messageId?: string;
  finishReason: string;
  usage?: AiUsage;
}

export interface AiClient {
  generateText(options: TextGenerationOptions): Promise<TextGenerationResponse>;
  /** Streams the answer, calling `onChunk` with each piece of text as it arrives. */
  streamText(options: TextGenerationOptions, onChunk: (delta: string) => void): Promise<TextGenerationResponse>;
  generateObject<T = Record<string, unknown>>(options: ObjectGenerationOptions): Promise<ObjectGenerationResponse<T>>;
  /** `onPartial` is called whenever the text received so far parses as JSON. */
  streamObject<T = Record<string, unknown>>(
    options: ObjectGenerationOptions,
    onPartial: (partial: T) => void,
  ): Promise<ObjectGenerationResponse<T>>;
  generateImage(options: ImageGenerationOptions): Promise<ImageGenerationResponse>;
  modifyImage(options: ImageModificationOptions): Promise<ImageGenerationResponse>;
  generateSpeech(options: SpeechGenerationOptions): Promise<SpeechGenerationResponse>;
  transcribeAudio(options: TranscriptionOptions): Promise<TranscriptionResponse>;
  /** The product's troubleshooting chat (POST /api/app/{projectId}/chat), grounded on the manuals. */
  chat(request: ChatRequest, handlers?: ChatHandlers): Promise<ChatResponse>;
}
