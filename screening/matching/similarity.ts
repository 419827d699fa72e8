import { doubleMetaphone } from 'double-metaphone';
import { areNicknames, equivalenceScore, knownDistinct, NICKNAME_SCORE } from './equivalents.js';
import type { NameToken } from './normalize.js';
import { fold, MEMO_LIMIT } from './text.js';
import type { MatchRule, TokenMatchHow } from '../types.js';

export { fold };

/** Token-level similarity: exact, equivalent, initial, phonetic, fuzzy. */

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u', 'y']);
/** Consonant pairs that transliterations confuse (cost 0.5 instead of 1). */
const CLOSE = new Set(['ck', 'kq', 'cq', 'gq', 'jy', 'sz', 'cs', 'dt', 'vw', 'uw', 'iy', 'ey', 'dz', 'sx']);
/** Neighbouring keys on a QWERTY/AZERTY keyboard: typing slips cost 0.75. */
const KEYBOARD = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
const ADJACENT = new Set<string>();
KEYBOARD.forEach((row, r) => {
  for (let i = 0; i < row.length; i++) {
    const pairs = [row[i + 1], KEYBOARD[r + 1]?.[i], KEYBOARD[r + 1]?.[i - 1]].filter(Boolean) as string[];
    for (const p of pairs) ADJACENT.add(row[i] < p ? row[i] + p : p + row[i]);
  }
});
ADJACENT.add('aq').add('wz').add('mq'); // AZERTY swaps

function subCost(a: string, b: string): number {
  if (a === b) return 0;
  if (VOWELS.has(a) && VOWELS.has(b)) return 0.5;
  const k = a < b ? a + b : b + a;
  return CLOSE.has(k) ? 0.6 : ADJACENT.has(k) ? 0.75 : 1;
}

/** Cost tables by character code (ASCII; other characters are compared for equality only). */
const ASCII = 128;
const SOFT = new Uint8Array(ASCII);
for (const ch of 'aeiouyh') SOFT[ch.charCodeAt(0)] = 1;
const SUB = new Float64Array(ASCII * ASCII);
for (let x = 0; x < ASCII; x++)
  for (let y = 0; y < ASCII; y++) SUB[x * ASCII + y] = subCost(String.fromCharCode(x), String.fromCharCode(y));
SUB[ASCII * ASCII - 1] = 1; // two different characters beyond ASCII
const asciiOf = (code: number) => (code < ASCII ? code : ASCII - 1);

/** Rows and per-letter costs of the distance, reused from call to call (no allocation per pair). */
let rows = [new Float64Array(32), new Float64Array(32), new Float64Array(32)];
let indelA = new Float64Array(32);
let indelB = new Float64Array(32);

function indelCosts(s: string, into: Float64Array): void {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    into[i] = (c < ASCII && SOFT[c] === 1) || (i > 0 && c === s.charCodeAt(i - 1)) ? 0.6 : 1;
  }
}

/**
 * Damerau-Levenshtein (optimal string alignment) with transliteration-aware costs: vowel ↔ vowel
 * and close consonants (c/k/q, s/z, d/t…) cost less than other substitutions; adjacent
 * transpositions cost 0.8; deleting or inserting a vowel, an h or a doubled letter costs 0.6
 * (Mohamed/Mohammed, Abdelkader/Abdelkadir). `limit`: a distance above it is answered as Infinity
 * as soon as it is certain (two rows of the table above it), which is all the fuzzy score needs.
 */
