import { printedDate } from '../document/printed-fields.js';

/**
 * The fields of a proof of address (a utility bill, a bank statement, a tax document, a letter),
 * from its OCR lines: a label in English or French followed by its value on the same line (or the
 * next ones, for an address). The issuer is the labelled one, else the document's heading.
 */

export interface AddressDocumentFields {
  fullName: string | null;
  address: string | null;
  /** YYYY-MM-DD */
  issueDate: string | null;
  issuer: string | null;
}

/** A label at the start of a line, as a whole word (`\b` does not know accented letters). */
const label = (words: string) => new RegExp(`^(?:${words})(?![\\p{L}\\d])`, 'u');

const LABELS = {
  fullName: label(
    "ACCOUNT NAME|ACCOUNT HOLDER|CUSTOMER NAME|CUSTOMER(?=\\s*:)|CLIENT NAME|NAME|BILL TO|NOM DU CLIENT|NOM DE L'ABONN[EÉ]|NOM ET PR[EÉ]NOMS?|NOM|CLIENT(?=\\s*:)|TITULAIRE|ABONN[EÉ](?=\\s*:)",
  ),
  address: label(
    'SERVICE ADDRESS|SUPPLY ADDRESS|BILLING ADDRESS|PROPERTY ADDRESS|POSTAL ADDRESS|RESIDENTIAL ADDRESS|ADDRESS|ADRESSE DE FACTURATION|ADRESSE DU BRANCHEMENT|ADRESSE DE LIVRAISON|ADRESSE POSTALE|ADRESSE|DOMICILE',
  ),
  issueDate: label(
    "BILL DATE|BILLING DATE|INVOICE DATE|STATEMENT DATE|ISSUE DATE|DATE OF ISSUE|DATE ISSUED|ISSUED ON|DATE DE LA FACTURE|DATE DE FACTURE|DATE DE FACTURATION|DATE D'[EÉ]MISSION|DATE D'[EÉ]DITION|DATE DU RELEV[EÉ]|[EÉ]MIS LE|[EÉ]MISE LE|FAIT LE|DATE(?!\\s+(?:LIMITE|D'[EÉ]CH[EÉ]ANCE|DUE))",
  ),
  issuer: label('ISSUED BY|ISSUER|PROVIDER|SUPPLIER|BILLER|[EÉ]METTEUR|[EÉ]MIS PAR|FOURNISSEUR|ORGANISME'),
} satisfies Record<keyof AddressDocumentFields, RegExp>;

const ALL_LABELS = Object.values(LABELS);

const MONTHS: Array<[RegExp, number]> = [
  [/^(JAN|JANV)/, 1],
  [/^(FEB|F[EÉ]V)/, 2],
  [/^MAR/, 3],
  [/^(APR|AVR)/, 4],
  [/^(MAY|MAI)/, 5],
  [/^JUIN|^JUN/, 6],
  [/^JUIL|^JUL/, 7],
  [/^(AUG|AO[UÛ])/, 8],
  [/^SEP/, 9],
  [/^OCT/, 10],
  [/^NOV/, 11],
  [/^(DEC|D[EÉ]C)/, 12],
];

const monthOf = (word: string) => MONTHS.find(([pattern]) => pattern.test(word))?.[1] ?? null;

function isoDate(y: number, m: number, d: number): string | null {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return date.toISOString().slice(0, 10);
}

/**
 * A date as printed on a bill, as YYYY-MM-DD: the document forms (15/10/2026, 2026-10-15,
 * 15 OCT 2026) and months in full in English or French (15 October 2026, 1er novembre 2026,
 * October 15, 2026).
 */
export function billDate(text: string): string | null {
  const t = text.toUpperCase();
  const printed = printedDate(t);
  if (printed) return printed;
  let match = /\b(\d{1,2})(?:ST|ND|RD|TH|ER)?\s+([A-ZÉÛ]{3,10})\.?,?\s+(\d{4})\b/u.exec(t);
  if (match && monthOf(match[2])) return isoDate(Number(match[3]), monthOf(match[2])!, Number(match[1]));
  match = /\b([A-ZÉÛ]{3,10})\.?\s+(\d{1,2})(?:ST|ND|RD|TH)?,?\s+(\d{4})\b/u.exec(t);
  if (match && monthOf(match[1])) return isoDate(Number(match[3]), monthOf(match[1])!, Number(match[2]));
  return null;
}

/** The rest of a line after its label (separators dropped). */
const afterLabel = (line: string, pattern: RegExp) =>
  line
    .replace(pattern, '')
    .replace(/^[\s:.\-/|]+/, '')
    .trim();

const isLabelled = (line: string) => ALL_LABELS.some((pattern) => pattern.test(line)) || /^[\p{L} ']{2,30}\s?:/u.test(line);

const clean = (text: string | null) =>
  text
    ?.replace(/[|_]+/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s,.;:-]+|[\s,;:-]+$/g, '')
    .trim() || null;

/** Reads the fields; a field whose label is not found (or has no value) is null. */
export function readAddressFields(lines: readonly string[]): AddressDocumentFields {
  const text = lines.map((line) => line.trim()).filter(Boolean);
  const upper = text.map((line) => line.toUpperCase());
  const found: Partial<Record<keyof AddressDocumentFields, string>> = {};
  upper.forEach((line, i) => {
    for (const [field, pattern] of Object.entries(LABELS) as Array<[keyof AddressDocumentFields, RegExp]>) {
      if (!pattern.test(line)) continue;
      if (found[field] === undefined) {
        const start = text[i].length - afterLabel(line, pattern).length;
        const own = text[i].slice(start).trim();
        if (field === 'address') {
          // an address goes on over the next lines (up to two) until another label
          const more = [];
          for (let j = i + 1; j < Math.min(i + 3, text.length) && !isLabelled(upper[j]); j++) more.push(text[j]);
          const value = [own, ...more].filter(Boolean).join(', ');
          if (value) found.address = value;
        } else if (field === 'issueDate') {
          const date = billDate(own) ?? (own ? null : billDate(text[i + 1] ?? ''));
          if (date) found.issueDate = date;
        } else {
          const value = own || (text[i + 1] && !isLabelled(upper[i + 1]) ? text[i + 1] : '');
          if (value) found[field] = value;
        }
      }
      // the first label that matches a line wins (`DATE DE FACTURE` is no name)
      return;
    }
  });
  // the heading names the issuer when no label does
  const heading = text.find((line) => !isLabelled(line.toUpperCase()) && /\p{L}{2}/u.test(line));
  return {
    fullName: clean(found.fullName ?? null),
    address: clean(found.address ?? null),
    issueDate: found.issueDate ?? null,
    issuer: clean(found.issuer ?? heading ?? null),
  };
}
