import type pg from 'pg';
import type { Role } from '../../auth/caller.js';
import { canonical, type Identifier, type IdentifierKind } from './identifiers.js';

export interface IdentifiedManual {
  manualId: string;
  title: string;
}

// What finding an identifier in a manual is worth. In the title or part number it names the
// manual; in the text it is only mentioned there. An error code names no manual by itself.
const inName: Record<IdentifierKind, number> = { model: 10, part: 8, serial: 3, error: 0 };
const inText: Record<IdentifierKind, number> = { model: 3, part: 3, serial: 1, error: 1 };
// Below this, what the photo shows is not in the library: better no manual than a wrong one.
const enough = 3;

/** The manual's name as comparable pieces: each word and each pair of neighbours ("XR 200" is XR200). */
function nameKeys(...fields: (string | null)[]): Set<string> {
  const words = fields.flatMap((field) => (field ?? '').split(/[^A-Za-z0-9]+/)).filter(Boolean);
  const keys = new Set<string>();
  for (const [i, word] of words.entries()) {
    keys.add(canonical(word));
    if (i > 0) keys.add(canonical(words[i - 1]! + word));
  }
  for (const field of fields) if (field) keys.add(canonical(field));
  return keys;
}

/**
 * The manual among those this user may read (system planners only for admins and technicians,
 * the same rule as retrieval) that the photo's identifiers point to: by its title, part number
 * and technology first, then by the indexed text. Undefined when nothing points clearly.
 */
export async function matchManual(
  pool: pg.Pool,
  { identifiers, role }: { identifiers: Identifier[]; role: Role | null },
): Promise<IdentifiedManual | undefined> {
  if (identifiers.length === 0) return undefined;
  const seesPlanners = role === 'admin' || role === 'technician';
  const visible = `($1 OR m.document_type <> 'system_planner')`;
  const scores = new Map<string, number>();
  const titles = new Map<string, string>();
  const add = (manualId: string, title: string, points: number) => {
    titles.set(manualId, title);
    scores.set(manualId, (scores.get(manualId) ?? 0) + points);
  };

  const { rows: manuals } = await pool.query<{
    id: string;
    title: string;
    part_number: string | null;
    technology: string | null;
    file_name: string;
  }>(`SELECT m.id, m.title, m.part_number, m.technology, m.file_name FROM manuals m WHERE ${visible}`, [seesPlanners]);
  for (const manual of manuals) {
    const keys = nameKeys(
      manual.title,
      manual.part_number,
      manual.technology,
      manual.file_name.replace(/\.[a-z0-9]+$/i, ''),
    );
    for (const identifier of identifiers)
      if (keys.has(canonical(identifier.value))) add(manual.id, manual.title, inName[identifier.kind]);
  }

  // In the indexed text, each identifier counts once per manual that mentions it.
  const { rows: mentions } = await pool.query<{ manual_id: string; title: string; value: string }>(
    `SELECT DISTINCT m.id AS manual_id, m.title, i.value
     FROM unnest($2::text[]) AS i(value)
     CROSS JOIN LATERAL (SELECT c.manual_id FROM manual_content c WHERE c.search @@ phraseto_tsquery('simple', i.value) LIMIT 200) c
     JOIN manuals m ON m.id = c.manual_id
     WHERE ${visible}`,
    [seesPlanners, identifiers.map((identifier) => identifier.value)],
  );
  for (const mention of mentions) {
    const identifier = identifiers.find((candidate) => candidate.value === mention.value)!;
    add(mention.manual_id, mention.title, inText[identifier.kind]);
  }

  const [best] = [...scores].sort((a, b) => b[1] - a[1]);
  if (!best || best[1] < enough) return undefined;
  return { manualId: best[0], title: titles.get(best[0])! };
}
