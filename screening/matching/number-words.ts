import anyAscii from 'any-ascii';
import * as de from 'n2words/de-DE';
import * as en from 'n2words/en-US';
import * as es from 'n2words/es-ES';
import * as fr from 'n2words/fr-FR';
import * as ha from 'n2words/ha-NG';
import * as it from 'n2words/it-IT';
import * as nl from 'n2words/nl-NL';
import * as pt from 'n2words/pt-PT';
import * as ru from 'n2words/ru-RU';
import * as sw from 'n2words/sw-KE';
import * as tr from 'n2words/tr-TR';
import * as uk from 'n2words/uk-UA';
import { plainTokens } from './text.js';

/**
 * Numbers written in words ("Forty-Four", "quarante-quatre", "sorok chetyre") read as their digits,
 * 0 to 999, in the languages of the lists and of the markets served: English, French, German,
 * Spanish, Portuguese, Italian, Dutch, Russian, Ukrainian (transliterated like names), Turkish,
 * Swahili and Hausa. The words come from the n2words package (cardinals and ordinals), so they are spelt as its
 * maintainers spell them; the table is built on first use.
 */

const LANGUAGES = [en, fr, de, es, pt, it, nl, ru, uk, tr, sw, ha];
export const MAX_NUMBER = 999;

interface NumberTable {
  /** token sequence joined by spaces → digits */
  phrases: Map<string, string>;
  /** every word that appears in some phrase */
  words: Set<string>;
  longest: number;
}

let table: NumberTable | null = null;

function numberTable(): NumberTable {
  if (table) return table;
  const t: NumberTable = { phrases: new Map(), words: new Set(), longest: 1 };
  for (const lang of LANGUAGES) {
    for (let n = 0; n <= MAX_NUMBER; n++) {
      // cardinals, and ordinals from 1 (Second Academy ~ 2nd Academy)
      for (const words of n > 0 ? [lang.toCardinal(n), lang.toOrdinal(n)] : [lang.toCardinal(n)]) {
        const tokens = plainTokens(anyAscii(words));
        const key = tokens.join(' ');
        if (!tokens.length || t.phrases.has(key)) continue;
        t.phrases.set(key, String(n));
        for (const w of tokens) t.words.add(w);
        t.longest = Math.max(t.longest, tokens.length);
      }
    }
  }
  table = t;
  return t;
}

export interface NumberRun {
  start: number;
  length: number;
  /** the number in digits */
  value: string;
}

/**
 * Runs of number words in a token list (longest first, left to right), each with its value: "brigade
 * forty four" → [{start: 1, length: 2, value: "44"}]. A run of one word counts only when the word
 * has 3 letters or more (Kim Jong "Un" is no French one).
 */
export function numberRuns(tokens: string[]): NumberRun[] {
  const t = numberTable();
  if (!tokens.some((w) => t.words.has(w))) return [];
  const out: NumberRun[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (!t.words.has(tokens[i])) continue;
    for (let n = Math.min(t.longest, tokens.length - i); n >= 1; n--) {
      if (n === 1 && tokens[i].length < 3) break;
      const value = t.phrases.get(tokens.slice(i, i + n).join(' '));
      if (value === undefined) continue;
      out.push({ start: i, length: n, value });
      i += n - 1;
      break;
    }
  }
  return out;
}
