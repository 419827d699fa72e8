import type { RuleSeverity } from '../rules/rule.entity.js';

/**
 * How the three layers make one score and one action (documented in docs/api/risk.md):
 * - each layer scores 0–100 as a noisy-OR of its signals: 100·(1 − Π(1 − wᵢ/100));
 *   rules: fired rules weighted by severity (SEVERITY_WEIGHTS); graph: patterns found
 *   (PATTERN_WEIGHTS); sanctions: the strongest hit (list-kind weight × match score);
 * - the score is the noisy-OR of the three layer scores, rounded to an integer: one strong signal
 *   is enough to score high, several weak ones add up, nothing exceeds 100;
 * - the action is the most severe of: the score's band (≥ block threshold → block, ≥ review
 *   threshold → review, else allow), the actions of the fired rules, and the sanctions hits'
 *   action (a SANCTIONS hit blocks; PEP/law-enforcement/adverse-media review).
 */

export const ACTIONS = ['allow', 'review', 'block'] as const;
export type Action = (typeof ACTIONS)[number];

export const SEVERITY_WEIGHTS: Record<RuleSeverity, number> = { low: 10, medium: 30, high: 55, critical: 80 };

export interface Thresholds {
  review: number;
  block: number;
}

/** 100·(1 − Π(1 − wᵢ/100)) over weights in 0–100. */
export function noisyOr(weights: number[]): number {
  let keep = 1;
  for (const w of weights) keep *= 1 - Math.min(100, Math.max(0, w)) / 100;
  return round1(100 * (1 - keep));
}

export function combineLayers(layers: { rules: number; graph: number; sanctions: number }): number {
  return Math.round(noisyOr([layers.rules, layers.graph, layers.sanctions]));
}

export function actionForScore(score: number, t: Thresholds): Action {
  if (score >= t.block) return 'block';
  if (score >= t.review) return 'review';
  return 'allow';
}

export function mostSevere(...actions: Action[]): Action {
  return actions.reduce((a, b) => (ACTIONS.indexOf(b) > ACTIONS.indexOf(a) ? b : a), 'allow' as Action);
}

const round1 = (x: number) => Math.round(x * 10) / 10;
