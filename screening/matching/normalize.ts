import anyAscii from 'any-ascii';
import { equivalenceKeys } from './equivalents.js';
import legalForms from './data/legal-forms.json' with { type: 'json' };
import particles from './data/particles.json' with { type: 'json' };
import titles from './data/titles.json' with { type: 'json' };

/**
 * Name normalisation: transliteration of non-Latin scripts, case, accents, punctuation, honorifics
 * and titles, legal-form words for entities, Arabic name particles, and the role of each token
 * (given / family / particle / initial) used to weight it.
 */

export type TokenRole = 'given' | 'family' | 'particle' | 'initial' | 'title';

export interface NameToken {
  text: string;
  role: TokenRole;
  /** Came from an abjad script (Arabic, Hebrew…): written without short vowels. */
  abjad: boolean;
}

export interface PreparedName {
  original: string;
  tokens: NameToken[];
  /** normalised text (tokens joined by a space) */
  normalized: string;
}

// The word lists are data (data/*.json); what each list is for is said here, where it is used.

/** Honorifics, titles and suffixes removed from the start (or, suffixes, the end) of names. */
export const HONORIFICS = new Set(titles.honorifics);
/**
 * Religious and traditional titles that are also names or name parts (Cheikh Tidiane, Haji as a
 * family name, Sultan, Emir): kept, with a low weight (role `title`) when they lead a name.
 */
export const TITLE_LIKE = new Set(titles.titleLike);
const SUFFIXES = new Set(titles.suffixes);

/**
 * Legal-form words dropped from entity names. The list also holds generic descriptors ('holding(s)',
 * 'group', 'trading', 'establishment'): they are dropped like legal forms, because "X Trading LLC"
 * and "X Group" are the same screening subject far more often than not (the remaining distinctive
 * words decide).
 */
export const LEGAL_FORMS = new Set(legalForms);

/** Low-weight particles: Arabic kinship/article words, European nobiliary particles, entity stopwords. */
const PARTICLES = new Set(particles.particles);
const KINSHIP = new Set(particles.kinship);

/** Arabic definite article, assimilated forms written with a hyphen (ash-Shabaab, ad-Din, an-Nasr). */
const SUN_ARTICLES = new Set(particles.sunArticles);

/** Prefix forms of "Abd" ("servant of"), longest first. */
const ABD_PREFIXES = particles.abdPrefixes;
const ARTICLES_AFTER_ABD = new Set(particles.articlesAfterAbd);

const ABJAD_RE = /[\u0590-\u05FF\u0600-\u06FF\u0700-\u074F\u0750-\u077F\u0780-\u07BF\u08A0-\u08FF\uFB1D-\uFB4F\uFB50-\uFDFF\uFE70-\uFEFF]/u;
/** الله (Allah) keeps its article: Nasr Allah, Abd Allah. */
const ALLAH = '\u0627\u0644\u0644\u0647';
const CJK_RE = /[\u3040-\u30FF\u3400-\u4DBF\u4E00-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF]/u;

/** Transliterates to ASCII; returns the text plus, per output word, whether it came from an abjad script. */
export function transliterate(input: string): { text: string; abjadWords: Set<number> } {
  let out = '';
  const abjadWords = new Set<number>();
  // split into runs of the same "script class" so that abjad words can be flagged
  const words = input.normalize('NFC').split(/(\s+)/u);
  let wordIndex = 0;
  for (const w of words) {
    if (!w) continue;
    if (/^\s+$/u.test(w)) {
      out += ' ';
      continue;
    }
    let converted: string;
    if (CJK_RE.test(w)) {
      // one syllable per character: 张伟 → "zhang wei"
      converted = [...w].map((ch) => (CJK_RE.test(ch) ? ` ${anyAscii(ch)} ` : anyAscii(ch))).join('');
    } else if (ABJAD_RE.test(w)) {
      // the Arabic article ال is written apart: الظواهري → "al dhwhry"
      converted = w
        .split('-')
        .map((part) =>
          part === ALLAH ? 'allah' : part.length > 3 && part.startsWith('\u0627\u0644') ? `al ${anyAscii(part.slice(2))}` : anyAscii(part),
        )
        .join('-');
    } else {
      converted = anyAscii(w);
    }
    if (ABJAD_RE.test(w)) {
      // the words this run produces are abjad (no short vowels written)
      const n = converted.split(/[\s\-]+/).filter(Boolean).length;
      for (let i = 0; i < n; i++) abjadWords.add(wordIndex + i);
      wordIndex += n;
    } else {
      wordIndex += converted.split(/[\s\-]+/).filter(Boolean).length;
    }
    out += converted;
  }
  return { text: out, abjadWords };
}

export interface PrepareOptions {
  /** entity (drop legal forms) / individual / unknown (drop legal forms only when something is left) */
  entityType?: string;
  /** "LAST, First" marks the family name (OFAC style); set false for free text queries */
  commaMeansFamily?: boolean;
}

interface RawToken {
  text: string;
  abjad: boolean;
  family: boolean;
  /** joined to the next word by a hyphen in the source */
  hyphenNext: boolean;
}

