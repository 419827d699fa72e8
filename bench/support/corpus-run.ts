import { availableParallelism } from 'node:os';
import sharp from 'sharp';
import { TextReader } from '../../subgraphs/verification/src/vision/text-reader.js';
import { CONDITIONS, type Condition } from './conditions.js';

/** What the benches that read a generated corpus share: their settings, their OCR workers, their tables. */

/** A comma-separated list from the environment, or undefined when unset. */
export const list = (value: string | undefined) =>
  value
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** A whole number from the environment, at least `min`. */
export function whole(name: string, fallback: number, min: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number ≥ ${min}`);
  return value;
}

/** The settings every corpus bench reads alike: `<prefix>_CORPUS`, `_CONDITIONS`, `_READERS`, `_SAVE`, `_ERRORS`. */
export interface CorpusSettings<C extends string> {
  corpus: C;
  conditions: Condition[];
  readers: number;
  save: string | undefined;
  errors: number;
}

export function corpusSettings<C extends string>(prefix: string, corpora: readonly C[]): CorpusSettings<C> {
  const corpus = (process.env[`${prefix}_CORPUS`] ?? 'report') as C;
  if (!corpora.includes(corpus)) throw new Error(`${prefix}_CORPUS must be one of ${corpora.join(', ')}`);
  const conditions = (list(process.env[`${prefix}_CONDITIONS`]) ?? [...CONDITIONS]) as Condition[];
  const unknown = conditions.filter((c) => !CONDITIONS.includes(c));
  if (unknown.length) throw new Error(`unknown conditions ${unknown.join(', ')}: they are ${CONDITIONS.join(', ')}`);
  return {
    corpus,
    conditions,
    readers: whole(`${prefix}_READERS`, Math.min(2, availableParallelism()), 1),
    save: process.env[`${prefix}_SAVE`],
    errors: whole(`${prefix}_ERRORS`, 0, 0),
  };
}

/**
 * `each` over every item, `readers` at a time (one OCR worker of `languages` each), results in
 * the items' order; progress every `every` items.
 */
export async function withReaders<T, R>(
  items: readonly T[],
  opts: { readers: number; languages?: string[]; every: number; noun: string },
  each: (item: T, text: TextReader) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (text: TextReader) => {
    while (next < items.length) {
      const i = next++;
      results[i] = await each(items[i], text);
      if ((i + 1) % opts.every === 0) console.log(`  ${i + 1}/${items.length} ${opts.noun} read`);
    }
  };
  const readers = Array.from({ length: opts.readers }, () => new TextReader(opts.languages));
  try {
    // a worker starts and loads its models on first use: not part of any item's time
    const blank = await sharp({ create: { width: 64, height: 32, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    await Promise.all(readers.map((r) => r.read(blank)));
    await Promise.all(readers.map(worker));
  } finally {
    await Promise.all(readers.map((r) => r.close()));
  }
  return results;
}

export const percent = (part: number, total: number) => (total ? `${((100 * part) / total).toFixed(1)} %` : '—');

/** The `q` quantile of `xs` (nearest rank). */
export const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

/** A table: the first column left-aligned, the others right-aligned. */
export function printTable(title: string, rows: string[][]): void {
  console.log(`\n${title}`);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const row of rows) console.log(row.map((cell, i) => (i ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join('  '));
}
