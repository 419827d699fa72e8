import anyAscii from 'any-ascii';
import curated from './data/legal-forms.json' with { type: 'json' };
import elf from './data/legal-forms-elf.json' with { type: 'json' };
import translations from './data/legal-form-translations.json' with { type: 'json' };
import { fold, plainTokens } from './text.js';

/**
 * Company legal forms: the ISO 20275 Entity Legal Forms list (GLEIF; local and transliterated names
 * and abbreviations, data/legal-forms-elf.json), the English names the sanctions lists use for
 * Russian, Ukrainian, Chinese… forms (data/legal-form-translations.json) and the short forms of
 * data/legal-forms.json. Each table row is one legal form; a written form may belong to several
 * rows (SA is the abbreviation of many). Forms are compared by their transliteration fold, so
 * "Aktiengeselschaft" and "ogranichennoi" find "Aktiengesellschaft" and "ogranichennoy".
 */

/**
 * Generic descriptors of data/legal-forms.json: dropped from entity names like legal forms ("X
 * Trading LLC" and "X Group" are the same subject far more often than not) but not legal forms, so
 * never compared.
 */
export const DESCRIPTORS = new Set(['holding', 'holdings', 'group', 'trading', 'est', 'establishment', 'ets', 'etablissements']);

/** Short forms dropped anywhere in an entity name (and in names of unknown type, see normalize.ts). */
export const SHORT_FORMS = new Set(curated);

interface FormTable {
  /** form key ("aktiengesellsaft", "sderldecv") → row ids */
  rows: Map<string, number[]>;
  /** one-word forms of 9+ letters by their single-deletion variants (one typo) → form key */
  typos: Map<string, string>;
  /** the longest form in tokens */
  longest: number;
  /** the starts and ends of the keys (up to EDGE letters): most names start (or end) with none of them */
  starts: Set<string>;
  ends: Set<string>;
}

let table: FormTable | null = null;
const ROMAN_NUMERAL = /^(i{1,3}|iv|vi{0,3}|ix|xi{0,3})$/;
const EDGE = 12;

/** Words of five letters or more are compared by their fold (misspellings, transliterations); shorter ones as written (APH is no AF). */
const wordKey = (token: string) => (token.length >= 5 ? fold(token) : token);

/**
 * The key of a form written as tokens: its words' keys run together, so that however its dots and
 * spaces split it, a form has one key (S. de R.L. de C.V., S. de R. L. de C. V. → "sderldecv"; Sp. z o.o.
 * → "spzoo").
 */
export function formKey(tokens: string[]): string {
  return tokens.map(wordKey).join('');
}

function deletions(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i++) out.push(text.slice(0, i) + text.slice(i + 1));
  return out;
}

/** Built on first use (a few thousand rows). */
function formTable(): FormTable {
  if (table) return table;
  const t: FormTable = { rows: new Map(), typos: new Map(), longest: 1, starts: new Set(), ends: new Set() };
  const rows: string[][] = [...elf.forms, ...translations.groups, ...curated.filter((f) => !DESCRIPTORS.has(f)).map((f) => [f])];
  const oneWord = new Set<string>();
  rows.forEach((variants, id) => {
    for (const v of variants) {
      const tokens = plainTokens(anyAscii(v));
      // one letter is no form; Roman numerals are numbers in names (Lithuanian "II" is also a form)
      if (!tokens.length || tokens.length > 8 || (tokens.length === 1 && (tokens[0].length < 2 || ROMAN_NUMERAL.test(tokens[0])))) continue;
      const key = formKey(tokens);
      const ids = t.rows.get(key) ?? [];
      if (!ids.includes(id)) ids.push(id);
      t.rows.set(key, ids);
      t.longest = Math.max(t.longest, tokens.length);
      for (let n = 1; n <= Math.min(EDGE, key.length); n++) {
        t.starts.add(key.slice(0, n));
        t.ends.add(key.slice(key.length - n));
      }
      if (tokens.length === 1 && key.length >= 9) oneWord.add(key);
    }
  });
  for (const key of oneWord) {
    for (const d of deletions(key)) if (!t.typos.has(d)) t.typos.set(d, key);
    if (!t.typos.has(key)) t.typos.set(key, key);
  }
  table = t;
  return t;
}

/** A long one-word form within one typo of a word's key (Aktiengeselschaft), or null. */
function typoOf(key: string): string | null {
  const t = formTable();
  for (const d of [key, ...deletions(key)]) {
    const hit = t.typos.get(d);
    if (hit && Math.abs(hit.length - key.length) <= 1) return hit;
  }
  return null;
}

/** The form a token sequence spells (its table key), allowing one typo in a long one-word form. */
function formOf(tokens: string[]): string | null {
  if (tokens.length === 1 && ROMAN_NUMERAL.test(tokens[0])) return null;
  const key = formKey(tokens);
  if (formTable().rows.has(key)) return key;
  return tokens.length === 1 && key.length >= 9 ? typoOf(key) : null;
}

export interface FoundForm {
  /** where the form's tokens start and how many there are */
  start: number;
  length: number;
}

/**
 * The longest legal form at the end (or, `atStart`, the start) of a token list, or null. At the start
 * only forms of three letters or more, or of several words (AO and PT excepted), count: two-letter
 * words that lead a name are often Arabic articles (As-Sahab, Ad-Dawa).
 */
export function legalFormAt(tokens: string[], atStart: boolean): FoundForm | null {
  const t = formTable();
  if (!tokens.length) return null;
  const edge = wordKey(atStart ? tokens[0] : tokens[tokens.length - 1]);
  const known = atStart ? t.starts.has(edge.slice(0, EDGE)) : t.ends.has(edge.slice(-EDGE));
  if (!known && !(edge.length >= 9 && typoOf(edge))) return null;
  for (let n = Math.min(t.longest, tokens.length); n >= 1; n--) {
    const part = atStart ? tokens.slice(0, n) : tokens.slice(tokens.length - n);
    if (atStart && n === 1 && part[0].length < 3 && part[0] !== 'ao' && part[0] !== 'pt') continue;
    if (formOf(part)) return { start: atStart ? 0 : tokens.length - n, length: n };
  }
  return null;
}

/**
 * Two forms, as written (tokens joined by spaces), are the same when one row of the tables holds
 * both.
 */
export function sameLegalForm(a: string, b: string): boolean {
  if (a === b) return true;
  const t = formTable();
  const [ka, kb] = [formOf(a.split(' ')), formOf(b.split(' '))];
  if (!ka || !kb) return false;
  const rb = t.rows.get(kb)!;
  return t.rows.get(ka)!.some((id) => rb.includes(id));
}

/** Whether a lower-case word is a known one-word legal form (for glued forms: SiemensAG). */
export function isLegalFormWord(word: string): boolean {
  return formTable().rows.has(wordKey(word));
}