function splitWords(text: string, abjadWords: Set<number>, family: boolean, startIndex: number): { tokens: RawToken[]; words: number } {
  const tokens: RawToken[] = [];
  // apostrophes and Arabic ayn/hamza marks vanish (O'Brien → obrien, `bd → bd); other punctuation separates
  const cleaned = text.toLowerCase().replace(/['’ʼʻʿʾ`´‘"]/g, '');
  const words = cleaned.split(/\s+/).filter(Boolean);
  let index = startIndex;
  for (const word of words) {
    const parts = word.split(/-+/);
    for (let i = 0; i < parts.length; i++) {
      const subparts = parts[i].split(/[^a-z0-9]+/).filter(Boolean);
      for (let j = 0; j < subparts.length; j++) {
        tokens.push({
          text: subparts[j],
          abjad: abjadWords.has(index),
          family,
          hyphenNext: i < parts.length - 1 && j === subparts.length - 1,
        });
      }
      if (parts[i]) index++;
    }
  }
  return { tokens, words: index - startIndex };
}

function isInitial(t: string): boolean {
  return t.length === 1;
}

/**
 * "abdulrahman" → "abdrahman", "abderrahmane" → "abdrahmane", "abdelkader" → "abdkader": the Abd
 * prefix, its linking vowel and article (or the article's assimilated doubled consonant) fold away.
 * "abdoulaye", "abdullah" stay (names of their own).
 */
export function canonicalAbd(token: string): string {
  if (!token.startsWith('abd') || equivalenceKeys(token).includes('abdullah')) return token;
  const m = /^abd(?:ou|[aeiou])?(l?)(.*)$/.exec(token)!;
  let rest = m[2];
  if (!m[1] && rest.length > 3 && rest[0] === rest[1]) rest = rest.slice(1);
  if (rest.length < 3) return token;
  const merged = `abd${rest}`;
  return equivalenceKeys(merged).includes('abdullah') ? token : merged;
}

/** Prepares a name for matching. Pure; the index caches the result per list name. */
export function prepareName(full: string, opts: PrepareOptions = {}): PreparedName {
  const entity = opts.entityType === 'ENTITY' || opts.entityType === 'VESSEL' || opts.entityType === 'AIRCRAFT';
  const individual = opts.entityType === 'INDIVIDUAL';
  const { text, abjadWords } = transliterate(full);

  // "FAMILY, Given" (one comma, individuals or unknown)
  let raw: RawToken[];
  const commaParts = text.split(',');
  if (opts.commaMeansFamily !== false && !entity && commaParts.length === 2 && commaParts[0].trim() && commaParts[1].trim()) {
    const fam = splitWords(commaParts[0], abjadWords, true, 0);
    const giv = splitWords(commaParts[1], abjadWords, false, fam.words);
    raw = [...giv.tokens, ...fam.tokens];
  } else {
    raw = splitWords(text.replace(/,/g, ' '), abjadWords, false, 0).tokens;
  }

  // honorifics and titles (keep the name when nothing else would remain)
  raw = stripHonorifics(raw);

  // legal forms (entities; unknown types when something distinctive remains)
  if (!individual) {
    const kept = raw.filter((t) => !LEGAL_FORMS.has(t.text));
    if (entity ? kept.length > 0 : kept.length > 0 && kept.length < raw.length && kept.filter((t) => t.text.length > 1).length > 0) {
      if (entity || raw.length - kept.length <= 2) raw = kept;
    }
  }

  // hyphenated sun-letter articles (ash-Shabaab, ad-Din) → "al"
  raw = raw.map((t) => (t.hyphenNext && SUN_ARTICLES.has(t.text) ? { ...t, text: 'al' } : t));

  // "Abd al Rahman" / "Abdel Rahman" / "Abdul-Rahman" → one token "abdrahman"
  const merged: RawToken[] = [];
  for (let i = 0; i < raw.length; i++) {
    const t = raw[i];
    const isAbd = ABD_PREFIXES.includes(t.text) || (t.abjad && t.text === 'bd');
    // never across the given/family boundary of "FAMILY, Given" (given names come first here)
    if (isAbd && i + 1 < raw.length && raw[i + 1].family === t.family) {
      let j = i + 1;
      if (ARTICLES_AFTER_ABD.has(raw[j].text) && j + 1 < raw.length && raw[j + 1].family === t.family) j++;
      const next = raw[j].text;
      if (next.length >= 2 && !HONORIFICS.has(next)) {
        merged.push({ ...t, text: `abd${next}`, family: t.family || raw[j].family });
        i = j;
        continue;
      }
    }
    merged.push({ ...t, text: canonicalAbd(t.text) });
  }

  let leading = true;
  const tokens: NameToken[] = merged.map((t) => {
    const title = leading && !t.family && !t.abjad && TITLE_LIKE.has(t.text) && merged.length > 1;
    leading = title;
    return {
      text: t.text,
      abjad: t.abjad,
      role: title
        ? 'title'
        : isInitial(t.text)
          ? 'initial'
          : PARTICLES.has(t.text) && merged.length > 1
            ? 'particle'
            : t.family
              ? 'family'
              : 'given',
    };
  });
  // a name made only of particles keeps them as given names (e.g. "Abu")
  if (tokens.length && tokens.every((t) => t.role === 'particle' || t.role === 'title')) tokens.forEach((t) => (t.role = 'given'));
  return { original: full, tokens, normalized: tokens.map((t) => t.text).join(' ') };
}

function stripHonorifics(raw: RawToken[]): RawToken[] {
  let tokens = raw;
  // leading titles (possibly several: "H.E. Gen. Dr."); never abjad words (عمر → "mr")
  while (tokens.length > 1 && !tokens[0].abjad && !tokens[0].family && HONORIFICS.has(tokens[0].text)) tokens = tokens.slice(1);
  // trailing suffixes (Jr, Sr, III, PhD); titles only lead a name
  while (
    tokens.length > 1 &&
    SUFFIXES.has(tokens[tokens.length - 1].text) &&
    !tokens[tokens.length - 1].family &&
    !tokens[tokens.length - 1].abjad
  ) {
    tokens = tokens.slice(0, -1);
  }
  return tokens;
}

export function isKinship(token: string): boolean {
  return KINSHIP.has(token);
}
