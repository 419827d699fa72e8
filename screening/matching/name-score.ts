import { compareTokens, MIN_TOKEN_SCORE, type TokenSimilarity } from './similarity.js';
import { canonicalAbd, prepareName, type NameToken, type PreparedName, type PrepareOptions } from './normalize.js';
import { sameLegalForm } from './legal-forms.js';
import { numberRuns } from './number-words.js';
import { isQualifierWord } from './qualifier-words.js';
import { isKnownName } from './equivalents.js';
import type { MatchExplanation, MatchRule, MatchRuleFired } from '../types.js';

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

export const WEIGHTS = { family: 1.3, given: 1.0, initial: 0.5, particle: 0.15, kunya: 0.4, title: 0.3, patronymic: 0.5 } as const;
export const BETA_MULTI = 0.25;
export const BETA_SINGLE = 0.6;
/** A known family name ("FAMILY, Given") left unmatched multiplies the score by this. */
export const FAMILY_MISSING_FACTOR = 0.9;

/** East Slavic and Turkic patronymics (Nikolayevich, Mykolaiovych, Leonidovna, Aliyevich, Mammad oglu): often left out. */
const PATRONYMIC = /^[a-z]{3,}(ovich|evich|ovych|evych|ovna|evna|ivna|ichna|ovic|evic)$/;

export function tokenWeight(t: NameToken): number {
  if (t.role === 'particle') return t.text === 'abu' || t.text === 'abou' || t.text === 'umm' ? WEIGHTS.kunya : WEIGHTS.particle;
  if (t.role === 'given' && PATRONYMIC.test(t.text)) return WEIGHTS.patronymic;
  return WEIGHTS[t.role];
}

export interface Unit {
  idx: number[];
  token: NameToken;
  /** a unit made by a rule: number words read as digits */
  rule?: MatchRule;
}

/** Spellings of two adjacent Korean syllables written as one Latin word (Jong-un / Jongun). */
function joinSpellings(a: NameToken, b: NameToken): string[] | undefined {
  if (!a.spellings || !b.spellings) return undefined;
  const out: string[] = [];
  for (const x of a.spellings) for (const y of b.spellings) if (out.length < 64) out.push(x + y);
  return out;
}

/** Adjacent tokens joined (two syllables of one script-written CJK name stay two: they are compared one by one). */
export function joinTokens(a: NameToken, b: NameToken): NameToken {
  const token: NameToken = {
    text: canonicalAbd(a.text + b.text),
    role: b.role === 'family' ? 'family' : a.role,
    abjad: a.abjad && b.abjad,
  };
  const spellings = joinSpellings(a, b);
  if (spellings) token.spellings = spellings;
  if (a.cjk && b.cjk) {
    token.cjk = a.cjk;
    token.written = `${a.written ?? ''}${b.written ?? ''}`;
  }
  return token;
}

/** Number words read as digits ("forty four" → 44): units covering the words, matched against digits. */
export function numberUnits(tokens: NameToken[]): Unit[] {
  const cached = NUMBER_UNITS.get(tokens);
  if (cached) return cached;
  const units: Unit[] = numberRuns(tokens.map((t) => t.text)).map((r) => ({
    idx: Array.from({ length: r.length }, (_, k) => r.start + k),
    token: { text: r.value, role: 'given', abjad: false },
    rule: 'numberWords',
  }));
  NUMBER_UNITS.set(tokens, units);
  return units;
}
/** Per token list (list names are prepared once and compared often). */
const NUMBER_UNITS = new WeakMap<NameToken[], Unit[]>();

/** An elided article written apart ("D IVOIRE", "L OREAL"): one letter read as an initial, then a word starting with a vowel. */
const elision = (a: NameToken, b: NameToken) =>
  a.role === 'initial' && a.text.length === 1 && b.role !== 'initial' && /^[aeiouy]/.test(b.text);

/** Single tokens, two adjacent tokens joined, and particle runs joined to the next token ("van der merwe"). */
export function units(tokens: NameToken[]): Unit[] {
  const out: Unit[] = tokens.map((token, i) => ({ idx: [i], token }));
  for (let i = 0; i + 1 < tokens.length; i++) {
    const a = tokens[i];
    const b = tokens[i + 1];
    if (elision(a, b)) out.push({ idx: [i, i + 1], token: { ...joinTokens(a, b), role: b.role } });
    if (a.role === 'initial' || b.role === 'initial') continue;
    out.push({ idx: [i, i + 1], token: joinTokens(a, b) });
    const c = tokens[i + 2];
    if (c && a.role === 'particle' && b.role === 'particle' && c.role !== 'initial') {
      out.push({ idx: [i, i + 1, i + 2], token: { text: a.text + b.text + c.text, role: c.role, abjad: a.abjad && b.abjad && c.abjad } });
    }
  }
  return [...out, ...numberUnits(tokens)];
}

