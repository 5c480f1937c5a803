/**
 * Summarises a V8 .cpuprofile (as written by `bench/rest/run.ts --profile` or node --cpu-prof):
 * self time by package or source file, the hottest functions, and the inclusive time of
 * every function (each sample counted once per function on its stack).
 *
 *   npx tsx bench/tools/cpuprofile-summary.ts <file.cpuprofile> [--top 25] [--match regex] [--per N]
 *
 * --per N divides times by N (e.g. the number of requests the profile covers) to print
 * microseconds per request.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '25' }, match: { type: 'string' }, per: { type: 'string' } },
});
const file = positionals[0];
if (!file) throw new Error('usage: cpuprofile-summary <file.cpuprofile> [--top N] [--match regex] [--per N]');
const top = Number(values.top);
const per = values.per ? Number(values.per) : undefined;

const profile = JSON.parse(await readFile(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

/** Where a frame's code lives: an npm package, a source file of ours, node internals or V8. */
function place(frame: CallFrame): string {
  const url = frame.url;
  if (!url) return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  const ours = /\/work\/[^/]+\/(.*)$/.exec(url.replace(/^file:\/\//, ''));
  return ours ? ours[1]! : url;
}
const key = (frame: CallFrame) => `${frame.functionName || '(anonymous)'} ${place(frame)}:${frame.lineNumber + 1}`;

// Each sample's duration is the next time delta (V8 records the delta before each sample).
const durations = profile.samples.map((_, i) => profile.timeDeltas[i + 1] ?? 0);
const total = durations.reduce((a, b) => a + b, 0);
const selfByPlace = new Map<string, number>();
const selfByFunction = new Map<string, number>();
const inclusive = new Map<string, number>();
profile.samples.forEach((id, i) => {
  const us = durations[i]!;
  const leaf = byId.get(id)!;
  selfByPlace.set(place(leaf.callFrame), (selfByPlace.get(place(leaf.callFrame)) ?? 0) + us);
  selfByFunction.set(key(leaf.callFrame), (selfByFunction.get(key(leaf.callFrame)) ?? 0) + us);
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const k = key(byId.get(at)!.callFrame);
    if (seen.has(k)) continue;
    seen.add(k);
    inclusive.set(k, (inclusive.get(k) ?? 0) + us);
  }
});

const busy = total - (selfByPlace.get('(idle)') ?? 0);
const show = (us: number) => {
  const share = `${((100 * us) / busy).toFixed(1).padStart(5)}%`;
  return per
    ? `${share} ${(us / per).toFixed(1).padStart(7)} us/req`
    : `${share} ${(us / 1000).toFixed(0).padStart(7)} ms`;
};
const print = (title: string, map: Map<string, number>, filter?: RegExp) => {
  console.log(`\n${title}`);
  [...map]
    .filter(([k]) => !filter || filter.test(k))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .forEach(([k, us]) => console.log(`  ${show(us)}  ${k}`));
};

console.log(
  `${file}: ${(total / 1e6).toFixed(2)} s sampled, ${(busy / 1e6).toFixed(2)} s busy (percentages are of busy time)`,
);
print('self time by package / file', selfByPlace);
print('self time by function', selfByFunction);
print('inclusive time by function', inclusive, values.match ? new RegExp(values.match) : undefined);
