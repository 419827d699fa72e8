import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ScreeningIndex } from '../screening/index.js';
import { readShippedLists } from './official-pairs.js';
import { queryNames } from './screening.bench.js';

/**
 * One-name screening latency of this build against another build of the engine, side by side in one
 * process (the machines are shared and noisy: alternating the two on the same queries is what makes
 * the ratio mean something). SCREENING_BASE_DIST=<the dist/ folder of another checkout, built> —
 * e.g. `git worktree add /tmp/base main && (cd /tmp/base && npm ci && npm run build)` — else skipped.
 * Both indexes hold the lists shipped in data/; each of SCREENING_COMPARE_ROUNDS rounds (default 5)
 * screens the 400 query names of screening.bench.ts on both, alternating which goes first, this
 * build from cold (nothing remembered); then the same names on this build again, as remembered.
 */

type Search = (q: { fullName: string }) => unknown;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

export async function run(): Promise<void> {
  const base = process.env.SCREENING_BASE_DIST;
  if (!base || !existsSync(path.join(base, 'screening', 'index.js'))) {
    console.log('skipped: set SCREENING_BASE_DIST to the dist/ folder of the build to compare with');
    return;
  }
  const other = (await import(pathToFileURL(path.join(path.resolve(base), 'screening', 'index.js')).href)) as {
    ScreeningIndex: typeof ScreeningIndex;
  };
  const { lists } = readShippedLists(path.resolve(process.env.SCREENING_BENCH_DATA ?? 'data'));
  const entries = lists.flatMap((l) => l.entries);
  const build = (Index: typeof ScreeningIndex) => {
    const t = performance.now();
    const index = Index.build(entries, {});
    return { index, ms: performance.now() - t };
  };
  const before = build(other.ScreeningIndex);
  const after = build(ScreeningIndex);
  console.log(`index build: base ${before.ms.toFixed(0)} ms, this ${after.ms.toFixed(0)} ms (×${(after.ms / before.ms).toFixed(2)})`);

  const queries = queryNames(entries, 400);
  // each search of this build from cold: the token matches it remembers across searches would
  // answer the rounds' repeated names (measured apart, below)
  const engines: [string, Search][] = [
    ['base', (q) => before.index.search(q)],
    [
      'this',
      (q) => {
        after.index.forgetMatches();
        return after.index.search(q);
      },
    ],
  ];
  for (const [, search] of engines) for (const q of queries.slice(0, 50)) search({ fullName: q.name }); // warm-up
  const rounds = Number(process.env.SCREENING_COMPARE_ROUNDS ?? 5);
  const times: Record<string, number[]> = { base: [], this: [] };
  const perRound: string[] = [];
  for (let r = 0; r < rounds; r++) {
    const round: Record<string, number[]> = { base: [], this: [] };
    for (const [i, q] of queries.entries()) {
      const order = (i + r) % 2 === 0 ? engines : [...engines].reverse();
      for (const [name, search] of order) {
        const t = performance.now();
        search({ fullName: q.name });
        round[name].push(performance.now() - t);
      }
    }
    times.base.push(...round.base);
    times.this.push(...round.this);
    perRound.push(`p95 ×${(pct(round.this, 95) / pct(round.base, 95)).toFixed(2)}`);
  }
  for (const p of [50, 95, 99])
    console.log(
      `one name p${p}: base ${pct(times.base, p).toFixed(2)} ms, this ${pct(times.this, p).toFixed(2)} ms (×${(pct(times.this, p) / pct(times.base, p)).toFixed(2)})`,
    );
  console.log(`per round: ${perRound.join(', ')}`);
  const remembered: number[] = [];
  for (const q of queries) after.index.search({ fullName: q.name });
  for (const q of queries) {
    const t = performance.now();
    after.index.search({ fullName: q.name });
    remembered.push(performance.now() - t);
  }
  console.log(
    `this build, names seen before (their token matches remembered): p50 ${pct(remembered, 50).toFixed(2)} ms, p95 ${pct(remembered, 95).toFixed(2)} ms`,
  );
}