export function weightedDamerau(a: string, b: string, limit = Infinity): number {
  const n = a.length;
  const m = b.length;
  if (!n) return m;
  if (!m) return n;
  if (m + 1 > rows[0].length || Math.max(n, m) > indelA.length) {
    const size = 2 * Math.max(n, m) + 1;
    rows = [new Float64Array(size), new Float64Array(size), new Float64Array(size)];
    indelA = new Float64Array(size);
    indelB = new Float64Array(size);
  }
  const ia = indelA;
  const ib = indelB;
  indelCosts(a, ia);
  indelCosts(b, ib);
  let [prev2, prev, cur] = rows;
  prev[0] = 0;
  for (let j = 1; j <= m; j++) prev[j] = prev[j - 1] + ib[j - 1];
  let prevMin = 0;
  for (let i = 1; i <= n; i++) {
    const ca = a.charCodeAt(i - 1);
    const subRow = asciiOf(ca) * ASCII;
    const del = ia[i - 1];
    cur[0] = prev[0] + del;
    let rowMin = cur[0];
    for (let j = 1; j <= m; j++) {
      const cb = b.charCodeAt(j - 1);
      let v = prev[j] + del;
      const ins = cur[j - 1] + ib[j - 1];
      if (ins < v) v = ins;
      const sub = prev[j - 1] + (ca === cb ? 0 : SUB[subRow + asciiOf(cb)]);
      if (sub < v) v = sub;
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb && ca !== cb) {
        const swap = prev2[j - 2] + 0.8;
        if (swap < v) v = swap;
      }
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    // every later cell adds to a cell of the last two rows
    if (rowMin > limit && prevMin > limit) return Infinity;
    prevMin = rowMin;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[m];
}

/** Plain Damerau-Levenshtein (OSA) distance, unit costs. */
export function damerauLevenshtein(a: string, b: string): number {
  const n = a.length;
  const m = b.length;
  if (!n) return m;
  if (!m) return n;
  let prev2 = new Array<number>(m + 1).fill(0);
  let prev = Array.from({ length: m + 1 }, (_, j) => j);
  let cur = new Array<number>(m + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    for (let j = 1; j <= m; j++) {
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur[j] = v;
    }
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[m];
}

/** Double Metaphone codes (primary, secondary) of a token. */
export function phoneticCodes(token: string): string[] {
  if (token.length < 2 || /\d/.test(token)) return [];
  const cached = CODES.get(token);
  if (cached) return cached;
  const [p, s] = doubleMetaphone(token);
  const out = p === s ? (p ? [p] : []) : [p, s].filter(Boolean);
  if (CODES.size > MEMO_LIMIT) CODES.clear();
  CODES.set(token, out);
  return out;
}

/** Per-process memo of phonetic codes (names repeat a lot). */
const CODES = new Map<string, string[]>();

/** Consonant skeleton of the folded token (vowels after the first letter dropped). */
export function skeleton(token: string, dropFirstVowel = false): string {
  const t = fold(token).replace(/c/g, 's').replace(/z/g, 's');
  const first = t[0] ?? '';
  let out = dropFirstVowel && /[aeiou]/.test(first) ? '' : first;
  for (const ch of t.slice(1).replace(/[aeiou]/g, '')) if (out[out.length - 1] !== ch) out += ch;
  return out;
}

/**
 * Key for comparing an abjad (vowel-less) token with a Latin one: doubled letters collapsed, then
 * vowels and w/y (long vowels in Arabic script) dropped; z/dh (ظ ذ, which Latin spellings also write
 * th) share a class, q → k, dj → j, French ch → sh; a final h (ة) dropped. السيسي "sysy" and "Sisi"
 * both give "ss". `th` is read both ways by abjadKeys: ث or Latin ظ (Kathim ~ كاظم "kdhm"), or ت
 * then ح (الفتاح "fth" ~ Fattah).
 */
export function abjadKey(token: string, thIsOneLetter = false): string {
  return (thIsOneLetter ? token.replace(/th/g, 'Z') : token)
    .replace(/(dh|z)/g, 'Z')
    .replace(/q/g, 'k')
    .replace(/dj/g, 'j')
    .replace(/ch/g, 'sh')
    .replace(/(.)\1+/g, '$1')
    .replace(/[aeiouyw]/g, '')
    .replace(/h$/, '');
}

/**
 * The abjad keys of a token: with "th" read both ways, and each also with the letters that vowels
 * kept apart collapsed (المنان "mnn", whose alif any-ascii drops, ~ Manan "mnn" → "mn").
 */
export function abjadKeys(token: string): string[] {
  const keys = token.includes('th') ? [abjadKey(token), abjadKey(token, true)] : [abjadKey(token)];
  for (const k of [...keys]) {
    const collapsed = k.replace(/(.)\1+/g, '$1');
    if (collapsed !== k && collapsed.length >= 2) keys.push(collapsed);
  }
  return keys;
}

export interface TokenSimilarity {
  score: number;
  how: TokenMatchHow;
  /** the named rule that made the tokens match, when one did (nickname, transliteration) */
  rule?: MatchRule;
}

const NONE: TokenSimilarity = { score: 0, how: 'missing' };
/** Below this a token pair is not a match at all. */
export const MIN_TOKEN_SCORE = 0.7;

const ARTICLE_PREFIX = /^(al|el|ul)(?=[a-z]{3,})/;

/**
 * Fuzzy score from the relative weighted edit distance r = distance / longer length:
 * 1 − r − 0.6 × max(0, r − 0.15). One vowel change in 6 letters ≈ 0.92, one consonant typo in 8
 * ≈ 0.88, one in 5 ≈ 0.77, two different letters in 6 ≈ 0.69 (no match).
 */
export function fuzzyScore(r: number): number {
  return Math.max(0, 1 - r - 0.6 * Math.max(0, r - 0.15));
}

/** Largest relative distance that can still reach MIN_TOKEN_SCORE (fuzzyScore(0.25) ≈ 0.69). */
const MAX_R = 0.25;

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * Similarity of two normalised tokens. Fuzzy scores fall with the weighted edit distance relative
 * to the length: one typo in a 6-letter token ≈ 0.9, two different consonants ≈ 0.7 (no match).
 */
export function compareTokens(a: NameToken, b: NameToken): TokenSimilarity {
  const x = a.text;
  const y = b.text;
  // syllables of Chinese, Japanese or Korean names written in their script: the same or different
  // (김정은 and 김종은 are two people, not a typo; 伟 and 为 are both "wei")
  if (a.cjk && b.cjk) return a.written === b.written ? { score: 1, how: 'exact' } : NONE;
  if (a.spellings || b.spellings) return compareKorean(a, b);
  if (x === y) return { score: 1, how: 'exact' };
  if (x.length === 1 || y.length === 1) {
    if (x.length === 1 && y.length === 1) return NONE;
    const [i, w] = x.length === 1 ? [x, y] : [y, x];
    return w[0] === i ? { score: 0.9, how: 'initial' } : NONE;
  }
  const eq = equivalenceScore(x, y);
  if (eq > 0) return { score: eq, how: 'equivalent' };
  if (areNicknames(x, y)) return { score: NICKNAME_SCORE, how: 'equivalent', rule: 'nickname' };
  // "alzawahiri" ~ "zawahiri"
  const xs = x.replace(ARTICLE_PREFIX, '');
  const ys = y.replace(ARTICLE_PREFIX, '');
  if ((xs !== x || ys !== y) && (xs === ys || equivalenceScore(xs, ys) > 0)) return { score: 0.95, how: 'equivalent' };
  // two known names of different groups (Hassan / Hussein) are different names, however close
  if (knownDistinct(x, y)) return NONE;
  if (/\d/.test(x) || /\d/.test(y)) return NONE;

  if (a.abjad !== b.abjad) {
    // Arabic script transliterated (no short vowels) vs a Latin spelling: compare consonant keys
    const kas = abjadKeys(x);
    const kbs = abjadKeys(y);
    if (kas.some((k) => k.length >= 2 && kbs.includes(k))) return { score: 0.93, how: 'phonetic' };
    const [ka, kb] = [kas[0], kbs[0]];
    // a short name of one consonant and long vowels: إياد "yd" ~ Iyad
    const [ar, la] = a.abjad ? [x, y] : [y, x];
    if (ka.length === 1 && ka === kb && ar.length >= 2 && la.length <= 5) return { score: 0.8, how: 'phonetic' };
    if (ka.length >= 4 && kb.length >= 4 && damerauLevenshtein(ka, kb) === 1) return { score: 0.8, how: 'fuzzy' };
    return NONE;
  }

  const maxLen = Math.max(x.length, y.length);
  const minLen = Math.min(x.length, y.length);
  if (minLen < 3) return NONE;
  const fx = fold(x);
  const fy = fold(y);
  if (fx === fy) return { score: 0.93, how: 'phonetic' };
  // lengths too far apart for any match (each missing letter costs at least 0.6)
  if (Math.min(Math.abs(x.length - y.length) / maxLen, Math.abs(fx.length - fy.length) / Math.max(fx.length, fy.length)) * 0.6 > MAX_R)
    return NONE;
  // distances beyond MAX_R cannot make a match: the distance stops there
  const dRaw = weightedDamerau(x, y, MAX_R * maxLen + 1e-9);
  // three-letter tokens tolerate only an added vowel, h or doubled letter (Isa/Issa), not a change (Ali/Alo)
  if (minLen === 3 && (x.length === y.length || dRaw > 0.6)) return NONE;
  const maxFold = Math.max(fx.length, fy.length);
  const rRaw = dRaw / maxLen;
  const rFold = weightedDamerau(fx, fy, (MAX_R - 0.02) * maxFold + 1e-9) / maxFold + 0.02;
  let score = fuzzyScore(Math.min(rRaw, rFold));
  let how: TokenMatchHow = rFold < rRaw ? 'phonetic' : 'fuzzy';
  if (score >= 0.75 && score < 0.9) {
    // same Double Metaphone code: a little more confidence
    const pa = phoneticCodes(x);
    const pb = phoneticCodes(y);
    if (pa.some((c) => c.length >= 2 && pb.includes(c))) {
      score = Math.min(0.9, score + 0.04);
      how = 'phonetic';
    }
  }
  if (score >= MIN_TOKEN_SCORE) return { score: round3(score), how };
  return NONE;
}

/** Korean syllables in Hangul against a Latin spelling: one of the romanisations of hangul.ts. */
function compareKorean(a: NameToken, b: NameToken): TokenSimilarity {
  const [korean, latin] = a.spellings ? [a, b] : [b, a];
  if (latin.spellings || latin.cjk) return NONE;
  if (korean.text === latin.text) return { score: 1, how: 'exact', rule: 'transliteration' };
  if (korean.spellings!.includes(latin.text)) return { score: 0.95, how: 'phonetic', rule: 'transliteration' };
  const f = fold(latin.text);
  if (korean.spellings!.some((s) => fold(s) === f)) return { score: 0.93, how: 'phonetic', rule: 'transliteration' };
  return NONE;
}
