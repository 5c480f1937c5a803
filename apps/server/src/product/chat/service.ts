import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Role } from '../../auth/caller.js';
import { type AiContentPart, type AiMessage, type AiProvider, type AiTextPart, zeroUsage } from '../../ai/provider.js';
import { ApiError } from '../../errors.js';
import { type RetrievalDeps, retrievePassages } from '../retrieval/retrieve.js';
import { withKnownCitations } from './citations.js';
import type { ChatSource, ChatSuggestion } from '@fieldassist/client/chat-sources';
import { composeAnswer } from './compose.js';
import { isFollowUp, rankFollowUp, recentExchanges, searchQuestion } from './follow-up.js';
import { notFoundAnswer, presentSuggestions } from './not-found.js';
import { readFigurePages } from './page-figures.js';
import { type PhotoReading, describePhoto, understandPhoto } from './photo.js';
import { photoPromptNote, photoSearch, retrieveForPhoto, withPhotoLead } from './photo-answer.js';
import { CHAT_SYSTEM_PROMPT, buildChatPrompt, numberExcerpts } from './prompt.js';
import { widenToPage } from './whole-page.js';

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
  /** Embeds questions for semantic reranking; absent: full-text ranking alone. */
  embedder?: RetrievalDeps['embedder'];
}

export interface ChatTurn {
  user: { userId: string; role: Role | null };
  question: string;
  imageUrl?: string;
  /** The user's correction of the text read from the photo, used instead of reading it again. */
  photoText?: string;
}

export interface ChatAnswer {
  /** The pages the answer cites as [1], [2]...: sources[n - 1] is [n]. */
  sources: ChatSource[];
  /** With nothing relevant enough: the closest pages the answer's text lists as suggestions, never cited. */
  suggestions: ChatSuggestion[];
  /** What was read from the attached photo and which manual it names. */
  photo?: PhotoReading;
  /** The model's answer, part by part; ends with a finish part. */
  parts: AsyncIterable<AiTextPart>;
}

/**
 * Finds the passages that answer the question among the manuals this user may read and starts
 * the answer. A follow-up ("what about the 4 second one?") is searched with the words and the
 * manual of the user's previous question, and a model also sees the last exchanges. Everything
 * that can be refused (a photo that is not ours) is refused here, before a stream is opened.
 */
