import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';

/**
 * Identity documents rendered for tests: an ID card (front with the portrait and the printed
 * fields, back with a TD1 machine-readable zone) and a passport data page (TD3 zone). Text is
 * set in OCR-B (data/fonts, public domain), the typeface of real machine-readable zones.
 */
export interface ZoneFont {
  file: string;
  /** Pango's name of the family (and style) in the file. */
  family: string;
}
const OCR_B: ZoneFont = { file: path.resolve('data/fonts/OCRB.otf'), family: 'OCR B' };
/** A common monospace font (dev dependency `dejavu-fonts-ttf`): zones are not always set in OCR-B. */
export const DEJAVU_MONO_BOLD: ZoneFont = {
  file: createRequire(path.resolve('package.json')).resolve('dejavu-fonts-ttf/ttf/DejaVuSansMono-Bold.ttf'),
  family: 'DejaVu Sans Mono Bold',
};

export interface Holder {
  surname: string;
  givenNames: string;
  documentNumber: string;
  /** ISO 3166-1 alpha-3, as machine-readable zones write countries. */
  nationality: string;
  issuingState: string;
  /** YYYY-MM-DD */
  dateOfBirth: string;
  expiryDate: string;
  sex: 'M' | 'F';
}

export const AMINA: Holder = {
  surname: 'WANJIKU',
  givenNames: 'AMINA GRACE',
  documentNumber: 'A12345678',
  nationality: 'KEN',
  issuingState: 'KEN',
  dateOfBirth: '1984-02-29',
  expiryDate: '2030-01-01',
  sex: 'F',
};

