import { compareTokens, MIN_TOKEN_SCORE, type TokenSimilarity } from './similarity.js';
import { canonicalAbd, prepareName, type NameToken, type PreparedName, type PrepareOptions } from './normalize.js';
import type { MatchExplanation } from '../types.js';

/**
 * Name score: tokens are aligned regardless of order (greedy on similarity, also joining two
 * adjacent tokens to match one: "Ben Ali" ~ "Benali"), then
 *
 *   score = covHigh × (1 − β × (1 − covLow))
 *
 * where cov = matched weight / total weight on each side (token weight × token similarity),
 * covHigh/covLow the better/worse covered side, β = 0.25 when two or more significant tokens
 * (not particles, not initials) matched and 0.6 when only one did (one common token is weak evidence); × 0.9 when a known family
 * name (the part before the comma of "FAMILY, Given") is not matched at all. Weights: family name 1.3,
 * given names 1.0, initials 0.5, leading titles that are also names (Cheikh, Haji) 0.3, particles
 * (al, bin, de…) 0.15, "abu" 0.4.
 */

export const WEIGHTS = { family: 1.3, given: 1.0, initial: 0.5, particle: 0.15, kunya: 0.4, title: 0.3 } as const;
export const BETA_MULTI = 0.25;
export const BETA_SINGLE = 0.6;
/** A known family name ("FAMILY, Given") left unmatched multiplies the score by this. */
export const FAMILY_MISSING_FACTOR = 0.9;

export function tokenWeight(t: NameToken): number {
  if (t.role === 'particle') return t.text === 'abu' || t.text === 'abou' || t.text === 'umm' ? WEIGHTS.kunya : WEIGHTS.particle;
  return WEIGHTS[t.role];
}

export interface Unit {
  idx: number[];
  token: NameToken;
}

/** Single tokens, two adjacent tokens joined, and particle runs joined to the next token ("van der merwe"). */
export function units(tokens: NameToken[]): Unit[] {
  const out: Unit[] = tokens.map((token, i) => ({ idx: [i], token }));
  for (let i = 0; i + 1 < tokens.length; i++) {
    const a = tokens[i];
    const b = tokens[i + 1];
    if (a.role === 'initial' || b.role === 'initial') continue;
    out.push({
      idx: [i, i + 1],
      token: { text: canonicalAbd(a.text + b.text), role: b.role === 'family' ? 'family' : a.role, abjad: a.abjad && b.abjad },
    });
    const c = tokens[i + 2];
    if (c && a.role === 'particle' && b.role === 'particle' && c.role !== 'initial') {
      out.push({ idx: [i, i + 1, i + 2], token: { text: a.text + b.text + c.text, role: c.role, abjad: a.abjad && b.abjad && c.abjad } });
    }
  }
  return out;
}

export interface NameScore {
  score: number;
  tokens: MatchExplanation['tokens'];
  /** matched significant (non-particle) alignments */
  significant: number;
}

export type TokenComparer = (q: NameToken, c: NameToken) => TokenSimilarity;

export function scorePrepared(q: PreparedName, c: PreparedName, compare: TokenComparer = compareTokens): NameScore {
  const qt = q.tokens;
  const ct = c.tokens;
  if (!qt.length || !ct.length)
    return {
      score: 0,
      tokens: qt.map((t) => ({ query: t.text, matched: null, how: 'missing', score: 0, weight: tokenWeight(t) })),
      significant: 0,
    };
  const qu = units(qt);
  const cu = units(ct);
  const pairs: { q: Unit; c: Unit; sim: TokenSimilarity }[] = [];
  for (const a of qu) {
    for (const b of cu) {
      if (a.idx.length > 1 && b.idx.length > 1) continue;
      const sim = compare(a.token, b.token);
      if (sim.score < MIN_TOKEN_SCORE) continue;
      // a joined unit must match better than its parts would: only keep exact/equivalent/strong fuzzy joins
      if ((a.idx.length > 1 || b.idx.length > 1) && (sim.score < 0.85 || sim.how === 'initial')) continue;
      pairs.push({ q: a, c: b, sim });
    }
  }
  const weightOf = (u: Unit, tokens: NameToken[]) => u.idx.reduce((s, i) => s + tokenWeight(tokens[i]), 0);
  pairs.sort((x, y) => y.sim.score - x.sim.score || weightOf(y.q, qt) + weightOf(y.c, ct) - (weightOf(x.q, qt) + weightOf(x.c, ct)));

  const qUsed = new Array<TokenSimilarity | null>(qt.length).fill(null);
  const qMatch = new Array<string | null>(qt.length).fill(null);
  const cUsed = new Array<number>(ct.length).fill(0);
  let significant = 0;
  for (const p of pairs) {
    if (p.q.idx.some((i) => qUsed[i]) || p.c.idx.some((i) => cUsed[i] > 0)) continue;
    for (const i of p.q.idx) {
      qUsed[i] = p.sim;
      qMatch[i] = p.c.idx.map((j) => ct[j].text).join(' ');
    }
    for (const j of p.c.idx) cUsed[j] = p.sim.score;
    // initials and particles are weak evidence: they do not count as significant matches
    if (p.sim.how !== 'initial' && p.q.idx.some((i) => qt[i].role !== 'particle') && p.c.idx.some((j) => ct[j].role !== 'particle'))
      significant++;
  }

  let qW = 0;
  let qM = 0;
  const tokens: MatchExplanation['tokens'] = [];
  qt.forEach((t, i) => {
    const w = tokenWeight(t);
    qW += w;
    const s = qUsed[i];
    if (s) qM += w * s.score;
    tokens.push({ query: t.text, matched: qMatch[i], how: s ? s.how : 'missing', score: s ? round(s.score) : 0, weight: w });
  });
  let cW = 0;
  let cM = 0;
  ct.forEach((t, j) => {
    const w = tokenWeight(t);
    cW += w;
    cM += w * cUsed[j];
  });
  const covQ = qM / qW;
  const covC = cM / cW;
  let score = combine(covQ, covC, significant);
  const familyMissing = (tokens: NameToken[], used: (i: number) => boolean) =>
    tokens.some((t) => t.role === 'family') && !tokens.some((t, i) => t.role === 'family' && used(i));
  if (familyMissing(ct, (j) => cUsed[j] > 0) || familyMissing(qt, (i) => qUsed[i] !== null)) score *= FAMILY_MISSING_FACTOR;
  return { score: round(score), tokens, significant };
}

export function combine(covQ: number, covC: number, significant: number): number {
  const hi = Math.max(covQ, covC);
  const lo = Math.min(covQ, covC);
  const beta = significant >= 2 ? BETA_MULTI : BETA_SINGLE;
  return hi * (1 - beta * (1 - lo));
}

export function round(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

/** Compares two free-text names (the pairwise form of the matcher; used by tests and benchmarks). */
export function compareNames(a: string, b: string, opts: { entityType?: string } = {}): NameScore {
  const prep: PrepareOptions = { entityType: opts.entityType, commaMeansFamily: true };
  return scorePrepared(prepareName(a, prep), prepareName(b, prep));
}