export interface NameScore {
  score: number;
  tokens: MatchExplanation['tokens'];
  /** matched significant (non-particle) alignments */
  significant: number;
  /** the named rules that fired (normalisations of either name, token rules, score factors) */
  rules: MatchRuleFired[];
}

/** Factors of the rules that lower a score (screening/README.md, "Rules"). */
export const RULE_FACTORS = {
  /** both names carry legal forms and no form is the same (AG / GmbH): lowered, never decisive alone */
  legalFormDiffers: 0.93,
  /** an entity name adds a country or branch word (Banco Santander / Banco Santander Mexico) */
  entityQualifier: 0.9,
  /** a number of one name is not in the other (Snow Storm 1 / Snow Storm 2; Nord Stream / Nord Stream 2 for entities) */
  numberDiffers: 0.8,
  /** Chinese/Japanese/Korean names in their script with a syllable on one side only */
  syllableDiffers: 0.85,
  /** given names in another order with no family name to say which is which (Friedrich Hans / Hans Friedrich) */
  orderSwap: 0.95,
  /** an Arabic name in its script with one more given name first, the rest aligned: the next generation */
  nasab: 0.85,
} as const;

/** Similarity of a word spelt by the initials of several words of the other name (PLA ~ People's Liberation Army). */
export const ACRONYM_SCORE = 0.92;

/**
 * Runs of tokens whose initials spell `acronym` (particles may be skipped or spelt): [start, end)
 * pairs, at least two words of which two significant.
 */
function acronymRuns(acronym: string, tokens: NameToken[]): number[][] {
  const out: number[][] = [];
  for (let start = 0; start < tokens.length; start++) {
    for (const skipParticles of [true, false]) {
      let p = 0;
      let k = start;
      while (k < tokens.length && p < acronym.length) {
        const t = tokens[k];
        if (t.text[0] === acronym[p] && !(skipParticles && t.role === 'particle')) {
          p++;
          k++;
        } else if (t.role === 'particle' && k > start) k++;
        else break;
      }
      const run = Array.from({ length: k - start }, (_, i) => start + i);
      if (p === acronym.length && run.filter((i) => tokens[i].role !== 'particle').length >= 2) {
        out.push(run);
        break;
      }
    }
  }
  return out;
}

/**
 * The words initials are read from: an entity's words before its legal forms were set aside (each
 * with the token it became, -1 for a form), else its tokens.
 */
export function acronymWords(p: PreparedName): { words: NameToken[]; token: number[] } {
  if (!p.words) return { words: p.tokens, token: p.tokens.map((_, i) => i) };
  return {
    words: p.words.map((w) => (w.token >= 0 ? p.tokens[w.token] : { text: w.text, role: 'given', abjad: false })),
    token: p.words.map((w) => w.token),
  };
}

/**
 * Whether initials may be read from a name: an entity's, or a name of unknown type with no known
 * person's name in it (Seydou Khadija Traoré is no "SKT").
 */
export function spellsAcronyms(p: PreparedName): boolean {
  return p.kind === 'entity' || (p.kind === 'unknown' && !p.tokens.some((t) => isKnownName(t.text)));
}

/** Acronym pairs in both directions: a 3–8 letter word of one name against runs of words of the other. */
function acronymPairs(q: PreparedName, c: PreparedName): { q: Unit; c: Unit; sim: TokenSimilarity }[] {
  const out: { q: Unit; c: Unit; sim: TokenSimilarity }[] = [];
  const sim: TokenSimilarity = { score: ACRONYM_SCORE, how: 'equivalent', rule: 'acronym' };
  const candidates = (tokens: NameToken[]) =>
    tokens.flatMap((t, i) => (/^[a-z]{3,8}$/.test(t.text) && (t.role === 'given' || t.role === 'family') && !t.cjk ? [i] : []));
  const runs = (acronym: string, p: PreparedName) => {
    const { words, token } = acronymWords(p);
    return acronymRuns(acronym, words)
      .map((run) => run.map((k) => token[k]).filter((i) => i >= 0))
      .filter((idx) => idx.length > 0);
  };
  if (spellsAcronyms(c))
    for (const i of candidates(q.tokens))
      for (const idx of runs(q.tokens[i].text, c))
        out.push({ q: { idx: [i], token: q.tokens[i] }, c: { idx, token: c.tokens[idx[0]] }, sim });
  if (spellsAcronyms(q))
    for (const j of candidates(c.tokens))
      for (const idx of runs(c.tokens[j].text, q))
        out.push({ q: { idx, token: q.tokens[idx[0]] }, c: { idx: [j], token: c.tokens[j] }, sim });
  return out;
}

