import { printedDate } from '../document/printed-fields.js';
import type { Box } from '../vision/text-reader.js';

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

/** A known label, or any few words before a colon (`N° de contrat :`, `Amount due:`): another field starts there. */
const isLabelled = (line: string) => ALL_LABELS.some((pattern) => pattern.test(line)) || /^[\p{L}°. ']{2,30}\s?:/u.test(line);

const clean = (text: string | null) =>
  text
    ?.replace(/[|_]+/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s,.;:-]+|[\s,;:-]+$/g, '')
    .trim() || null;

/** A piece of text where it was read: an OCR line, or the part of one a wide gap sets apart (a column). */
export interface TextCell {
  text: string;
  box: Box;
}

/** Lines without positions (as a test writes them): one under the other, each as wide as the page. */
const asCells = (lines: ReadonlyArray<string | TextCell>): TextCell[] =>
  lines.map((line, i) => (typeof line === 'string' ? { text: line, box: { x0: 0, y0: 40 * i, x1: 1000, y1: 40 * i + 30 } } : line));

const middle = (cell: TextCell) => (cell.box.y0 + cell.box.y1) / 2;
const overlapsColumn = (a: Box, b: Box) => a.x0 < b.x1 && b.x0 < a.x1;

/**
 * The page's rows, top to bottom, each left to right: cells whose middles lie within each other's
 * height are on one row (a label and its value in two columns, the left and right blocks of a letter).
 */
function rowsOf(cells: TextCell[]): TextCell[][] {
  const rows: TextCell[][] = [];
  for (const cell of [...cells].sort((a, b) => middle(a) - middle(b))) {
    const first = rows.at(-1)?.[0];
    const together = first && middle(cell) <= first.box.y1 && middle(first) >= cell.box.y0;
    if (together) rows.at(-1)!.push(cell);
    else rows.push([cell]);
  }
  return rows.map((row) => row.sort((a, b) => a.box.x0 - b.box.x0));
}

/** Where a row's cell is: row and index in it. */
interface At {
  r: number;
  c: number;
}

/** The cell under `box` on row `r` (the same column), if any. */
const below = (rows: TextCell[][], r: number, box: Box): At | null => {
  const c = rows[r]?.findIndex((cell) => overlapsColumn(cell.box, box)) ?? -1;
  return c >= 0 ? { r, c } : null;
};

/** A label's value when its own cell has none: the next cell on its row, else the one under it; never another label. */
function valueOf(rows: TextCell[][], at: At): At | null {
  const right = rows[at.r][at.c + 1];
  if (right && !isLabelled(right.text.toUpperCase())) return { r: at.r, c: at.c + 1 };
  const under = below(rows, at.r + 1, rows[at.r][at.c].box);
  return under && !isLabelled(rows[under.r][under.c].text.toUpperCase()) ? under : null;
}

/** Lines an address may take after its first. */
const MORE_ADDRESS_LINES = 3;

/**
 * The lines under an address's first one, in its column: until another label, a row with a cell
 * to their left (a label column's next field), a date (the next field's value), or a blank line.
 */
function addressLines(rows: TextCell[][], first: At, column: Box): string[] {
  const more: string[] = [];
  let previous = rows[first.r][first.c];
  for (let r = first.r + 1; r < rows.length && more.length < MORE_ADDRESS_LINES; r++) {
    const at = below(rows, r, column);
    if (!at) break;
    const cell = rows[r][at.c];
    const height = previous.box.y1 - previous.box.y0;
    if (
      isLabelled(cell.text.toUpperCase()) ||
      rows[r].some((other) => other.box.x1 < cell.box.x0) ||
      billDate(cell.text) ||
      cell.box.y0 - previous.box.y1 > 1.5 * height
    )
      break;
    more.push(cell.text);
    previous = cell;
  }
  return more;
}

/**
 * A roman numeral after a street's name (`Avenue Hassan II`, `Boulevard Mohammed V`) read with
 * the look-alikes of `I` (`Il`, `I!`, `1I`): its capitals again. Digits alone stay a number.
 */
const romanNumerals = (address: string) =>
  address.replace(/(?<=\p{L}{3}\s)(?=[Il1!|]*[Il!|])[Il1!|]{2,3}(?=[\s,]|$)/gu, (numeral) => 'I'.repeat(numeral.length));

/** Words before an issuer's name that are a logo read as a glyph or two (`@ ENEO`, `[1] AFRILAND`, `CO) ELECTRICITY`, `EL CITY POWER`). */
const ARTICLES = new Set(['LA', 'LE', 'DE', 'DU', "L'", 'AL']);
const isLogo = (word: string) =>
  !/\p{L}/u.test(word) || (word.replace(/[^\p{L}\p{N}]/gu, '').length <= 2 && !ARTICLES.has(word.toUpperCase()));

function withoutLogo(heading: string): string {
  const words = heading.split(/\s+/);
  while (words.length > 1 && isLogo(words[0]) && /\p{L}{3}/u.test(words[1])) words.shift();
  return words.join(' ');
}

/**
 * Reads the fields; a field whose label is not found (or has no value) is null. `lines`: the OCR
 * lines with where they were read (`readAddressDocument` splits them at column gaps), or bare
 * strings, one under the other.
 */
export function readAddressFields(lines: ReadonlyArray<string | TextCell>): AddressDocumentFields {
  // a lone glyph is a rule or a box's edge read as `|` or `l`, never a field
  const rows = rowsOf(asCells(lines).flatMap((cell) => (cell.text.trim().length > 1 ? [{ ...cell, text: cell.text.trim() }] : [])));
  const found: Partial<Record<keyof AddressDocumentFields, string>> = {};
  rows.forEach((row, r) =>
    row.forEach((cell, c) => {
      const upper = cell.text.toUpperCase();
      // the first label that matches a cell wins (`DATE DE FACTURE` is no name)
      const field = (Object.keys(LABELS) as Array<keyof AddressDocumentFields>).find((f) => LABELS[f].test(upper));
      if (!field || found[field] !== undefined) return;
      const own = cell.text.slice(cell.text.length - afterLabel(upper, LABELS[field]).length).trim();
      const value = own ? null : valueOf(rows, { r, c });
      const text = own || (value ? rows[value.r][value.c].text : '');
      if (field === 'address') {
        // an address goes on over the next lines of its column
        const first = value ?? { r, c };
        const all = [text, ...addressLines(rows, first, rows[first.r][first.c].box)].filter(Boolean);
        if (all.length) found.address = romanNumerals(all.join(', '));
      } else if (field === 'issueDate') {
        const date = billDate(text);
        if (date) found.issueDate = date;
      } else if (text) found[field] = text;
    }),
  );
  // the heading names the issuer when no label does
  const heading = rows.flat().find((cell) => !isLabelled(cell.text.toUpperCase()) && /\p{L}{2}/u.test(cell.text));
  return {
    fullName: clean(found.fullName ?? null),
    address: clean(found.address ?? null),
    issueDate: found.issueDate ?? null,
    issuer: clean(found.issuer ?? (heading ? withoutLogo(heading.text) : null)),
  };
}
