import confusables from 'unhomoglyph/data.json' with { type: 'json' };

/**
 * Character-level helpers shared by the normaliser, the word tables and token similarity:
 * transliteration folding, look-alike characters (confusable letters of other scripts inside a Latin
 * word, digits written for letters) and dotted acronyms.
 */

/**
 * Transliteration folding (vowels kept): digraphs and letters that different romanisation systems
 * write differently become one form: ph→f, dj/zh→j, kh→h, gh→g, dh→d, th→t, sh/ch/tch→s, ou/oo→u,
 * ee→i, q/ck→k, c before a/o/u→k, x→ks, w→u, y→i, j after a vowel and before a consonant→i,
 * doubled letters collapsed, a final h after a vowel dropped. Prigozhin/Prigojine, Chérif/Sharif,
 * Daoud/Dawud, Siddiq/Sidiki, Mikhailovich/Mihajlovich meet here.
 */
export function fold(token: string): string {
  const cached = FOLDS.get(token);
  if (cached !== undefined) return cached;
  const out = computeFold(token);
  if (FOLDS.size > MEMO_LIMIT) FOLDS.clear();
  FOLDS.set(token, out);
  return out;
}

/** Per-process memo of folds (names repeat a lot); cleared when it grows past this. */
export const MEMO_LIMIT = 200_000;
const FOLDS = new Map<string, string>();

function computeFold(token: string): string {
  const t = token
    .replace(/ph/g, 'f')
    .replace(/tch/g, 's')
    .replace(/(dj|zh)/g, 'j')
    .replace(/(sch|sh|ch)/g, 's')
    .replace(/kh/g, 'h')
    .replace(/gh/g, 'g')
    .replace(/dh/g, 'd')
    .replace(/th/g, 't')
    .replace(/(ou|oo)/g, 'u')
    .replace(/ee/g, 'i')
    .replace(/ck/g, 'k')
    .replace(/q/g, 'k')
    .replace(/c(?=[aou]|$)/g, 'k')
    .replace(/x/g, 'ks')
    .replace(/w/g, 'u')
    .replace(/(?<=[aeiou])j(?![aeiou])/g, 'i')
    .replace(/y/g, 'i')
    .replace(/([aeiou])h$/, '$1');
  let out = '';
  for (const ch of t) if (out[out.length - 1] !== ch) out += ch;
  return out;
}

const LATIN_LETTER = /\p{Script=Latin}/u;
const OTHER_LETTER = /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}\p{Script=Cherokee}]/u;
const CONFUSABLE = confusables as Record<string, string>;

/**
 * A word whose letters mix Latin with look-alikes of another script (Cyrillic "а" in "Ivаn") is
 * read as Latin: each foreign letter becomes the Latin letter it is confusable with (Unicode TR39
 * confusables, from the unhomoglyph package). Only inside one run of letters (Gazprom-Нефть is two
 * words, each in its script), and only when every foreign letter of the run has a Latin look-alike
 * (a mixed word with other letters is no disguise). Returns null when the word has nothing to replace.
 */
export function unconfuse(word: string): string | null {
  if (!LATIN_LETTER.test(word) || !OTHER_LETTER.test(word)) return null;
  const out = word.replace(/\p{L}+/gu, (run) => {
    if (!LATIN_LETTER.test(run) || !OTHER_LETTER.test(run)) return run;
    let read = '';
    for (const ch of run) {
      if (!OTHER_LETTER.test(ch)) {
        read += ch;
        continue;
      }
      const lower = ch.toLowerCase();
      const mapped = CONFUSABLE[lower] ?? CONFUSABLE[ch];
      if (!mapped || !/^[a-z]+$/i.test(mapped)) return run;
      read += ch === lower ? mapped.toLowerCase() : mapped.toUpperCase();
    }
    return read;
  });
  return out === word ? null : out;
}

/** Digits that stand for letters inside a word (Ig0r, Sech1n); 1 reads as l next to a vowel, i elsewhere. */
const DIGIT_LETTERS: Record<string, string> = { '0': 'o', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '9': 'g' };
const VOWEL = /[aeiouy]/;
/** Letters, and single digits between letters, all of them digits that look like letters. */
const DISGUISED = /^[a-z]+(?:[0134579][a-z]+)+$/;

/**
 * Digits used as letters in an otherwise alphabetic lower-case word ("ig0r" → "igor", "sech1n" →
 * "sechin"): each digit alone between two letters and one that looks like a letter, three letters
 * or more. "t72", "mig29", "su30mk", "a320neo", "b52s", "4x4" keep theirs. Returns null when the word is no
 * such disguise.
 */
export function undigit(word: string): string | null {
  if (!DISGUISED.test(word) || word.replace(/\d/g, '').length < 3) return null;
  return word.replace(/\d/g, (d, offset: number) => {
    if (d !== '1') return DIGIT_LETTERS[d];
    return VOWEL.test(word[offset - 1]) || VOWEL.test(word[offset + 1]) ? 'l' : 'i';
  });
}

/** "l.x.c", "s.a.", "u.s.a" (single letters or digits joined by dots) → "lxc", "sa", "usa"; null otherwise. */
export function undot(word: string): string | null {
  return /^(?:[a-z0-9]\.)+[a-z0-9]?\.?$/.test(word) && word.replace(/\./g, '').length >= 2 ? word.replace(/\./g, '') : null;
}

/** Plain tokens of a short ASCII text (table entries: legal forms, number words): dots of acronyms joined. */
export function plainTokens(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/['’ʼʻʿʾ`´‘"]/g, '')
    .split(/\s+/)
    .flatMap((w) => (undot(w) ?? w).split(/[^a-z0-9]+/))
    .filter(Boolean);
}
