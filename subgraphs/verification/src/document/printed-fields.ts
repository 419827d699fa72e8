import countries from 'i18n-iso-countries';
import { alpha2Of, isCountryCode } from '../../../../platform/countries.js';

/**
 * The fields printed on a document's visual zone, from its OCR lines: a label (English or French)
 * followed by its value on the same line or the next one. Dates come in the usual printed forms
 * (29.02.1984, 29/02/1984, 1984-02-29, 29 FEB 1984, 29 FÉV 1984).
 */

export interface PrintedFields {
  surname: string | null;
  givenNames: string | null;
  fullName: string | null;
  /** YYYY-MM-DD */
  dateOfBirth: string | null;
  documentNumber: string | null;
  expiryDate: string | null;
  /** ISO 3166-1 alpha-2 */
  nationality: string | null;
}

/** A label at the start of a line, as a whole word (`\b` does not know accented letters). */
const label = (words: string) => new RegExp(`^(?:${words})(?![\\p{L}\\d])`, 'u');

// the first label that matches a line wins: `NOM ET PRÉNOMS` is a full name, not a surname
const LABELS: Record<keyof PrintedFields, RegExp> = {
  fullName: label('FULL NAMES?|NAMES?|NOM ET PR[EÉ]NOMS'),
  surname: label('SURNAME|LAST NAME|FAMILY NAME|NOM'),
  givenNames: label('GIVEN NAMES?|FIRST NAMES?|FORENAMES?|PR[EÉ]NOMS?'),
  dateOfBirth: label('DATE OF BIRTH|BIRTH DATE|DOB|DATE DE NAISSANCE|N[EÉ]\\(?E?\\)? LE'),
  documentNumber: label(
    '(?:DOCUMENT|ID|IDENTITY|CARD|PASSPORT|LICEN[CS]E|PERMIT|CARTE|PASSEPORT|PERMIS)\\s*(?:NO|NUMBER|NUM[EÉ]RO|N°|#)\\.?',
  ),
  expiryDate: label("DATE OF EXPIRY|EXPIRY DATE|EXPIRY|EXPIRES|VALID UNTIL|DATE D'EXPIRATION|EXPIRE LE|VALABLE JUSQU'AU"),
  nationality: label('NATIONALITY|NATIONALIT[EÉ]'),
};

const MONTHS: Record<string, number> = {
  JAN: 1,
  FEB: 2,
  MAR: 3,
  APR: 4,
  MAY: 5,
  JUN: 6,
  JUL: 7,
  AUG: 8,
  SEP: 9,
  OCT: 10,
  NOV: 11,
  DEC: 12,
  JANV: 1,
  FEV: 2,
  FÉV: 2,
  MARS: 3,
  AVR: 4,
  MAI: 5,
  JUIN: 6,
  JUIL: 7,
  AOU: 8,
  AOÛ: 8,
  SEPT: 9,
  DÉC: 12,
};

/** A printed date as YYYY-MM-DD, or null when it is no real date. */
export function printedDate(text: string): string | null {
  const t = text.toUpperCase();
  let y: number, m: number, d: number;
  let match = /\b(\d{1,2})[./\- ](\d{1,2})[./\- ](\d{4})\b/.exec(t);
  if (match) [d, m, y] = [Number(match[1]), Number(match[2]), Number(match[3])];
  else if ((match = /\b(\d{4})-(\d{2})-(\d{2})\b/.exec(t))) [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  else if ((match = /\b(\d{1,2})\s*([A-ZÉÛ]{3,5})\.?\s*(\d{4})\b/.exec(t)) && MONTHS[match[2]]) {
    [d, m, y] = [Number(match[1]), MONTHS[match[2]], Number(match[3])];
  } else return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return date.toISOString().slice(0, 10);
}

const plain = (name: string) =>
  name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^A-Z]/g, '');

/** Country names in English and French (as documents print them), without accents or spaces. */
let byName: Map<string, string> | undefined;
const countryByName = () =>
  (byName ??= new Map(
    ['en', 'fr'].flatMap((lang) =>
      Object.entries(countries.getNames(lang, { select: 'all' })).flatMap(([code, names]) => names.map((n) => [plain(n), code] as const)),
    ),
  ));

/** An alpha-2 code from what a document prints: an alpha-3 code (KEN), an alpha-2 code or a country name. */
export function countryCode(text: string): string | null {
  const t = text.trim().toUpperCase();
  if (/^[A-Z]{3}$/.test(t)) return alpha2Of(t);
  if (/^[A-Z]{2}$/.test(t) && isCountryCode(t)) return t;
  return countryByName().get(plain(text)) ?? null;
}

/** The value after a label: the rest of its line, or the next line when the label stands alone. */
function valueAfter(lines: string[], i: number, label: RegExp): string | null {
  const rest = lines[i]
    .replace(label, '')
    .replace(/^[\s:.\-/]+/, '')
    .trim();
  if (rest) return rest;
  return lines[i + 1]?.trim() || null;
}

const cleanName = (name: string | null) =>
  name
    ? name
        .replace(/[^\p{L}' -]/gu, ' ')
        .replace(/\s+/g, ' ')
        .trim() || null
    : null;

export function readPrintedFields(lines: string[]): PrintedFields {
  const upper = lines.map((l) => l.trim().toUpperCase());
  const raw: Partial<Record<keyof PrintedFields, string>> = {};
  upper.forEach((line, i) => {
    for (const [field, label] of Object.entries(LABELS) as Array<[keyof PrintedFields, RegExp]>) {
      if (raw[field] === undefined && label.test(line)) {
        const value = valueAfter(upper, i, label);
        if (value) raw[field] = value;
        return;
      }
    }
  });
  const surname = cleanName(raw.surname ?? null);
  const givenNames = cleanName(raw.givenNames ?? null);
  const number = raw.documentNumber ? /[A-Z0-9][A-Z0-9 -]{3,}[A-Z0-9]/.exec(raw.documentNumber)?.[0].replace(/[ -]/g, '') : null;
  return {
    surname,
    givenNames,
    fullName: cleanName(raw.fullName ?? null) ?? (surname || givenNames ? [givenNames, surname].filter(Boolean).join(' ') : null),
    dateOfBirth: raw.dateOfBirth ? printedDate(raw.dateOfBirth) : null,
    documentNumber: number ?? null,
    expiryDate: raw.expiryDate ? printedDate(raw.expiryDate) : null,
    nationality: raw.nationality ? countryCode(raw.nationality.split(/\s{2,}/)[0]) : null,
  };
}
