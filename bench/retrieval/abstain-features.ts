/**
 * What the relevance decision (relevanceScore) reads of each tuned question's best candidates (coverage, word coverage, the
 * share lacking from the library, cosine, and the other full-text features and fused scores that
 * bench/retrieval/abstain-fit.ts may read), whether it answers, and where the right page ranks:
 *
 *   npx tsx bench/retrieval/abstain-features.ts <database kept by run.ts --keep-db> <out.json>
 *
 * Tuned questions only; the held-out ones are never read (bench/README.md, branch abstain2).
 */
import { writeFile } from 'node:fs/promises';
import { answersQuestion, fuseScores } from '../../apps/server/src/product/retrieval/rank.js';
import { findCandidates } from '../../apps/server/src/product/retrieval/retrieve.js';
import { openKeptDatabase } from './kept-database.js';

const { pool, embedder, tuned, pageOf, close } = await openKeptDatabase(process.argv[2]!);
const out = [];
for (const q of tuned) {
  const ranked = fuseScores(await findCandidates({ pool, embedder }, { question: q.question, role: 'technician' }));
  const top = ranked[0];
  const pages = [...new Set(ranked.map((c) => pageOf(c.row)))];
  const at = q.manual ? pages.findIndex((p) => q.pages.some((x) => p === `${q.manual}:${x}`)) : -1;
  out.push({
    id: q.id,
    answerable: q.manual !== null,
    relevant: answersQuestion(ranked),
    rightAt: at,
    n: ranked.length,
    top: top && {
      page: pages[0],
      cov: top.features.coverage,
      word: top.features.wordCoverage,
      lacking: top.features.lacking,
      foreignName: top.features.foreignName ?? false,
      cos: top.semantic,
      best: top.features.bestSentence,
      title: top.features.title,
      heading: top.features.heading,
      proximity: top.features.proximity,
      phrases: top.features.phrases,
      frequency: top.features.frequency,
      score: top.score,
      // How far the best stands out: the fused score of the 2nd and 5th candidates.
      second: ranked[1]?.score,
      fifth: ranked[4]?.score,
    },
    // The first five candidates, for rules that read more than the best (RELEVANCE_CANDIDATES).
    cands: ranked.slice(0, 5).map((c) => ({
      page: pageOf(c.row),
      cov: c.features.coverage,
      word: c.features.wordCoverage,
      lacking: c.features.lacking,
      cos: c.semantic,
      best: c.features.bestSentence,
      heading: c.features.heading,
      title: c.features.title,
      phrases: c.features.phrases,
      proximity: c.features.proximity,
      optionEntry: c.features.optionEntry ?? false,
      namedManual: c.features.namedManual ?? false,
      soleManual: c.features.soleManual ?? false,
      score: c.score,
    })),
    q: q.question,
  });
}
await close();
await writeFile(process.argv[3]!, JSON.stringify(out, null, 1));