const VALUES: Record<string, number> = Object.fromEntries([
  ...[...'0123456789'].map((c, i) => [c, i]),
  ...[...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((c, i) => [c, i + 10]),
  ['<', 0],
]);

/** ICAO 9303 check digit: weights 7, 3, 1 over the character values. */
export function checkDigit(field: string): string {
  return String([...field].reduce((sum, c, i) => sum + VALUES[c] * [7, 3, 1][i % 3], 0) % 10);
}

const pad = (text: string, length: number) => text.padEnd(length, '<').slice(0, length);
const mrzDate = (iso: string) => iso.slice(2).replace(/-/g, '');
const mrzName = (h: Holder, length: number) => pad(`${h.surname.replace(/ /g, '<')}<<${h.givenNames.replace(/ /g, '<')}`, length);

/** The three 30-character lines of an ID card (TD1). */
export function td1(h: Holder): string[] {
  const number = pad(h.documentNumber, 9);
  const line1 = pad(`I<${h.issuingState}${number}${checkDigit(number)}`, 30);
  const birth = mrzDate(h.dateOfBirth);
  const expiry = mrzDate(h.expiryDate);
  const line2Head = `${birth}${checkDigit(birth)}${h.sex}${expiry}${checkDigit(expiry)}${h.nationality}`;
  const line2 = pad(line2Head, 29);
  const composite = checkDigit(line1.slice(5, 30) + line2.slice(0, 7) + line2.slice(8, 15) + line2.slice(18, 29));
  return [line1, line2 + composite, mrzName(h, 30)];
}

/** The two 44-character lines of a passport (TD3). */
export function td3(h: Holder): string[] {
  const number = pad(h.documentNumber, 9);
  const birth = mrzDate(h.dateOfBirth);
  const expiry = mrzDate(h.expiryDate);
  const personal = pad('', 14);
  const body = `${number}${checkDigit(number)}${h.nationality}${birth}${checkDigit(birth)}${h.sex}${expiry}${checkDigit(expiry)}${personal}${checkDigit(personal)}`;
  const composite = checkDigit(body.slice(0, 10) + body.slice(13, 20) + body.slice(21, 43));
  return [mrzName(h, 44).replace(/^/, `P<${h.issuingState}`).slice(0, 44), body + composite];
}

/** One character of a line changed (a digit +1): its check digit no longer holds. */
export function corrupt(line: string, position: number): string {
  const c = line[position];
  const changed = /\d/.test(c) ? String((Number(c) + 1) % 10) : c === 'A' ? 'B' : 'A';
  return line.slice(0, position) + changed + line.slice(position + 1);
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Lines of text in OCR-B as a transparent PNG. */
function textBlock(lines: string[], dpi: number, font = OCR_B): Promise<Buffer> {
  return sharp({
    text: { text: lines.map(escape).join('\n'), fontfile: font.file, font: font.family, dpi, rgba: true, spacing: Math.round(dpi / 15) },
  })
    .png()
    .toBuffer();
}

const displayDate = (iso: string) => iso.split('-').reverse().join('.');

function printedFields(h: Holder, kind: string): string[] {
  return [
    `SURNAME ${h.surname}`,
    `GIVEN NAMES ${h.givenNames}`,
    `DATE OF BIRTH ${displayDate(h.dateOfBirth)}`,
    `SEX ${h.sex}`,
    `NATIONALITY ${h.nationality}`,
    `${kind} NO ${h.documentNumber}`,
    `DATE OF EXPIRY ${displayDate(h.expiryDate)}`,
  ];
}

async function card(size: { width: number; height: number }, parts: Array<{ input: Buffer; left: number; top: number }>): Promise<Buffer> {
  return sharp({ create: { ...size, channels: 3, background: '#f1efe6' } })
    .composite(parts)
    .jpeg({ quality: 92 })
    .toBuffer();
}

/** The front of an ID card: title, portrait, printed fields. */
export async function idCardFront(h: Holder, photo: Buffer, title = 'REPUBLIC OF KENYA'): Promise<Buffer> {
  const portrait = await sharp(photo).resize(300, 380, { fit: 'cover' }).jpeg().toBuffer();
  return card({ width: 1100, height: 700 }, [
    { input: await textBlock([title, 'NATIONAL IDENTITY CARD'], 200), left: 40, top: 30 },
    { input: portrait, left: 40, top: 200 },
    { input: await textBlock(printedFields(h, 'ID'), 150), left: 380, top: 200 },
  ]);
}

/** The back of an ID card: an address line and the machine-readable zone at the bottom. */
export async function idCardBack(mrz: string[]): Promise<Buffer> {
  return card({ width: 1100, height: 700 }, [
    { input: await textBlock(['DISTRICT NAIROBI', 'LOCATION WESTLANDS'], 150), left: 40, top: 40 },
    { input: await textBlock(mrz, 250), left: 40, top: 430 },
  ]);
}

/** A passport data page: portrait, printed fields and the TD3 zone at the bottom. */
export async function passportPage(h: Holder, photo: Buffer, mrz = td3(h), zoneFont = OCR_B): Promise<Buffer> {
  const portrait = await sharp(photo).resize(300, 380, { fit: 'cover' }).jpeg().toBuffer();
  return card({ width: 1500, height: 900 }, [
    { input: await textBlock(['PASSPORT'], 200), left: 40, top: 30 },
    { input: portrait, left: 40, top: 160 },
    { input: await textBlock(printedFields(h, 'PASSPORT'), 150), left: 380, top: 160 },
    ...(mrz.length ? [{ input: await textBlock(mrz, 250, zoneFont), left: 40, top: 680 }] : []),
  ]);
}

/** The multipart body of an ID card submission (REST `POST /v1/verifications/document`): `holder`'s card with `photo`. */
export async function idCardForm(userId: string, photo: Buffer, holder: Holder = AMINA): Promise<FormData> {
  const form = new FormData();
  for (const [name, value] of Object.entries({ userId, documentType: 'ID_CARD', documentCountry: 'KE' })) form.append(name, value);
  for (const [name, bytes] of [
    ['frontImage', await idCardFront(holder, photo)],
    ['backImage', await idCardBack(td1(holder))],
  ] as const) {
    form.append(name, new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), `${name}.jpg`);
  }
  return form;
}
