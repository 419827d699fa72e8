import anyAscii from 'any-ascii';
import { equivalenceKeys } from './equivalents.js';
import { hangulSpellings } from './hangul.js';
import { DESCRIPTORS, isLegalFormWord, legalFormAt, SHORT_FORMS, type FoundForm } from './legal-forms.js';
import { undigit, undot, unconfuse } from './text.js';
import type { MatchRule } from '../types.js';
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
  /** One syllable of a Chinese (zh), Japanese (ja) or Korean (ko) name written in its own script. */
  cjk?: 'zh' | 'ja' | 'ko';
  /** Latin spellings of a Korean syllable (hangul.ts): what a Latin name may write for it. */
  spellings?: string[];
  /** the CJK syllable as written (two characters may read alike: 伟 and 为 are both "wei") */
  written?: string;
}

/** A rule of normalisation that applied to a name (a look-alike read, a legal form set aside…). */
export interface NameNote {
  rule: MatchRule;
  detail: string;
}

export interface PreparedName {
  original: string;
  tokens: NameToken[];
  /** normalised text (tokens joined by a space) */
  normalized: string;
  /** individual, entity (entity, vessel, aircraft) or unknown */
  kind?: 'individual' | 'entity' | 'unknown';
  /** legal forms set aside (legal-forms.ts table keys): compared, not aligned */
  forms?: string[];
  /**
   * The words of an entity name before its legal forms were set aside, each with the index of the
   * token it became (-1: a legal form): initials are read from them (PJSC UAC ~ Public Joint Stock
   * Company United Aircraft Corporation).
   */
  words?: { text: string; token: number }[];
  notes?: NameNote[];
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
 * Legal-form words dropped from entity names anywhere (data/legal-forms.json). The list also holds
 * generic descriptors ('holding(s)', 'group', 'trading', 'establishment'): dropped like legal forms,
 * because "X Trading LLC" and "X Group" are the same screening subject far more often than not (the
 * remaining distinctive words decide). Longer forms (ISO 20275 and translations) are found at the
 * start and end of entity names by legal-forms.ts.
 */
export const LEGAL_FORMS = SHORT_FORMS;

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
const KANA_RE = /[\u3040-\u30FF]/u;
/** Letters of a script other than Latin (transliterated): the name gets a `transliteration` note. */
const NON_LATIN_LETTER = /(?![\p{Script=Latin}])\p{L}/u;

/** Per output word of a transliteration: its CJK script and Korean spellings. */
type CjkWord = { cjk: 'zh' | 'ja' | 'ko'; written: string; spellings?: string[] };

/** Transliterates to ASCII; returns the text plus, per output word, whether it came from an abjad script. */
export function transliterate(input: string): { text: string; abjadWords: Set<number>; cjkWords: Map<number, CjkWord>; notes: NameNote[] } {
  let out = '';
  let foreign = false;
  const abjadWords = new Set<number>();
  const cjkWords = new Map<number, CjkWord>();
  const notes: NameNote[] = [];
  // split into runs of the same "script class" so that abjad words can be flagged
  const words = input.normalize('NFKC').split(/(\s+)/u);
  let wordIndex = 0;
  for (const raw of words) {
    if (!raw) continue;
    if (/^\s+$/u.test(raw)) {
      out += ' ';
      continue;
    }
    // a Latin word with look-alike letters of another script ("Ivаn" with a Cyrillic а)
    const w = unconfuse(raw) ?? raw;
    if (w !== raw) notes.push({ rule: 'lookalike', detail: `${raw} read as ${w}` });
    foreign ||= NON_LATIN_LETTER.test(w);
    let converted: string;
    if (CJK_RE.test(w)) {
      // one syllable per character: 张伟 → "zhang wei", 김정은 → "gim jeong eun"
      const pieces: string[] = [];
      for (const ch of w) {
        if (CJK_RE.test(ch)) {
          const spellings = hangulSpellings(ch);
          cjkWords.set(
            wordIndex + pieces.length,
            spellings.length ? { cjk: 'ko', written: ch, spellings } : { cjk: KANA_RE.test(ch) ? 'ja' : 'zh', written: ch },
          );
          pieces.push(anyAscii(ch).toLowerCase() || '?');
        } else if (pieces.length && !CJK_RE.test(pieces[pieces.length - 1]) && !cjkWords.has(wordIndex + pieces.length - 1)) {
          pieces[pieces.length - 1] += anyAscii(ch);
        } else pieces.push(anyAscii(ch));
      }
      converted = pieces.filter((p) => p.trim()).join(' ');
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
    const n = converted.split(/[\s\-]+/).filter(Boolean).length;
    // the words this run produces are abjad (no short vowels written)
    if (ABJAD_RE.test(w)) for (let i = 0; i < n; i++) abjadWords.add(wordIndex + i);
    wordIndex += n;
    out += converted;
  }
  if (foreign) notes.push({ rule: 'transliteration', detail: `${input} read as ${out.trim()}` });
  return { text: out, abjadWords, cjkWords, notes };
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
  /** a one-letter particle between two words: no initial */
  conjunction?: boolean;
  cjk?: CjkWord;
}

interface SplitContext {
  abjadWords: Set<number>;
  cjkWords: Map<number, CjkWord>;
  notes: NameNote[];
  /** join dotted letters (L.X.C → lxc): always for entities, for unknown names when that spells a legal form */
  undot: 'always' | 'forms' | 'never';
}

function splitWords(text: string, ctx: SplitContext, family: boolean, startIndex: number): { tokens: RawToken[]; words: number } {
  const tokens: RawToken[] = [];
  // apostrophes and Arabic ayn/hamza marks vanish (O'Brien → obrien, `bd → bd); other punctuation separates
  const cleaned = text.toLowerCase().replace(/['’ʼʻʿʾ`´‘"]/g, '');
  const words = cleaned.split(/\s+/).filter(Boolean);
  let index = startIndex;
  for (const raw of words) {
    const joined = ctx.undot === 'never' ? null : undot(raw);
    const word = joined && (ctx.undot === 'always' || isLegalFormWord(joined)) ? joined : raw;
    if (word !== raw && !isLegalFormWord(word)) ctx.notes.push({ rule: 'lookalike', detail: `${raw} read as ${word}` });
    const parts = word.split(/-+/);
    for (let i = 0; i < parts.length; i++) {
      const subparts = parts[i].split(/[^a-z0-9]+/).filter(Boolean);
      for (let j = 0; j < subparts.length; j++) {
        const read = undigit(subparts[j]);
        if (read) ctx.notes.push({ rule: 'lookalike', detail: `${subparts[j]} read as ${read}` });
        tokens.push({
          text: read ?? subparts[j],
          abjad: ctx.abjadWords.has(index),
          family,
          hyphenNext: i < parts.length - 1 && j === subparts.length - 1,
          cjk: ctx.cjkWords.get(index),
        });
      }
      if (parts[i]) index++;
    }
  }
  return { tokens, words: index - startIndex };
}

/** A one-letter conjunction between two words (Pérez y Gómez, Saabf y Compañía S.C.A.) is no initial. */
function markConjunctions(raw: RawToken[]): RawToken[] {
  return raw.map((t, i) =>
    t.text.length === 1 && PARTICLES.has(t.text) && raw[i - 1]?.text.length > 1 && raw[i + 1]?.text.length > 1
      ? { ...t, conjunction: true }
      : t,
  );
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

/** A legal form glued to a name in mixed case ("SiemensAG", "AcmeGmbH") is split off first. */
function unglueForms(text: string, notes: NameNote[]): string {
  return text.replace(/(?<!\p{L})(\p{L}+?)(\p{Lu}\p{L}{1,5})(?=$|[\s,.)])/gu, (m: string, name: string, form: string) => {
    if (!/\p{Ll}{3}$/u.test(name) || !isLegalFormWord(form.toLowerCase())) return m;
    notes.push({ rule: 'legalForm', detail: `${m} read as ${name} ${form}` });
    return `${name} ${form}`;
  });
}

/**
 * Sets legal forms aside: for entities the longest forms of the tables at the end and at the start
 * (several: "Co., Ltd.") and the short forms anywhere; for names of unknown type the short forms
 * anywhere (at most two, something distinctive left) and long forms (several words or 6+ letters) at
 * the end or start. Returns the tokens left and the forms found, as written (tokens joined by a
 * space); at least one token always stays.
 */
function setFormsAside(raw: RawToken[], entity: boolean): { kept: RawToken[]; forms: string[] } {
  let kept = raw;
  const forms: string[] = [];
  const take = (found: FoundForm | null): boolean => {
    if (!found || found.length >= kept.length) return false;
    const written = kept.slice(found.start, found.start + found.length);
    const form = written.map((t) => t.text).join(' ');
    if (!entity && found.length === 1 && form.length < 6) return false;
    if (found.start === 0 && written[written.length - 1].hyphenNext) return false;
    forms.push(form);
    kept = found.start === 0 ? kept.slice(found.length) : kept.slice(0, found.start);
    return true;
  };
  const texts = () => kept.map((t) => t.text);
  for (let i = 0; i < 3 && take(legalFormAt(texts(), false)); i++);
  for (let i = 0; i < 2 && take(legalFormAt(texts(), true)); i++);
  const short = kept.filter((t) => !SHORT_FORMS.has(t.text));
  const distinctive = short.filter((t) => t.text.length > 1).length > 0;
  if (short.length > 0 && (entity || (short.length < kept.length && distinctive && kept.length - short.length <= 2))) {
    for (const t of kept) if (SHORT_FORMS.has(t.text) && !DESCRIPTORS.has(t.text)) forms.push(t.text);
    kept = short;
  }
  return { kept, forms };
}

/** Prepares a name for matching. Pure; the index caches the result per list name. */
export function prepareName(full: string, opts: PrepareOptions = {}): PreparedName {
  const entity = opts.entityType === 'ENTITY' || opts.entityType === 'VESSEL' || opts.entityType === 'AIRCRAFT';
  const individual = opts.entityType === 'INDIVIDUAL';
  const transliterated = transliterate(full);
  const { abjadWords, cjkWords } = transliterated;
  const notes = transliterated.notes;
  const text = individual ? transliterated.text : unglueForms(transliterated.text, notes);
  const ctx: SplitContext = { abjadWords, cjkWords, notes, undot: individual ? 'never' : entity ? 'always' : 'forms' };

  // "FAMILY, Given" (one comma, individuals or unknown)
  let raw: RawToken[];
  const commaParts = text.split(',');
  if (opts.commaMeansFamily !== false && !entity && commaParts.length === 2 && commaParts[0].trim() && commaParts[1].trim()) {
    const fam = splitWords(commaParts[0], ctx, true, 0);
    const giv = splitWords(commaParts[1], ctx, false, fam.words);
    raw = [...giv.tokens, ...fam.tokens];
  } else {
    raw = splitWords(text.replace(/,/g, ' '), ctx, false, 0).tokens;
  }

  // honorifics and titles (keep the name when nothing else would remain)
  raw = markConjunctions(stripHonorifics(raw, entity));

  // legal forms (entities; unknown types when something distinctive remains)
  let forms: string[] = [];
  let words: RawToken[] | null = null;
  if (!individual) {
    const aside = setFormsAside(raw, entity);
    if (aside.kept.length < raw.length) words = raw;
    raw = aside.kept;
    forms = aside.forms;
    if (aside.forms.length) notes.push({ rule: 'legalForm', detail: `set aside: ${aside.forms.join(', ')}` });
  }
  // in entity names, ordinals and Roman numerals are numbers (64th → 64, Argo II → 2)
  if (entity) raw = raw.map((t, i) => readNumber(t, i, notes));

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
    // عبدالمنان written as one word: "bdlmnn" → "abdmnn", as "عبد المنان" gives (Abdullah, "bdllh", stays)
    const glued = t.abjad ? /^bdl(\w{3,})$/.exec(t.text) : null;
    merged.push({ ...t, text: glued && t.text !== 'bdllh' ? `abd${glued[1]}` : canonicalAbd(t.text) });
  }

  let leading = true;
  const tokens: NameToken[] = merged.map((t) => {
    const title = leading && !t.family && !t.abjad && TITLE_LIKE.has(t.text) && merged.length > 1;
    leading = title;
    const token: NameToken = {
      text: t.text,
      abjad: t.abjad,
      role: title
        ? 'title'
        : t.text.length === 1 && !t.conjunction && !t.cjk
          ? 'initial'
          : PARTICLES.has(t.text) && merged.length > 1 && !t.cjk
            ? 'particle'
            : t.family
              ? 'family'
              : 'given',
    };
    if (t.cjk) {
      token.cjk = t.cjk.cjk;
      token.written = t.cjk.written;
      if (t.cjk.spellings) token.spellings = t.cjk.spellings;
    }
    return token;
  });
  // a name made only of particles keeps them as given names (e.g. "Abu")
  if (tokens.length && tokens.every((t) => t.role === 'particle' || t.role === 'title')) tokens.forEach((t) => (t.role = 'given'));
  const prepared: PreparedName = {
    original: full,
    tokens,
    normalized: tokens.map((t) => t.text).join(' '),
    kind: individual ? 'individual' : entity ? 'entity' : 'unknown',
    forms,
    notes,
  };
  // the words before legal forms were set aside, when every other token is still one of them
  if (words && merged.length === raw.length) prepared.words = words.map((w) => ({ text: w.text, token: raw.indexOf(w) }));
  return prepared;
}

const ROMAN: Record<string, string> = { i: '1', ii: '2', iii: '3', iv: '4', vi: '6', vii: '7', viii: '8', ix: '9', xi: '11', xii: '12' };

/** "64th", "48-y", "1er" → 64, 48, 1; Roman numerals after the first word → digits. */
function readNumber(t: RawToken, i: number, notes: NameNote[]): RawToken {
  const ordinal = /^(\d+)(st|nd|rd|th|e|er|re|eme|ieme|o|a|y|yi|iy|ya|go|oe|aya)$/.exec(t.text);
  const value = ordinal ? ordinal[1] : i > 0 ? ROMAN[t.text] : undefined;
  if (!value) return t;
  notes.push({ rule: 'numberWords', detail: `${t.text} read as ${value}` });
  return { ...t, text: value };
}

function stripHonorifics(raw: RawToken[], entity: boolean): RawToken[] {
  let tokens = raw;
  if (entity) return tokens; // a company or vessel name has no titles, and its "II" is a number
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
