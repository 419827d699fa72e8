import { readFileSync } from 'node:fs';
import path from 'node:path';
import { evaluatePairs, type LabelledPair } from './evaluate.js';

/**
 * Precision and recall of the matcher on the labelled pairs written for it
 * (screening/matching/labelled-pairs.json) at the default threshold 0.85. The floors guard against
 * regressions; the figures are printed and reported in bench/screening.bench.ts.
 */
const { pairs } = JSON.parse(readFileSync(path.join(__dirname, 'labelled-pairs.json'), 'utf8')) as { pairs: LabelledPair[] };

describe('labelled name pairs at threshold 0.85', () => {
  const result = evaluatePairs(pairs, 0.85);

  it('has a few hundred pairs of both labels', () => {
    expect(pairs.length).toBeGreaterThanOrEqual(300);
    expect(pairs.filter((p) => !p.match).length).toBeGreaterThanOrEqual(100);
  });

  it('keeps precision and recall above their floors', () => {
    console.log(
      `labelled pairs: ${pairs.length}, precision ${result.precision.toFixed(3)}, recall ${result.recall.toFixed(3)} ` +
        `(tp ${result.tp}, fp ${result.fp}, fn ${result.fn}, tn ${result.tn})\n` +
        result.errors.map((e) => `  ${e.kind} [${e.pair.category}] ${e.pair.a} | ${e.pair.b} → ${e.score}`).join('\n'),
    );
    expect(result.precision).toBeGreaterThanOrEqual(0.95);
    expect(result.recall).toBeGreaterThanOrEqual(0.95);
  });

  it('gets every category mostly right', () => {
    for (const [category, c] of Object.entries(result.byCategory)) {
      expect({ category, accuracy: c.correct / c.total >= 0.75 }).toEqual({ category, accuracy: true });
    }
  });
});
