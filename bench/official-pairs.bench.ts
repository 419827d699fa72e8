import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { compareNames } from '../screening/index.js';
import { FAMILIES, type OfficialPair, type OfficialPairs } from './official-pairs.js';

/**
 * Precision, recall and F1 of the pairwise matcher (`compareNames`) at the default threshold 0.85 on
 * the name pairs built from the official lists (bench/data/official-name-pairs.json, made by
 * bench/official-pairs.ts): overall and per family, on the development part and on the holdout part
 * (never tuned on). `OFFICIAL_PAIRS_ERRORS=dev` prints the development part's errors;
 * `OFFICIAL_PAIRS_PARTS=dev` evaluates only that part (while tuning). With SCREENING_BASE_DIST (the
 * `dist/` of another build, as for screening-compare) the same pairs are scored by that build too:
 * before and after side by side.
 */

const THRESHOLD = 0.85;

interface Counts {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

type Compare = typeof compareNames;

export function evaluate(pairs: OfficialPair[], threshold = THRESHOLD, compare: Compare = compareNames) {
  const byFamily = new Map<string, Counts>();
  const errors: { pair: OfficialPair; score: number }[] = [];
  const add = (key: string, hit: boolean, match: boolean) => {
    const c = byFamily.get(key) ?? byFamily.set(key, { tp: 0, fp: 0, fn: 0, tn: 0 }).get(key)!;
    if (hit && match) c.tp++;
    else if (hit) c.fp++;
    else if (match) c.fn++;
    else c.tn++;
  };
  for (const p of pairs) {
    const score = compare(p.a, p.b, { entityType: p.entityType }).score;
    const hit = score >= threshold;
    add('all', hit, p.match);
    for (const f of p.families) add(f, hit, p.match);
    if (hit !== p.match) errors.push({ pair: p, score });
  }
  return { byFamily, errors };
}

const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '  –  ');

export function prf(c: Counts): { p: number; r: number; f1: number } {
  const p = c.tp / (c.tp + c.fp);
  const r = c.tp / (c.tp + c.fn);
  return { p, r, f1: (2 * p * r) / (p + r) };
}

export function table(label: string, byFamily: Map<string, Counts>): string {
  const rows = [`${label.padEnd(12)} ${'pairs'.padStart(5)} ${'P'.padStart(6)} ${'R'.padStart(6)} ${'F1'.padStart(6)}   tp/fp/fn/tn`];
  for (const key of ['all', ...FAMILIES]) {
    const c = byFamily.get(key);
    if (!c) continue;
    const { p, r, f1 } = prf(c);
    rows.push(
      `${key.padEnd(12)} ${String(c.tp + c.fp + c.fn + c.tn).padStart(5)} ${f3(p).padStart(6)} ${f3(r).padStart(6)} ${f3(f1).padStart(6)}   ${c.tp}/${c.fp}/${c.fn}/${c.tn}`,
    );
  }
  return rows.join('\n');
}

export async function run(): Promise<void> {
  const file = path.resolve('bench', 'data', 'official-name-pairs.json');
  const doc = JSON.parse(readFileSync(file, 'utf8')) as OfficialPairs;
  console.log(`official-list name pairs at ${THRESHOLD} (${doc.lists.map((l) => `${l.source} ${l.publishedOn}`).join(', ')})`);
  const parts = (process.env.OFFICIAL_PAIRS_PARTS ?? 'dev,holdout').split(',') as ('dev' | 'holdout')[];
  const base = process.env.SCREENING_BASE_DIST;
  if (base && existsSync(path.join(base, 'screening', 'index.js'))) {
    const other = (await import(pathToFileURL(path.join(path.resolve(base), 'screening', 'index.js')).href)) as { compareNames: Compare };
    for (const part of parts) console.log(`\n${table(`base ${part}`, evaluate(doc[part], THRESHOLD, other.compareNames).byFamily)}`);
  }
  for (const part of parts) {
    const t = performance.now();
    const { byFamily, errors } = evaluate(doc[part]);
    console.log(`\n${table(part, byFamily)}\n(${doc[part].length} pairs compared in ${(performance.now() - t).toFixed(0)} ms)`);
    if (process.env.OFFICIAL_PAIRS_ERRORS === part) {
      for (const e of errors)
        console.log(
          `  ${e.pair.match ? 'FN' : 'FP'} ${e.score.toFixed(3)} [${e.pair.families.join(',')}] ${e.pair.a} | ${e.pair.b} (${e.pair.entityType})`,
        );
    }
  }
}
