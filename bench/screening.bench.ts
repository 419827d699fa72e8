import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import pg from 'pg';
import { freePort, startEmbeddedPostgres } from '../platform/db/embedded-postgres.js';
import { migrateDatabase } from '../cli/migrations.js';
import { createLogger } from '../platform/logger.js';
import { importSnapshot, ScreeningEngine, ScreeningIndex, type ListEntry } from '../screening/index.js';
import { evaluatePairs, type LabelledPair } from '../screening/matching/evaluate.js';
import { readShippedLists } from './official-pairs.js';
import { FAMILY_NAMES, GIVEN_NAMES } from './support/names.js';

/**
 * Screening figures (issue 4): the real OFAC SDN (+ aliases) and UN lists shipped in data/ imported into an embedded PostgreSQL, the engine loading them, one name p50/p95 over a few hundred
 * query names, a batch of 100, index build time and memory, and precision/recall of the labelled
 * pairs at 0.85. Skipped (with a message) when the lists are absent. SCREENING_BENCH_DATA: another
 * folder with a manifest.json; SCREENING_BENCH_DB=off: no PostgreSQL, the in-memory index only.
 */

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x: number) => `${x.toFixed(2)} ms`;

/** Deterministic pseudo-random numbers (mulberry32) so that every run screens the same names. */
function rng(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Query names: listed names as written, reordered and with a typo; plus names that are on no list. */
export function queryNames(entries: ListEntry[], n: number): { name: string; expect?: string }[] {
  const rand = rng(42);
  const people = entries.filter((e) => e.entityType === 'INDIVIDUAL' && e.names[0]?.full.includes(','));
  const out: { name: string; expect?: string }[] = [];
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  while (out.length < n * 0.6) {
    const e = pick(people);
    const [family, given] = e.names[0].full.split(',').map((s) => s.trim());
    const variant = out.length % 3;
    let name = variant === 0 ? `${given} ${family}` : variant === 1 ? `${family} ${given}` : `${given} ${family}`;
    if (variant === 2) {
      const i = 1 + Math.floor(rand() * (name.length - 2));
      if (/[a-z]/i.test(name[i]) && /[a-z]/i.test(name[i + 1] ?? '')) name = name.slice(0, i) + name[i + 1] + name[i] + name.slice(i + 2);
    }
    out.push({ name, expect: `${e.source}:${e.externalId}` });
  }
  while (out.length < n) out.push({ name: `${pick(GIVEN_NAMES)} ${pick(GIVEN_NAMES)} ${pick(FAMILY_NAMES)}` });
  return out;
}

export async function run(): Promise<void> {
  // the lists shipped in data/ (brotli), or SCREENING_BENCH_DATA=<folder with a manifest.json>
  const dataDir = path.resolve(process.env.SCREENING_BENCH_DATA ?? 'data');
  if (!existsSync(path.join(dataDir, 'manifest.json'))) {
    console.log(`skipped: ${dataDir}/manifest.json not found (the real OFAC/UN lists are needed for these figures)`);
    return;
  }
  let t = performance.now();
  const { lists } = readShippedLists(dataDir);
  const parseMs = performance.now() - t;
  const entries = lists.flatMap((l) => l.entries);
  const names = entries.reduce((s, e) => s + e.names.length, 0);
  console.log(
    `lists: ${lists.map((l) => `${l.source} ${l.entries.length} entries`).join(', ')}; ${names} names with aliases (parsed in ${ms(parseMs)})`,
  );

  // index build time and memory, in memory
  gc();
  const heap0 = process.memoryUsage().heapUsed;
  t = performance.now();
  const index = ScreeningIndex.build(entries, Object.fromEntries(lists.map((l) => [l.source, 'bench'])));
  const buildMs = performance.now() - t;
  gc();
  const heapMb = (process.memoryUsage().heapUsed - heap0) / 1e6;
  console.log(`index build: ${ms(buildMs)} for ${index.size} entries / ${index.nameCount} names; heap +${heapMb.toFixed(1)} MB`);

  // the same through PostgreSQL: import as snapshots, then the engine loads and indexes them
  let engine: ScreeningEngine | null = null;
  let db: Awaited<ReturnType<typeof startEmbeddedPostgres>> | null = null;
  let pool: pg.Pool | null = null;
  // SCREENING_BENCH_DB=off: the in-memory index only (quicker, for back-to-back latency runs)
  if (process.env.SCREENING_BENCH_DB !== 'off')
    try {
      db = await startEmbeddedPostgres({
        dir: path.join(tmpdir(), `afri-bench-screening-${process.pid}`),
        port: await freePort(),
        persistent: false,
      });
      await migrateDatabase(db.url);
      pool = new pg.Pool({ connectionString: db.url, max: 4 });
      pool.on('error', () => undefined); // the cluster stops at the end: idle clients may see it first
      for (const l of lists) {
        t = performance.now();
        const r = await importSnapshot(pool, l.source, l.entries, { format: l.format, importedBy: 'bench' });
        console.log(`import ${l.source}: ${r.version}, ${r.total} entries in ${ms(performance.now() - t)}`);
      }
      engine = new ScreeningEngine({ pool, logger: createLogger('bench', 'silent'), pollMs: 0 });
      t = performance.now();
      await engine.start();
      console.log(
        `engine start (load snapshots from PostgreSQL + build index): ${ms(performance.now() - t)}; versions ${JSON.stringify(engine.versions())}`,
      );
    } catch (err) {
      console.log(`embedded PostgreSQL unavailable (${(err as Error).message}); figures below use the in-memory index`);
    }
  const search = engine
    ? (q: Parameters<ScreeningIndex['search']>[0]) => engine!.search(q)
    : (q: Parameters<ScreeningIndex['search']>[0]) => index.search(q);

  // one name at a time
  const queries = queryNames(entries, 400);
  for (const q of queries.slice(0, 30)) search({ fullName: q.name }); // warm-up
  const times: number[] = [];
  const work = { candidates: 0, scored: 0 };
  let found = 0;
  let expected = 0;
  let hitsOnUnlisted = 0;
  for (const q of queries) {
    const s = performance.now();
    const hits = search({ fullName: q.name });
    times.push(performance.now() - s);

    if (q.expect) {
      expected++;
      if (hits.some((h) => `${h.source}:${h.externalId}` === q.expect)) found++;
    } else if (hits.length) hitsOnUnlisted++;
  }
  console.log(`one name (${queries.length} names): p50 ${ms(pct(times, 50))}, p95 ${ms(pct(times, 95))}, max ${ms(Math.max(...times))}`);
  for (const q of queries) {
    index.search({ fullName: q.name });
    work.candidates += index.lastStats.candidates;
    work.scored += index.lastStats.scored;
  }
  console.log(
    `  work per name: ${Math.round(work.candidates / queries.length)} candidate names from the blocking keys, ${(work.scored / queries.length).toFixed(1)} aligned in full`,
  );
  console.log(
    `  listed names found (as written, reordered, with a transposition typo): ${found}/${expected}; unlisted names with a hit ≥ 0.85: ${hitsOnUnlisted}/${queries.length - expected}`,
  );

  // a batch of 100
  const batch = queries.slice(100, 200);
  const batchTimes: number[] = [];
  for (let i = 0; i < 5; i++) {
    const s = performance.now();
    for (const q of batch) search({ fullName: q.name });
    batchTimes.push(performance.now() - s);
  }
  console.log(`batch of 100: median ${ms(pct(batchTimes, 50))} (${ms(pct(batchTimes, 50) / 100)} a name)`);

  // labelled pairs
  for (const [label, file] of [
    ['labelled pairs (tuning set)', 'labelled-pairs.json'],
    ['labelled pairs (held-out set)', 'labelled-pairs-holdout.json'],
  ]) {
    const { pairs } = JSON.parse(readFileSync(path.resolve('screening', 'matching', file), 'utf8')) as { pairs: LabelledPair[] };
    const r = evaluatePairs(pairs, 0.85);
    console.log(
      `${label} at 0.85, ${pairs.length} pairs: precision ${r.precision.toFixed(3)}, recall ${r.recall.toFixed(3)} (tp ${r.tp}, fp ${r.fp}, fn ${r.fn}, tn ${r.tn})`,
    );
  }

  await engine?.stop();
  await pool?.end();
  await db?.stop();
}
