/**
 * Checks bench/retrieval/questions.json against the manuals: unique ids, every tenth question of
 * each group held out, expected pages within the PDF, and each key term found (case-insensitive,
 * whitespace folded) by `pdftotext -f N -l N` on at least one of its expected pages. Run it after
 * editing the questions: a wrong expected page poisons every later measurement.
 *
 *   npx tsx bench/retrieval/check-questions.ts
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { fetchManuals } from './manuals.js';
import type { Question } from './score.js';

const run = promisify(execFile);
const fold = (text: string) => text.toLowerCase().replace(/\s+/g, ' ');

const { questions } = JSON.parse(await readFile(new URL('./questions.json', import.meta.url), 'utf8')) as {
  questions: Question[];
};
const manuals = new Map((await fetchManuals(undefined, console.log)).map((m) => [m.name, m]));
const problems: string[] = [];
const pageText = new Map<string, string>();
const textOf = async (path: string, page: number) => {
  const key = `${path}#${page}`;
  if (!pageText.has(key))
    pageText.set(
      key,
      fold((await run('pdftotext', ['-enc', 'UTF-8', '-f', String(page), '-l', String(page), path, '-'])).stdout),
    );
  return pageText.get(key)!;
};

if (new Set(questions.map((q) => q.id)).size !== questions.length) problems.push('question ids are not unique');
const groups = new Map<string | null, Question[]>();
for (const q of questions) groups.set(q.manual, [...(groups.get(q.manual) ?? []), q]);
for (const [group, list] of groups) {
  list.forEach((q, i) => {
    if (q.split !== (i % 10 === 9 ? 'heldout' : 'tuned'))
      problems.push(`${q.id}: the ${i + 1}th of group ${group} must be ${i % 10 === 9 ? 'heldout' : 'tuned'}`);
  });
}
for (const q of questions) {
  if (q.manual === null) {
    if (q.pages.length || q.key !== null) problems.push(`${q.id}: an unanswerable question has no pages and no key`);
    continue;
  }
  const manual = manuals.get(q.manual);
  if (!manual) {
    problems.push(`${q.id}: unknown manual ${q.manual}`);
    continue;
  }
  if (!q.key || q.pages.length === 0) problems.push(`${q.id}: an answerable question needs pages and a key`);
  if (q.pages.some((p) => !Number.isInteger(p) || p < 1 || p > manual.pages))
    problems.push(`${q.id}: pages ${q.pages.join(', ')} outside 1-${manual.pages}`);
  const found = await Promise.all(
    q.pages
      .filter((p) => p >= 1 && p <= manual.pages)
      .map(async (p) => (await textOf(manual.path, p)).includes(fold(q.key ?? ''))),
  );
  if (!found.some(Boolean)) problems.push(`${q.id}: key "${q.key}" is on none of pages ${q.pages.join(', ')}`);
}

const counts = [...groups].map(
  ([group, list]) =>
    `${group ?? 'unanswerable'} ${list.filter((q) => q.split === 'tuned').length} tuned + ${list.filter((q) => q.split === 'heldout').length} held out`,
);
console.log(`${questions.length} questions: ${counts.join('; ')}`);
for (const problem of problems) console.log(`PROBLEM ${problem}`);
console.log(problems.length ? `${problems.length} problems` : 'no problems');
process.exitCode = problems.length ? 1 : 0;
