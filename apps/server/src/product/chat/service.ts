import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Role } from '../../auth/caller.js';
import { type AiContentPart, type AiProvider, type AiTextPart, zeroUsage } from '../../ai/provider.js';
import { ApiError } from '../../errors.js';
import type { Embedder } from '../retrieval/embedder.js';
import { type Passage, retrievePassages } from '../retrieval/retrieve.js';
import { notFoundAnswer } from './not-found.js';
import { CHAT_SYSTEM_PROMPT, buildChatPrompt, localAnswer } from './prompt.js';

/** What the chat needs of an AI provider: with the local one it answers with the passages themselves. */
export type ChatModel = Pick<AiProvider, 'kind' | 'streamText'>;

export interface ChatDeps {
  pool: pg.Pool;
  model: ChatModel;
  /** Reads a file stored here (a chat photo) so it can go to the model as bytes. */
  readOwnFile: (url: string) => Promise<{ bytes: Buffer; contentType: string } | undefined>;
  maxTokens: number;
  /** Embeds questions for semantic reranking; absent: full-text ranking alone. */
  embedder?: Pick<Embedder, 'embed'>;
}

export interface ChatTurn {
  user: { userId: string; role: Role | null };
  question: string;
  imageUrl?: string;
}

export interface ChatAnswer {
  sources: { manualId: string; title: string; page: number | null; fileUrl: string }[];
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
  const question = turn.question.trim() || 'What is wrong with the equipment in this photo?';
  const { passages, relevant, suggestions } = await retrievePassages(deps, { question, role: turn.user.role });
  const sources = citedSources(passages);
  // Nothing relevant enough: the answer says so first, and the model (if any) answers from general knowledge.
  const notice = relevant ? '' : `${notFoundAnswer(suggestions)}

`;
  if (deps.model.kind === 'local') return { sources, parts: streamWords(relevant ? localAnswer(passages) : notice.trim()) };
  const prompt = buildChatPrompt(question, passages);
  const content: string | AiContentPart[] = image
    ? [{ type: 'text', text: prompt }, { type: 'image', image: `data:${image.contentType};base64,${image.bytes.toString('base64')}` }]
    : prompt;
  const parts = deps.model.streamText({ system: CHAT_SYSTEM_PROMPT, messages: [{ role: 'user', content }], maxTokens: deps.maxTokens });
  return { sources, parts: notice ? prefixed(notice, parts) : parts };
}

async function* prefixed(text: string, parts: AsyncIterable<AiTextPart>): AsyncIterable<AiTextPart> {
  yield { type: 'text-delta', delta: text };
  yield* parts;
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
export async function saveChatExchange(pool: pg.Pool, turn: ChatTurn, answer: { text: string; sources: ChatAnswer['sources'] }): Promise<string> {
  const id = randomBytes(16).toString('hex');
  await pool.query('INSERT INTO chat_messages (id, user_id, message, response, created_at) VALUES ($1, $2, $3, $4, $5)', [
    id,
    turn.user.userId,
    JSON.stringify({ content: turn.question, imageUrl: turn.imageUrl ?? null }),
    JSON.stringify({ content: answer.text, sources: answer.sources }),
    Date.now(),
  ]);
  return id;
}