export async function startChatAnswer(deps: ChatDeps, turn: ChatTurn): Promise<ChatAnswer> {
  const image = turn.imageUrl ? await deps.readOwnFile(turn.imageUrl) : undefined;
  if (turn.imageUrl && (!image || !image.contentType.startsWith('image/'))) {
    throw new ApiError('VALIDATION_ERROR', 'imageUrl must be an image uploaded to FieldAssist');
  }
  const typed = turn.question.trim() !== '';
  const question = turn.question.trim() || 'What is wrong with the equipment in this photo?';
  const photo =
    image && (await understandPhoto(deps, { bytes: image.bytes, correctedText: turn.photoText, role: turn.user.role }));
  const [history, alone] = await Promise.all([
    recentExchanges(deps.pool, turn.user.userId),
    // A question that cannot be a follow-up is searched as asked: no need to wait for the history.
    !photo && !isFollowUp(question) ? retrievePassages(deps, { question, role: turn.user.role }) : undefined,
  ]);
  const previous = history.at(-1);
  // A photo starts from what it shows; a short typed question may lean on the one before it.
  const followUp = !photo && previous !== undefined && isFollowUp(question);
  const searched = photo
    ? photoSearch({ question, typed, photo })
    : followUp
      ? searchQuestion(question, previous)
      : question;
  const {
    passages: found,
    relevant,
    suggestions,
  } = alone ??
  (photo
    ? await retrieveForPhoto(deps, { searched, typed, role: turn.user.role, photo })
    : await retrievePassages(deps, { question: searched, role: turn.user.role }));
  const passages = followUp ? rankFollowUp(found, question, previous!.manualIds[0]) : found;
  // Nothing relevant enough: the answer says so first, and the model (if any) answers from general knowledge.
  const offered = relevant ? [] : presentSuggestions(suggestions);
  const notice = relevant ? '' : `${notFoundAnswer(offered)}\n\n`;
  // The pages' figures are read while the answer is made and the model asked (the sources are among these pages).
  const figures = readFigurePages(deps.pool, passages);
  // Awaited below, unless the answer fails first.
  figures.catch(() => undefined);
  if (deps.model.kind === 'local') {
    const lead = photo ? `${describePhoto(photo)}\n\n` : '';
    // A photo with no readable text and no question: say so, and nothing else.
    if (photo && !photo.text && !typed)
      return { sources: [], suggestions: [], photo, parts: streamWords(describePhoto(photo)) };
    if (!relevant) return { sources: [], suggestions: offered, photo, parts: streamWords(lead + notice.trim()) };
    const answer = composeAnswer(searched, await widenToPage(deps.pool, passages));
    const sources = (await figures)(answer.sources);
    return { sources, suggestions: [], photo, parts: streamWords(lead + answer.text) };
  }
  const excerpts = numberExcerpts(searched, passages);
  const prompt = buildChatPrompt(question, excerpts) + (photo ? photoPromptNote(photo) : '');
  const content: string | AiContentPart[] = image
    ? [
        { type: 'text', text: prompt },
        { type: 'image', image: `data:${image.contentType};base64,${image.bytes.toString('base64')}` },
      ]
    : prompt;
  const earlier: AiMessage[] = history.flatMap((e) => [
    { role: 'user' as const, content: e.question },
    { role: 'assistant' as const, content: e.answer },
  ]);
  // The model is asked now, and answers while the sources' figure pages are read.
  const cited = askedNow(
    withKnownCitations(
      deps.model.streamText({
        system: CHAT_SYSTEM_PROMPT,
        messages: [...earlier, { role: 'user', content }],
        maxTokens: deps.maxTokens,
      }),
      excerpts.sources.length,
    ),
  );
  const answered = notice ? prefixed(notice, cited) : cited;
  const sources = await figures
    .then((markFigures) => markFigures(excerpts.sources))
    .catch((error: unknown) => {
      // No answer will be read: the model's is let go.
      void cited[Symbol.asyncIterator]()
        .return?.()
        ?.catch(() => undefined);
      throw error;
    });
  return { sources, suggestions: offered, photo, parts: photo ? withPhotoLead(photo, answered) : answered };
}

/** The parts with the first already asked for (its failure is thrown where it is read). */
function askedNow<T>(parts: AsyncIterable<T>): AsyncIterable<T> {
  const iterator = parts[Symbol.asyncIterator]();
  let first: Promise<IteratorResult<T>> | undefined = iterator.next();
  first.catch(() => undefined);
  const asked: AsyncIterator<T> = {
    next: () => {
      const next = first ?? iterator.next();
      first = undefined;
      return next;
    },
    return: async (value?: T) => (await iterator.return?.(value)) ?? { done: true, value: value as T },
  };
  return { [Symbol.asyncIterator]: () => asked };
}

async function* prefixed(text: string, parts: AsyncIterable<AiTextPart>): AsyncIterable<AiTextPart> {
  yield { type: 'text-delta', delta: text };
  yield* parts;
}

async function* streamWords(text: string): AsyncIterable<AiTextPart> {
  for (const piece of text.match(/\S+\s*/g) ?? []) yield { type: 'text-delta', delta: piece };
  yield { type: 'finish', finishReason: 'stop', usage: zeroUsage() };
}

/** The chatMessages row of SPEC.md section 3: the question and the answer as JSON text. */
export async function saveChatExchange(
  pool: pg.Pool,
  turn: ChatTurn,
  answer: Pick<ChatAnswer, 'sources' | 'suggestions' | 'photo'> & { text: string },
): Promise<string> {
  const id = randomBytes(16).toString('hex');
  await pool.query(
    'INSERT INTO chat_messages (id, user_id, message, response, created_at) VALUES ($1, $2, $3, $4, $5)',
    [
      id,
      turn.user.userId,
      JSON.stringify({ content: turn.question, imageUrl: turn.imageUrl ?? null }),
      JSON.stringify({
        content: answer.text,
        sources: answer.sources,
        ...(answer.suggestions.length > 0 && { suggestions: answer.suggestions }),
        ...(answer.photo && { photo: answer.photo }),
      }),
      Date.now(),
    ],
  );
  return id;
}
