import { compareNames } from './name-score.js';

export interface LabelledPair {
  a: string;
  b: string;
  match: boolean;
  category: string;
}

export interface PairEvaluation {
  precision: number;
  recall: number;
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  byCategory: Record<string, { total: number; correct: number }>;
  errors: { kind: 'FP' | 'FN'; pair: LabelledPair; score: number }[];
}

/** Precision/recall of the pairwise matcher on labelled pairs at a threshold (entity pairs compared as entities). */
export function evaluatePairs(pairs: LabelledPair[], threshold: number): PairEvaluation {
  const out: PairEvaluation = { precision: 0, recall: 0, tp: 0, fp: 0, fn: 0, tn: 0, byCategory: {}, errors: [] };
  for (const p of pairs) {
    const score = compareNames(p.a, p.b, { entityType: p.category.includes('entity') ? 'ENTITY' : undefined }).score;
    const hit = score >= threshold;
    const cat = (out.byCategory[p.category] ??= { total: 0, correct: 0 });
    cat.total++;
    if (hit === p.match) cat.correct++;
    if (hit && p.match) out.tp++;
    else if (hit) {
      out.fp++;
      out.errors.push({ kind: 'FP', pair: p, score });
    } else if (p.match) {
      out.fn++;
      out.errors.push({ kind: 'FN', pair: p, score });
    } else out.tn++;
  }
  out.precision = out.tp + out.fp ? out.tp / (out.tp + out.fp) : 1;
  out.recall = out.tp + out.fn ? out.tp / (out.tp + out.fn) : 1;
  return out;
}
