/**
 * bench/retrieval/candidates.ts: every tuned question's candidates (findCandidates: the full-text
 * features, the cosine, the listing and fenced shares, the place) gathered once from a database
 * run.ts kept, and cached (.cache/sweep-candidates.json), so the offline tools (sweep.ts,
 * fit-batches.ts) rank them under any weights without a server. Tuned questions only.
 */
import { readFile, writeFile } from 'node:fs/promises';
import {
  answersQuestion,
  bringEntriesForward,
  bringOpeningsForward,
  holdBackOtherManuals,
  fuseScores,
  type LexicalFeatures,
  lexicalScore,
  type Place,
  type RankWeights,
} from '../../apps/server/src/product/retrieval/rank.js';
import { findCandidates } from '../../apps/server/src/product/retrieval/retrieve.js';
import { openKeptDatabase } from './kept-database.js';
import { CACHE_DIR } from './manuals.js';
import type { Question } from './score.js';

const cacheFile = `${CACHE_DIR}sweep-candidates.json`;

export interface Candidate {
  page: string;
  features: LexicalFeatures;
  semantic: number | undefined;
  entrySemantic?: number;
  listing: boolean;
  fenced: number | undefined;
  place: Place | undefined;
}
export interface Asked {
  q: Question;
  candidates: Candidate[];
}

/** The tuned questions' candidates: from the cache when `cached`, else found in database `db` and cached. */
export async function loadCandidates(db: string, cached: boolean): Promise<Asked[]> {
  if (cached) return JSON.parse(await readFile(cacheFile, 'utf8'));
  const { pool, embedder, tuned, pageOf, close } = await openKeptDatabase(db);
  const asked: Asked[] = [];
  for (const q of tuned) {
    const candidates = await findCandidates({ pool, embedder }, { question: q.question, role: 'technician' });
    asked.push({
      q,
      candidates: candidates.map((c) => ({
        page: pageOf(c.row),
        features: c.features,
        semantic: c.semantic,
        entrySemantic: c.entrySemantic,
        listing: c.listing,
        fenced: c.fenced,
        place: c.place,
      })),
    });
  }
  await close();
  await writeFile(cacheFile, JSON.stringify(asked));
  return asked;
}

/** The candidates fused under weights `w` (fuseScores over lexicalScore), best first. */
export function fuse(candidates: Candidate[], w: RankWeights) {
  return fuseScores(
    candidates.map((c) => ({ ...c, row: c, lexical: lexicalScore(c.features, w), coverage: c.features.coverage })),
    w,
  );
}

/** The pages as retrievePassages gives them under weights `w`: none when it abstains, else with openings brought forward. */
export function rankedPages(candidates: Candidate[], w: RankWeights): string[] {
  const fused = fuse(candidates, w);
  if (!answersQuestion(fused)) return [];
  return [
    ...new Set(bringOpeningsForward(bringEntriesForward(holdBackOtherManuals(fused, w), w), w).map((c) => c.row.page)),
  ];
}

/** Whether page "manual:page" is one of the question's right pages. */
export const isRight = (q: Question, page: string) => q.pages.some((p) => page === `${q.manual}:${p}`);

/** hit@1, hit@5 and MRR@5 of the ranking (its first five distinct pages, as run.ts counts) over the answerable questions. */
export function rankingFigures(questions: Asked[], w: RankWeights) {
  let hit1 = 0,
    hit5 = 0,
    mrr = 0,
    n = 0;
  for (const { q, candidates } of questions) {
    if (q.manual === null) continue;
    n++;
    const at = rankedPages(candidates, w)
      .slice(0, 5)
      .findIndex((page) => isRight(q, page));
    if (at === 0) hit1++;
    if (at >= 0) {
      hit5++;
      mrr += 1 / (at + 1);
    }
  }
  return { hit1: hit1 / n, hit5: hit5 / n, mrr: mrr / n, n };
}

export const formatRanking = (r: ReturnType<typeof rankingFigures>) =>
  `hit@1 ${r.hit1.toFixed(3)}, hit@5 ${r.hit5.toFixed(3)}, MRR@5 ${r.mrr.toFixed(3)}`;