export type TokenComparer = (q: NameToken, c: NameToken) => TokenSimilarity;

/**
 * The name score of two prepared names. `floor`: a score already below it before the rules is
 * answered as it is, without them (the rules only lower a score; the index discards such names).
 */
export function scorePrepared(q: PreparedName, c: PreparedName, compare: TokenComparer = compareTokens, floor = 0): NameScore {
  const qt = q.tokens;
  const ct = c.tokens;
  if (!qt.length || !ct.length)
    return {
      score: 0,
      tokens: qt.map((t) => ({ query: t.text, matched: null, how: 'missing', score: 0, weight: tokenWeight(t) })),
      significant: 0,
      rules: [],
    };
  const qu = units(qt);
  const cu = units(ct);
  const pairs: { q: Unit; c: Unit; sim: TokenSimilarity }[] = [];
  for (const a of qu) {
    for (const b of cu) {
      // two multi-token units meet only as numbers ("forty four" / "quarante quatre")
      if (a.idx.length > 1 && b.idx.length > 1 && !(a.rule && b.rule)) continue;
      // a number read from words matches digits exactly, nothing else
      if ((a.rule || b.rule) && (a.token.text !== b.token.text || !/^\d+$/.test(b.token.text))) continue;
      const sim = compare(a.token, b.token);
      if (sim.score < MIN_TOKEN_SCORE) continue;
      // a joined unit must match better than its parts would: only keep exact/equivalent/strong fuzzy joins
      if ((a.idx.length > 1 || b.idx.length > 1) && (sim.score < 0.85 || sim.how === 'initial')) continue;
      pairs.push({ q: a, c: b, sim: a.rule || b.rule ? { ...sim, rule: 'numberWords' } : sim });
    }
  }
  // acronyms only between names that are not both people's
  if (q.kind !== 'individual' && c.kind !== 'individual') pairs.push(...acronymPairs(q, c));
  const weightOf = (u: Unit, tokens: NameToken[]) => u.idx.reduce((s, i) => s + tokenWeight(tokens[i]), 0);
  pairs.sort((x, y) => y.sim.score - x.sim.score || weightOf(y.q, qt) + weightOf(y.c, ct) - (weightOf(x.q, qt) + weightOf(x.c, ct)));

  const qUsed = new Array<TokenSimilarity | null>(qt.length).fill(null);
  const qMatch = new Array<string | null>(qt.length).fill(null);
  const cUsed = new Array<number>(ct.length).fill(0);
  const accepted: typeof pairs = [];
  let significant = 0;
  for (const p of pairs) {
    if (p.q.idx.some((i) => qUsed[i]) || p.c.idx.some((i) => cUsed[i] > 0)) continue;
    accepted.push(p);
    for (const i of p.q.idx) {
      qUsed[i] = p.sim;
      qMatch[i] = p.c.idx.map((j) => ct[j].text).join(' ');
    }
    for (const j of p.c.idx) cUsed[j] = p.sim.score;
    // initials and particles are weak evidence: they do not count as significant matches
    if (p.sim.how !== 'initial' && p.q.idx.some((i) => qt[i].role !== 'particle') && p.c.idx.some((j) => ct[j].role !== 'particle'))
      // a word spelt by several (acronym, number words) is as much evidence as the words it spells
      significant += p.sim.rule === 'acronym' || p.sim.rule === 'numberWords' ? Math.max(p.q.idx.length, p.c.idx.length) : 1;
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
  if (score < floor) return { score: round(score), tokens, significant, rules: [] };
  const rules = firedRules(
    q,
    c,
    accepted,
    (i) => qUsed[i] !== null,
    (j) => cUsed[j] > 0,
  );
  for (const r of rules) score *= r.factor;
  return { score: round(score), tokens, significant, rules };
}

type Pair = { q: Unit; c: Unit; sim: TokenSimilarity };
const text = (u: Unit, tokens: NameToken[]) => u.idx.map((i) => tokens[i].text).join(' ');

/** The rules that fired for an alignment: normalisation notes, token rules, and the factors of RULE_FACTORS. */
function firedRules(
  q: PreparedName,
  c: PreparedName,
  accepted: Pair[],
  qMatched: (i: number) => boolean,
  cMatched: (j: number) => boolean,
): MatchRuleFired[] {
  const qt = q.tokens;
  const ct = c.tokens;
  const out: MatchRuleFired[] = [];
  const seen = new Set<string>();
  const add = (rule: MatchRule, factor: number, detail: string) => {
    if (seen.has(rule + detail)) return;
    seen.add(rule + detail);
    out.push({ rule, factor, detail });
  };
  for (const n of [...(q.notes ?? []), ...(c.notes ?? [])]) add(n.rule, 1, n.detail);
  for (const p of accepted) if (p.sim.rule) add(p.sim.rule, 1, `${text(p.q, qt)} ~ ${text(p.c, ct)}`);

  const qForms = q.forms ?? [];
  const cForms = c.forms ?? [];
  if (qForms.length && cForms.length && !qForms.some((a) => cForms.some((b) => sameLegalForm(a, b))))
    add('legalFormDiffers', RULE_FACTORS.legalFormDiffers, `${qForms.join(' ')} ≠ ${cForms.join(' ')}`);

  const unmatched = [...qt.filter((_, i) => !qMatched(i)), ...ct.filter((_, j) => !cMatched(j))];
  if ((q.kind === 'entity' || c.kind === 'entity') && q.kind !== 'individual' && c.kind !== 'individual') {
    const words = unmatched.filter((t) => isQualifierWord(t.text)).map((t) => t.text);
    if (words.length) add('entityQualifier', RULE_FACTORS.entityQualifier, `on one side only: ${words.join(', ')}`);
  }

  // numbers: when both names have some, or one is an entity's (Nord Stream AG / Nord Stream 2 AG)
  const hasNumber = (tokens: NameToken[]) => tokens.some((t) => /\d/.test(t.text)) || numberUnits(tokens).length > 0;
  if ((hasNumber(qt) && hasNumber(ct)) || q.kind === 'entity' || c.kind === 'entity') {
    const missing = unmatched.filter((t) => /\d/.test(t.text)).map((t) => t.text);
    if (missing.length) add('numberDiffers', RULE_FACTORS.numberDiffers, `on one side only: ${missing.join(', ')}`);
  }

  if (qt.length && ct.length && qt.every((t) => t.cjk) && ct.every((t) => t.cjk)) {
    const missing = unmatched.map((t) => t.text);
    if (missing.length) add('syllableDiffers', RULE_FACTORS.syllableDiffers, `syllables on one side only: ${missing.join(', ')}`);
  }

  // Arabic names in their script: "Ali Barzan Ibrahim" is Barzan Ibrahim's son, not Barzan (nasab)
  const significantIdx = (tokens: NameToken[]) => tokens.flatMap((t, i) => (t.role === 'particle' || t.role === 'title' ? [] : [i]));
  const arabic = (tokens: NameToken[]) => tokens.length > 0 && tokens.every((t) => t.abjad);
  if (arabic(qt) && arabic(ct)) {
    const pairOf = (side: 'q' | 'c', i: number) => accepted.find((p) => p[side].idx.includes(i));
    for (const [a, b, aSide, bSide] of [
      [qt, ct, 'q', 'c'],
      [ct, qt, 'c', 'q'],
    ] as const) {
      const [a0, a1] = significantIdx(a);
      const [b0] = significantIdx(b);
      if (a1 === undefined || b0 === undefined || pairOf(aSide, a0)) continue;
      const p = pairOf(bSide, b0);
      if (p && p[aSide].idx.includes(a1)) {
        add('nasab', RULE_FACTORS.nasab, `${a[a0].text} is one more given name before ${a[a1].text}: a son or daughter`);
        break;
      }
    }
  }

  // given names in another order: single given-name tokens matched to given-name tokens
  const given = accepted
    .filter((p) => p.q.idx.length === 1 && p.c.idx.length === 1 && qt[p.q.idx[0]].role === 'given' && ct[p.c.idx[0]].role === 'given')
    .sort((x, y) => x.q.idx[0] - y.q.idx[0]);
  for (let i = 1; i < given.length; i++) {
    if (given[i].c.idx[0] < given[i - 1].c.idx[0]) {
      const inOrder = (side: 'q' | 'c', tokens: NameToken[]) =>
        [...given]
          .sort((x, y) => x[side].idx[0] - y[side].idx[0])
          .map((p) => text(p[side], tokens))
          .join(' ');
      add('orderSwap', RULE_FACTORS.orderSwap, `${inOrder('q', qt)} / ${inOrder('c', ct)}`);
      break;
    }
  }
  return out;
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
