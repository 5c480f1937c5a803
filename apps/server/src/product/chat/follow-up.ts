import type pg from 'pg';
import { questionTerms, termScore } from '../retrieval/passage-text.js';
import type { Passage } from '../retrieval/retrieve.js';

/** A question and its answer from this user's chat a moment ago. */
export interface Exchange {
  question: string;
  answer: string;
  /** The manuals its answer cited, first cited first. */
  manualIds: string[];
}

/** A follow-up continues a conversation of the last quarter of an hour; older exchanges are another job. */
export const FOLLOW_UP_WINDOW_MS = 15 * 60_000;
const RECENT_EXCHANGES = 2;
const ANSWER_CHARS = 1500;

function parseObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The user's last exchanges within FOLLOW_UP_WINDOW_MS, oldest first (rows the web app saved itself may hold any text). */
export async function recentExchanges(pool: pg.Pool, userId: string, now = Date.now()): Promise<Exchange[]> {
  const { rows } = await pool.query<{ message: string; response: string }>(
    'SELECT message, response FROM chat_messages WHERE user_id = $1 AND created_at >= $2 ORDER BY created_at DESC LIMIT $3',
    [userId, now - FOLLOW_UP_WINDOW_MS, RECENT_EXCHANGES],
  );
  return rows.reverse().flatMap((row) => {
    const message = parseObject(row.message);
    const response = parseObject(row.response);
    const question = typeof message.content === 'string' ? message.content : '';
    const answer = typeof response.content === 'string' ? response.content : '';
    const sources = Array.isArray(response.sources) ? (response.sources as { manualId?: unknown }[]) : [];
    const manualIds = [...new Set(sources.map((s) => s.manualId).filter((id): id is string => typeof id === 'string'))];
    return question.trim()
      ? [{ question: question.slice(0, 4000), answer: answer.slice(0, ANSWER_CHARS), manualIds }]
      : [];
  });
}

// Words that point back at something said before: "what about the 4 second one?", "and that?", "does it also...".
const pointsBack =
  /^(?:and|but|also|then|so|what about|how about|same|ok|okay)\b|\b(?:it|its|it's|that|this|those|these|they|them|one|ones|same|other|another|instead|too|again)\b/i;

/**
 * A question too short or too vague to stand alone: it leans on the one before. Two words that
 * point at nothing before ("How do I read the fuses?") are a new question of their own: a
 * technician asking short questions in a row would otherwise have each searched with the last one's words.
 */
export function isFollowUp(question: string): boolean {
  const terms = questionTerms(question);
  const count = terms.words.length + terms.codes.length;
  return count <= 1 || (pointsBack.test(question) && count <= 6);
}

/**
 * What retrieval searches for: a follow-up also carries the words of the question before it,
 * so "what about the 4 second one?" after "what does a 2 second blink mean on the GB-90?" looks
 * for a 4 second blink on the GB-90. A question that stands alone is searched as it is.
 */
export function searchQuestion(question: string, previous: Exchange | undefined): string {
  if (!previous || !isFollowUp(question)) return question;
  // Its bare numbers stay behind: "2 second" must not compete with the "4 second" asked about now.
  const before = questionTerms(previous.question);
  return [question, ...before.words, ...before.codes.filter((code) => /\p{L}/u.test(code))].join(' ');
}

/**
 * A follow-up's passages (found with the earlier question's words too): the manual the previous
 * answer cited first comes first, and within it and after it the pages that carry the new
 * question's own words ("4 second") before those that only carry the earlier ones ("2 second blink").
 */
export function rankFollowUp(passages: Passage[], question: string, manualId: string | undefined): Passage[] {
  const terms = questionTerms(question);
  return passages
    .map((passage, rank) => ({
      passage,
      rank,
      same: passage.manualId === manualId ? 1 : 0,
      score: termScore(passage.text, terms),
    }))
    .sort((a, b) => b.same - a.same || b.score - a.score || a.rank - b.rank)
    .map((p) => p.passage);
}
