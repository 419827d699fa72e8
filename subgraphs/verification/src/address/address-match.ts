/**
 * Compares the address read from a proof of address with the one the user declared: both are
 * normalised (case, accents, punctuation, common abbreviations in English and French), then
 * compared token by token with a tolerance for misread letters. Pure: unit-tested beside it.
 */

/** Abbreviations and their long forms, as both sides are compared (`St` and `Street` are one word). */
const SYNONYMS: Record<string, string> = {
  st: 'street',
  str: 'street',
  rd: 'road',
  ave: 'avenue',
  av: 'avenue',
  blvd: 'boulevard',
  bd: 'boulevard',
  bvd: 'boulevard',
  dr: 'drive',
  ln: 'lane',
  ct: 'court',
  cres: 'crescent',
  hwy: 'highway',
  pl: 'place',
  sq: 'square',
  rte: 'route',
  apt: 'apartment',
  appt: 'apartment',
  bldg: 'building',
  imm: 'immeuble',
  qtr: 'quartier',
  estn: 'estate',
  mt: 'mount',
  n: 'north',
  s: 'south',
  e: 'east',
  w: 'west',
  no: 'number',
  num: 'number',
  nr: 'number',
};

/** Words that carry no place: dropped from both sides. */
const FILLERS = new Set(['the', 'of', 'and', 'at', 'de', 'du', 'des', 'la', 'le', 'les', 'l', 'd', 'et', 'number']);

/** Post-office boxes in their usual spellings: `P.O. Box`, `PO Box`, `Post Office Box`, `BP`, `Boîte postale`. */
const PO_BOX = /\b(?:p\s*o\s*box|post\s+office\s+box|p\s*o\s*b|b\s*p|boite\s+postale|box)\b/g;

/** The address's words, normalised: lowercase, without accents or punctuation, abbreviations expanded. */
export function addressTokens(address: string): string[] {
  const plain = address
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[’'`]/g, ' ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .replace(PO_BOX, ' pobox ')
    .trim();
  return plain
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => SYNONYMS[word] ?? word)
    .filter((word) => !FILLERS.has(word));
}

/** Levenshtein distance (small strings: two rows). */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

/** A house, box or postal number (`12`, `12b`, `00100`): it must be equal, never near. */
const isNumber = (token: string) => /^\d/.test(token);

/**
 * How alike two words are, 0 to 1: numbers (house, box, postal code) only when equal; words of 4
 * letters or more when at most one letter in five differs (an OCR misreading), else 0.
 */
export function tokenSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  if (isNumber(a) || isNumber(b) || Math.min(a.length, b.length) < 4) return 0;
  const similarity = 1 - distance(a, b) / Math.max(a.length, b.length);
  return similarity >= 0.8 ? similarity : 0;
}

export interface AddressComparison {
  /** 0 to 1 (see compareAddresses). */
  score: number;
  /** Whether the document shows the declared address (score at least MATCH and no number missing). */
  match: boolean;
  /** Declared words not found on the document (as normalised). */
  missing: string[];
  /** The declared house, box or postal numbers the document does not show. */
  missingNumbers: string[];
  /** Words of the document's address the declaration does not have (a postal code, the country…). */
  extra: string[];
  explanation: string;
}

/** At least this score, with every declared number found, is a match. */
export const ADDRESS_MATCH = 0.85;
/** Under this score the addresses differ; between it and ADDRESS_MATCH a reviewer decides. */
export const ADDRESS_MISMATCH = 0.5;

/** Each word of `from` with its best similarity among `to`'s words. */
const bestMatches = (from: string[], to: string[]) => from.map((word) => Math.max(0, ...to.map((other) => tokenSimilarity(word, other))));
const mean = (values: number[]) => (values.length ? values.reduce((sum, v) => sum + v, 0) / values.length : 0);
const round = (n: number) => Math.round(n * 100) / 100;

/**
 * The declared address against the one read. Score = 0.75 × how much of the declaration the
 * document shows + 0.25 × how much of the document's address the declaration names (a document
 * usually adds a postal code or the country, which should cost little; a declaration the document
 * does not show costs much). A declared number the document lacks is never a match.
 */
export function compareAddresses(declared: string, read: string): AddressComparison {
  const a = addressTokens(declared);
  const b = addressTokens(read);
  const covered = bestMatches(a, b);
  const named = bestMatches(b, a);
  const score = a.length && b.length ? round(0.75 * mean(covered) + 0.25 * mean(named)) : 0;
  const missing = a.filter((_, i) => covered[i] === 0);
  const missingNumbers = missing.filter(isNumber);
  const extra = b.filter((_, i) => named[i] === 0);
  const fuzzy = a.filter((_, i) => covered[i] > 0 && covered[i] < 1);
  const match = score >= ADDRESS_MATCH && missingNumbers.length === 0;
  const parts = [
    !a.length || !b.length
      ? `${a.length ? 'No address was read on the document' : 'The declared address has no words to compare'}.`
      : missing.length
        ? `Not found on the document: ${missing.join(', ')}${missingNumbers.length ? ` (the number${missingNumbers.length > 1 ? 's' : ''} ${missingNumbers.join(', ')} differ${missingNumbers.length > 1 ? '' : 's'})` : ''}.`
        : 'Every part of the declared address is on the document.',
    ...(fuzzy.length ? [`Read with small differences: ${fuzzy.join(', ')}.`] : []),
    ...(extra.length ? [`The document also shows: ${extra.join(', ')}.`] : []),
    `Score ${score.toFixed(2)} (match at ${ADDRESS_MATCH.toFixed(2)} with every number found; under ${ADDRESS_MISMATCH.toFixed(2)} the addresses differ): ${
      match ? 'match' : score >= ADDRESS_MISMATCH && a.length && b.length ? 'uncertain' : 'mismatch'
    }.`,
  ];
  return { score, match, missing, missingNumbers, extra, explanation: parts.join(' ') };
}
