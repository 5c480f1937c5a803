/** A lexical candidate with what is known of its relevance. */
export interface ScoredCandidate<Row> {
  row: Row;
  /** Full-text score: rarity-weighted share of the question's terms, heading and proximity bonuses. */
  lexical: number;
  /** Rarity-weighted share of the question's terms the chunk contains, 0 to 1. */
  coverage: number;
  /** Cosine of the chunk's and the question's embeddings, when both are known. */
  semantic: number | undefined;
}

// Calibrated on bench/retrieval's tuned questions (see bench/README.md, retrieval).
const SEMANTIC_WEIGHT = 1;
const RELEVANT_COVERAGE = 0.5;
const RELEVANT_SEMANTIC = 0.4;
const RELEVANT_COVERAGE_WITH_SEMANTIC = 0.2;

/**
 * Orders candidates by their lexical score (scaled to the best candidate's) plus the
 * weighted cosine of their embeddings; a candidate without an embedding counts the average
 * of the others, so a library still being indexed is neither favoured nor buried.
 */
export function fuseScores<Row>(candidates: ScoredCandidate<Row>[]): (ScoredCandidate<Row> & { score: number })[] {
  const best = Math.max(...candidates.map((c) => c.lexical), Number.MIN_VALUE);
  const known = candidates.map((c) => c.semantic).filter((s): s is number => s !== undefined);
  const fallback = known.length ? known.reduce((a, b) => a + b, 0) / known.length : 0;
  return candidates
    .map((c) => ({ ...c, score: c.lexical / best + SEMANTIC_WEIGHT * (c.semantic ?? fallback) }))
    .sort((a, b) => b.score - a.score);
}

/**
 * Whether the best candidate answers the question well enough to be given as the answer:
 * it holds most of the question's weight in terms, or it is close in meaning and holds some.
 */
export function decideRelevance(top: Pick<ScoredCandidate<unknown>, 'coverage' | 'semantic'> | undefined): boolean {
  if (!top) return false;
  if (top.coverage >= RELEVANT_COVERAGE) return true;
  return (
    top.semantic !== undefined && top.semantic >= RELEVANT_SEMANTIC && top.coverage >= RELEVANT_COVERAGE_WITH_SEMANTIC
  );
}
