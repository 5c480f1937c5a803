import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Role } from '../../auth/caller.js';
import { type AiContentPart, type AiProvider, type AiTextPart, zeroUsage } from '../../ai/provider.js';
import { ApiError } from '../../errors.js';
import { type PhotoReading, understandPhoto } from './photo.js';
import { localPhotoAnswer, photoPromptNote, retrieveForPhoto, withPhotoLead } from './photo-answer.js';
import { CHAT_SYSTEM_PROMPT, buildChatPrompt, localAnswer } from './prompt.js';
import { type Passage, retrievePassages } from './retrieve.js';

/** What the chat needs of an AI provider: with the local one it answers with the passages themselves. */
export type ChatModel = Pick<AiProvider, 'kind' | 'streamText'>;

export interface ChatDeps {
  pool: pg.Pool;
  model: ChatModel;
  /** Reads a file stored here (a chat photo) so it can go to the model as bytes. */
  readOwnFile: (url: string) => Promise<{ bytes: Buffer; contentType: string } | undefined>;
  /** Reads a photo's text by OCR (data/ocr's readPhoto). */
  readPhotoText: (bytes: Uint8Array) => Promise<string>;
  maxTokens: number;
}

export interface ChatTurn {
  user: { userId: string; role: Role | null };
  question: string;
  imageUrl?: string;
  /** The user's correction of the text read from the photo, used instead of reading it again. */
  photoText?: string;
}

export interface ChatAnswer {
  sources: { manualId: string; title: string; page: number | null; fileUrl: string }[];
  /** What was read from the attached photo and which manual it names. */
  photo?: PhotoReading;
  /** The model's answer, part by part; ends with a finish part. */
  parts: AsyncIterable<AiTextPart>;
}

/**
 * Finds the passages that answer the question among the manuals this user may read and starts
 * the answer. Everything that can be refused (a photo that is not ours) is refused here,
 * before a stream is opened.
 */
export async function startChatAnswer(deps: ChatDeps, turn: ChatTurn): Promise<ChatAnswer> {
  const image = turn.imageUrl ? await deps.readOwnFile(turn.imageUrl) : undefined;
  if (turn.imageUrl && (!image || !image.contentType.startsWith('image/'))) {
    throw new ApiError('VALIDATION_ERROR', 'imageUrl must be an image uploaded to FieldAssist');
  }
  const typed = turn.question.trim() !== '';
  const question = turn.question.trim() || 'What is wrong with the equipment in this photo?';
  const photo = image && (await understandPhoto(deps, { bytes: image.bytes, correctedText: turn.photoText, role: turn.user.role }));
  const passages = photo
    ? await retrieveForPhoto(deps.pool, { question, typed, role: turn.user.role, photo })
    : await retrievePassages(deps.pool, { question, role: turn.user.role });
  const sources = citedSources(passages);
  if (deps.model.kind === 'local') return { sources, photo, parts: streamWords(photo ? localPhotoAnswer(photo, passages, typed) : localAnswer(passages)) };
  const prompt = buildChatPrompt(question, passages) + (photo ? photoPromptNote(photo) : '');
  const content: string | AiContentPart[] = image
    ? [{ type: 'text', text: prompt }, { type: 'image', image: `data:${image.contentType};base64,${image.bytes.toString('base64')}` }]
    : prompt;
  const parts = deps.model.streamText({ system: CHAT_SYSTEM_PROMPT, messages: [{ role: 'user', content }], maxTokens: deps.maxTokens });
  return { sources, photo, parts: photo ? withPhotoLead(photo, parts) : parts };
}

/** One source per manual page, in the order the passages were ranked. */
function citedSources(passages: Passage[]): ChatAnswer['sources'] {
  const seen = new Set<string>();
  return passages.flatMap((p) => {
    const key = `${p.manualId}:${p.page}`;
    if (seen.has(key)) return [];
    seen.add(key);
    return [{ manualId: p.manualId, title: p.title, page: p.page, fileUrl: p.fileUrl }];
  });
}

async function* streamWords(text: string): AsyncIterable<AiTextPart> {
  for (const piece of text.match(/\S+\s*/g) ?? []) yield { type: 'text-delta', delta: piece };
  yield { type: 'finish', finishReason: 'stop', usage: zeroUsage() };
}

/** The chatMessages row of SPEC.md section 3: the question and the answer as JSON text. */
export async function saveChatExchange(pool: pg.Pool, turn: ChatTurn, answer: { text: string; sources: ChatAnswer['sources']; photo?: PhotoReading }): Promise<string> {
  const id = randomBytes(16).toString('hex');
  await pool.query('INSERT INTO chat_messages (id, user_id, message, response, created_at) VALUES ($1, $2, $3, $4, $5)', [
    id,
    turn.user.userId,
    JSON.stringify({ content: turn.question, imageUrl: turn.imageUrl ?? null }),
    JSON.stringify({ content: answer.text, sources: answer.sources, ...(answer.photo && { photo: answer.photo }) }),
    Date.now(),
  ]);
  return id;
}
