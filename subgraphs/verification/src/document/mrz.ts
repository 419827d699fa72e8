import { parse, states } from 'mrz';
import sharp from 'sharp';
import type { Box, ReadLine, TextReader } from '../vision/text-reader.js';
import {
  binarise,
  cellCentres,
  findZoneLines,
  leastSquares,
  LOOK_ALIKE,
  MRZ_CHARSET,
  readCells,
  trackLine,
  type Choice,
} from './mrz-glyphs.js';
import { estimateSkew, otsu } from './skew.js';
import { straightenZone } from './zone-band.js';

/**
 * The machine-readable zone (ICAO 9303) of a document image. OCR finds the zone's lines on the
 * levelled page (or on the zone's band straightened, zone-band.ts, when a photo's perspective
 * left its rows sloping); then two readers read it: the glyph reader (mrz-glyphs.ts: cells from
 * the ink, each glyph against the MRZ alphabet in OCR-B and two common monospace typefaces) and
 * OCR's line model again with the MRZ alphabet only, rebuilt cell by cell. Cell by cell the glyph reader
 * decides where it is sure or the typeface is one it knows, OCR elsewhere; a failed check digit is
 * mended only by a close look-alike the glyph reader itself saw; then the zone is parsed field by
 * field and its check digits verified with the `mrz` package.
 */

export { MRZ_CHARSET };
/**
 * Zone lines closer than this (pixels from one line to the next) are enlarged to it before they are
 * read: the glyph grid and OCR's line model read a glyph of 12–16 px poorly. Tune corpus, 150–200 dpi
 * and phone photos: exact lines 88 → 99 of 120 (40 px: 92; 80 px: 95), other conditions unchanged.
 */
const MIN_LINE_HEIGHT = 60;
/** A tilt below this reads as it is; above, the page is levelled first (half a degree moves a 44-character line's end by a third of its height). */
const MIN_SKEW_DEGREES = 0.5;

export interface MrzReading {
  format: 'TD1' | 'TD2' | 'TD3';
  lines: string[];
  /** Every check digit holds and both state codes are ICAO codes. */
  valid: boolean;
  /** The fields whose check digit failed (`documentNumber`, `birthDate`, `expirationDate`, `composite`…). */
  failedChecks: string[];
  /** `issuingState` and/or `nationality` when the code read is no ICAO state code (a misread one): the zone is then not valid. */
  unknownStates: string[];
  /**
   * Fields the image leaves in doubt although the zone may be valid (`surname`, `documentNumber`…):
   * a name glyph with a runner-up as likely (no check digit covers a name), a checked field
   * another reading with close look-alikes would pass as well (G and 6 weigh the same modulo 10),
   * or `optionalData` when only the composite check digit supports a look-alike read in it (a mended
   * glyph, OCR's reading against the glyphs'): a forged optional digit reads so.
   */
  doubtful: string[];
  documentCode: string;
  issuingState: string | null;
  documentNumber: string | null;
  /** YYYY-MM-DD */
  dateOfBirth: string | null;
  expiryDate: string | null;
  nationality: string | null;
  sex: 'M' | 'F' | null;
  surname: string | null;
  givenNames: string | null;
}

/** Lines per format and characters per line. */
const LAYOUTS = { 3: [30], 2: [44, 36] } as const;

/**
 * What each position of each format holds: `9` a digit, `A` a letter, `*` either (or a filler),
 * `D` the document code's first letter (ICAO 9303: A, C or I on cards, P on passports, V on visas).
 */
const SHAPES: Record<number, string[]> = {
  30: [
    'DA' + 'AAA' + '*********' + '9' + '***************',
    '999999' + '9' + '*' + '999999' + '9' + 'AAA' + '***********' + '9',
    'A'.repeat(30),
  ],
  36: ['DA' + 'AAA' + 'A'.repeat(31), '*********' + '9' + 'AAA' + '999999' + '9' + '*' + '999999' + '9' + '*******' + '9'],
  44: ['DA' + 'AAA' + 'A'.repeat(39), '*********' + '9' + 'AAA' + '999999' + '9' + '*' + '999999' + '9' + '**************' + '9' + '9'],
};

const TO_DIGIT: Record<string, string> = { O: '0', Q: '0', D: '0', U: '0', I: '1', L: '1', T: '1', Z: '2', S: '5', G: '6', B: '8' };
const TO_LETTER: Record<string, string> = { '0': 'O', '1': 'I', '2': 'Z', '5': 'S', '6': 'G', '8': 'B' };

/** OCR's usual confusions undone where the format says what a position holds. */
export function correctByShape(lines: string[]): string[] {
  const shapes = SHAPES[lines[0].length];
  if (!shapes) return lines;
  return lines.map((line, l) =>
    [...line]
      .map((c, i) => {
        const shape = shapes[l]?.[i];
        if (c === '<') return c;
        if (shape === '9') return TO_DIGIT[c] ?? c;
        if (shape === 'A' || shape === 'D') return TO_LETTER[c] ?? c;
        return c;
      })
      .join(''),
  );
}

/**
 * A line looks like a machine-readable line: long, mostly the MRZ alphabet, and a filler or at
 * most one space (OCR often reads a run of fillers as K or L, so a zone's line may show none, and
 * splits a line in a photo once; printed text has a space between every two words).
 */
function looksLikeMrz(text: string): boolean {
  const compact = text.replace(/\s/g, '');
  const spaces = text.trim().split(/\s+/).length - 1;
  const inAlphabet = [...compact].filter((c) => MRZ_CHARSET.includes(c)).length;
  return compact.length >= 20 && (compact.includes('<') || spaces <= 1) && inAlphabet / compact.length >= 0.85;
}

/**
 * The last run of consecutive MRZ-looking lines (the zone is at the bottom of a page). A piece OCR
 * split off the end of a zone line (its fillers read as `cea <` past a gap, in a photo) is joined
 * back to that line rather than ending the run.
 */
export function mrzLines(lines: ReadLine[]): ReadLine[] {
  const found: ReadLine[] = [];
  // top to bottom: OCR gives its lines block by block, and the zone's block often comes first
  for (const line of [...lines].sort((a, b) => a.box.y0 - b.box.y0)) {
    const last = found.at(-1);
    if (looksLikeMrz(line.text)) found.push(line);
    else if (last && continues(last, line)) found[found.length - 1] = joined(last, line);
    else if (found.length) found.length = 0;
  }
  return found.slice(-3);
}

/** Whether `piece` carries `line` on: on its row (overlapping half of the lower one's height), starting where it ends. */
function continues(line: ReadLine, piece: ReadLine): boolean {
  const overlap = Math.min(line.box.y1, piece.box.y1) - Math.max(line.box.y0, piece.box.y0);
  const height = Math.min(line.box.y1 - line.box.y0, piece.box.y1 - piece.box.y0);
  return overlap >= height / 2 && piece.box.x0 >= line.box.x1 - height / 2;
}

function joined(line: ReadLine, piece: ReadLine): ReadLine {
  return {
    text: line.text + piece.text.replace(/\s/g, ''),
    confidence: Math.min(line.confidence, piece.confidence),
    box: union([line.box, piece.box]),
    words: [...line.words, ...piece.words],
    symbols: [...line.symbols, ...piece.symbols],
  };
}

const union = (boxes: Box[]): Box => ({
  x0: Math.min(...boxes.map((b) => b.x0)),
  y0: Math.min(...boxes.map((b) => b.y0)),
  x1: Math.max(...boxes.map((b) => b.x1)),
  y1: Math.max(...boxes.map((b) => b.y1)),
});

/** Which pixels of a region are ink (darker than its Otsu threshold). */
interface Ink {
  width: number;
  height: number;
  isInk(x: number, y: number): boolean;
}

async function inkOf(image: Buffer): Promise<Ink> {
  const { data, info } = await sharp(image).greyscale().raw().toBuffer({ resolveWithObject: true });
  const threshold = otsu(data);
  return { width: info.width, height: info.height, isInk: (x, y) => data[y * info.width + x] <= threshold };
}

/**
 * Whether the glyph in a cell is the filler `<`: on its left, ink only around mid-height (the
 * point); on its right, ink at the top and the bottom but not in the middle (the two arms). No
 * other character of the MRZ alphabet has that shape; OCR models often read a run of fillers as
 * K, L, 0 or other letters.
 */
function isFiller(ink: Ink, x0: number, x1: number, y0: number, y1: number): boolean {
  const columns: number[] = [];
  const rows: number[] = [];
  for (let y = Math.max(0, y0); y < Math.min(ink.height, y1); y++) {
    for (let x = Math.max(0, x0); x < Math.min(ink.width, x1); x++) {
      if (ink.isInk(x, y)) {
        columns.push(x);
        rows.push(y);
      }
    }
  }
  if (columns.length < 4) return false;
  const left = Math.min(...columns);
  const right = Math.max(...columns);
  const top = Math.min(...rows);
  const bottom = Math.max(...rows);
  const width = right - left + 1;
  const height = bottom - top + 1;
  if (width < 3 || height < 3) return false;
  const band = (y: number) => (y - top) / height; // 0 at the top, 1 at the bottom
  const leftRows = rows.filter((_, i) => columns[i] < left + width * 0.2).map(band);
  const rightRows = rows.filter((_, i) => columns[i] > right - width * 0.2).map(band);
  const pointOnly = leftRows.every((b) => b > 0.25 && b < 0.75);
  const armsOnly = rightRows.some((b) => b < 0.2) && rightRows.some((b) => b > 0.8) && !rightRows.some((b) => b > 0.4 && b < 0.6);
  return pointOnly && armsOnly;
}

/** Where a line's cells are: each cell's centre (a photo's perspective widens the pitch along the line). */
interface Cells {
  centres: number[];
  y0: number;
  y1: number;
}

const centerOf = (box: Box) => (box.x0 + box.x1) / 2;
const fits = (c: string, want: string | undefined) =>
  want === '9' ? /\d/.test(c) : want === 'A' ? /[A-Z]/.test(c) : want === 'D' ? /[ACIPV]/.test(c) : true;

/** The pitch at cell `i`: from its left neighbour's centre to its right one's, over the cells between. */
const pitchAt = (cells: Cells, i: number) => {
  const { centres } = cells;
  const a = Math.max(0, Math.min(i - 1, centres.length - 2));
  const b = Math.min(centres.length - 1, Math.max(i + 1, 1));
  return (centres[b] - centres[a]) / (b - a);
};

/**
 * Leaving one of OCR's symbols out costs as much as placing it two pitches off its cell (squared):
 * OCR drops glyphs (fillers) far more often than it invents one, and a photo's straight first grid
 * is up to two thirds of a pitch off mid-line (a symbol left out and a cell left empty there cost
 * less than placing them in order: one glyph in its neighbour's cell).
 */
const ALIGN_CAP = 4;

/**
 * OCR's symbols of a line aligned in order with its `length` cells: each symbol in a cell of its
 * own, cells left empty where OCR dropped a glyph (a run of fillers), a symbol left out at a
 * cost; the cells' centres fitted to the symbols placed (a quadratic: a photo's pitch changes
 * along the line), then the symbols aligned again. A grid drawn straight from the first symbol to
 * the last put a photo's middle glyphs half a cell off, one symbol in its neighbour's cell.
 */
function alignSymbols(xs: number[], length: number): { centres: number[]; cellOf: number[] } {
  let centres = firstGrid(xs, length);
  let cellOf: number[] = [];
  for (let round = 0; round < 4; round++) {
    const pitch = Math.max(1, (centres.at(-1)! - centres[0]) / (length - 1));
    const cost = (i: number, j: number) => Math.min(ALIGN_CAP, ((xs[i] - centres[j]) / pitch) ** 2);
    // best[i][j]: the least cost of the first i symbols within the first j cells
    const S = xs.length;
    const best = Array.from({ length: S + 1 }, () => new Float64Array(length + 1).fill(Infinity));
    const move = Array.from({ length: S + 1 }, () => new Uint8Array(length + 1));
    for (let j = 0; j <= length; j++) best[0][j] = 0;
    for (let i = 1; i <= S; i++) {
      best[i][0] = best[i - 1][0] + ALIGN_CAP;
      move[i][0] = 2;
      for (let j = 1; j <= length; j++) {
        const placed = best[i - 1][j - 1] + cost(i - 1, j - 1);
        const cellEmpty = best[i][j - 1];
        const symbolOut = best[i - 1][j] + ALIGN_CAP;
        if (placed <= cellEmpty && placed <= symbolOut) [best[i][j], move[i][j]] = [placed, 0];
        else if (cellEmpty <= symbolOut) [best[i][j], move[i][j]] = [cellEmpty, 1];
        else [best[i][j], move[i][j]] = [symbolOut, 2];
      }
    }
    cellOf = new Array<number>(S).fill(-1);
    for (let i = S, j = length; i > 0 && j >= 0;) {
      if (j > 0 && move[i][j] === 0) cellOf[--i] = --j;
      else if (j > 0 && move[i][j] === 1) j--;
      else i--;
    }
    const points = cellOf.flatMap((n, i): Array<[number, number]> => (n >= 0 ? [[n, xs[i]]] : []));
    if (points.length < 3) break;
    const [a, b, c] = leastSquares(points, points.length >= length / 2);
    centres = Array.from({ length }, (_, n) => a + b * n + c * n * n);
  }
  return { centres, cellOf };
}

/**
 * A first grid for OCR's symbols: from the first symbol on, each cell a pitch after the last, the
 * pitch a straight fit of the gaps between neighbouring symbols (those about one pitch apart) to
 * where they are (a photo's pitch grows or shrinks along the line by a tenth and more).
 */
function firstGrid(xs: number[], length: number): number[] {
  const gaps = xs.slice(1).map((x, k) => [(x + xs[k]) / 2, x - xs[k]] as [number, number]);
  const typical = [...gaps.map(([, g]) => g)].sort((p, q) => p - q)[Math.floor(gaps.length / 2)];
  const single = gaps.filter(([, g]) => g > 0.75 * typical && g < 1.3 * typical);
  const [a, b] = single.length >= 4 ? leastSquares(single, false) : [typical, 0];
  const centres = [xs[0]];
  while (centres.length < length) {
    const last = centres.at(-1)!;
    centres.push(last + Math.max(1, a + b * (last + typical / 2)));
  }
  return centres;
}

/**
 * OCR's grid of a line is sure when this share of its cells hold a symbol within SURE_GRID_OFFSET
 * of a pitch from the centre (OCR drops a few fillers; a line it misread is off in places).
 */
const SURE_GRID_SHARE = 0.85;
const SURE_GRID_OFFSET = 0.25;
/** …and it left at most this many symbols out (more: the line is longer than the layout's). */
const SURE_GRID_LEFT = 2;

/** A line's cells and the symbols OCR read in each (single characters only), or null when it read fewer than two. */
function cellsOf(line: ReadLine, length: number): { cells: Cells; byCell: ReadLine['symbols'][]; sure: boolean } | null {
  const symbols = line.symbols.filter((s) => s.text.length === 1).sort((a, b) => centerOf(a.box) - centerOf(b.box));
  if (symbols.length < 2) return null;
  const { centres, cellOf } = alignSymbols(
    symbols.map((s) => centerOf(s.box)),
    length,
  );
  const byCell: ReadLine['symbols'][] = Array.from({ length }, () => []);
  cellOf.forEach((n, i) => n >= 0 && byCell[n].push(symbols[i]));
  const cells = { centres, y0: line.box.y0, y1: line.box.y1 };
  const onGrid = cellOf.filter((n, i) => n >= 0 && Math.abs(centerOf(symbols[i].box) - centres[n]) < SURE_GRID_OFFSET * pitchAt(cells, n));
  const left = cellOf.filter((n) => n < 0).length;
  return { cells, byCell, sure: onGrid.length >= SURE_GRID_SHARE * length && left <= SURE_GRID_LEFT };
}

/** The cell whose centre is nearest `x`, or -1 when `x` is beyond half a pitch from the first or last. */
function cellAt(cells: Cells, x: number): number {
  const { centres } = cells;
  let n = 0;
  for (let i = 1; i < centres.length; i++) if (Math.abs(centres[i] - x) < Math.abs(centres[n] - x)) n = i;
  return Math.abs(centres[n] - x) <= pitchAt(cells, n) / 2 ? n : -1;
}

/**
 * One line rebuilt as `length` cells: a cell whose glyph has the filler's shape is a filler; any
 * other takes the symbol read there that fits its position best (a digit where the format wants
 * one). `doubtful`: digit positions where no digit was read (read again on their own); `unread`:
 * cells whose ink is no filler but where OCR read nothing (written `<`: a glyph the line model dropped).
 */
function rebuildLine(
  line: ReadLine,
  length: number,
  shape: string,
  ink: Ink,
): { text: string; cells: Cells; sure: boolean; doubtful: number[]; unread: number[] } | null {
  const aligned = cellsOf(line, length);
  if (!aligned) return null;
  const { cells, byCell } = aligned;
  const doubtful: number[] = [];
  const unread: number[] = [];
  const text = byCell
    .map((candidates, i) => {
      const pitch = pitchAt(cells, i);
      const x0 = Math.round(cells.centres[i] - pitch / 2);
      if (isFiller(ink, x0, Math.round(x0 + pitch), cells.y0, cells.y1)) return '<';
      const best = candidates
        .filter((c) => c.text !== '<')
        .sort((a, b) => Number(fits(b.text, shape[i])) - Number(fits(a.text, shape[i])) || b.confidence - a.confidence)[0];
      if (best && !fits(best.text, shape[i])) doubtful.push(i);
      if (!best) unread.push(i);
      return best?.text ?? '<';
    })
    .join('');
  return { text, cells, sure: aligned.sure, doubtful, unread };
}

/**
 * The cell `i` of a line read again on its own terms: a window of its neighbours read with `charset`
 * only (a line model reads a lone `8` after fillers as `S`; with `<` in it, the fillers around stay
 * fillers), the best symbol other than `<` found in the cell kept; null when none is.
 */
async function rereadCell(region: Buffer, cells: Cells, i: number, text: TextReader, charset: string): Promise<string | null> {
  const meta = await sharp(region).metadata();
  const left = Math.max(0, Math.round(cells.centres[i] - 2 * pitchAt(cells, i)));
  const right = Math.min(meta.width!, Math.round(cells.centres[i] + 2 * pitchAt(cells, i)));
  const height = cells.y1 - cells.y0;
  // a little paper above and below: more would catch the neighbouring lines
  const top = Math.max(0, Math.round(cells.y0 - height / 4));
  const bottom = Math.min(meta.height!, Math.round(cells.y1 + height / 4));
  const window = await sharp(region)
    .extract({ left, top, width: right - left, height: bottom - top })
    .extend({ top: height, bottom: height, left: height, right: height, extendWith: 'copy' })
    .toBuffer();
  const read = await text.read(window, { charset, line: true });
  const offset = left - height;
  const best = read.lines
    .flatMap((line) => line.symbols)
    .filter((s) => s.text.length === 1 && cellAt(cells, centerOf(s.box) + offset) === i)
    .filter((s) => s.text !== '<' && charset.includes(s.text))
    .sort((a, b) => b.confidence - a.confidence)[0];
  return best?.text ?? null;
}

/** Where the document number's first 9 characters are, by line length: line, first and end index. */
const NUMBER_CELLS: Record<number, [number, number, number]> = { 30: [0, 5, 14], 36: [1, 0, 9], 44: [1, 0, 9] };

/**
 * OCR reads a run of fillers after a name as K and L ("SALMA<KLLL<LLLL<<"): trailing name parts
 * made of K and L only are fillers (no name is), when there are two of them or one of 3+.
 */
export function fillNameTail(names: string): string {
  const parts = names.split('<');
  let keep = parts.length;
  while (keep > 0 && /^[KL]*$/.test(parts[keep - 1])) keep -= 1;
  const tail = parts.slice(keep).filter(Boolean);
  if (tail.length < 2 && !tail.some((p) => p.length >= 3)) return names;
  const head = parts.slice(0, keep).join('<');
  return head.padEnd(names.length, '<');
}

const isoDate = (yymmdd: string | null, kind: 'birth' | 'expiry', today: Date): string | null => {
  if (!yymmdd || !/^\d{6}$/.test(yymmdd)) return null;
  const yy = Number(yymmdd.slice(0, 2));
  const currentYy = today.getUTCFullYear() % 100;
  // a birth year is never in the future; an expiry year is at most ~50 years ahead
  const century = kind === 'birth' ? (yy > currentYy ? 1900 : 2000) : yy >= currentYy + 50 ? 1900 : 2000;
  return `${century + yy}-${yymmdd.slice(2, 4)}-${yymmdd.slice(4, 6)}`;
};

/** ICAO 9303 state codes as the zone writes them (`D` for Germany), and the specimens' Utopia. */
const isStateCode = (code: string | null) => code !== null && (code === 'UTO' || code in states);

const CHECKS: Record<string, string> = {
  documentNumberCheckDigit: 'documentNumber',
  birthDateCheckDigit: 'birthDate',
  expirationDateCheckDigit: 'expirationDate',
  personalNumberCheckDigit: 'personalNumber',
  compositeCheckDigit: 'composite',
};

/**
 * Parses corrected MRZ lines, field by field; null when they are no known format. A field with a
 * check digit (document number, dates) is reported only when its own digit holds, whatever the
 * others do; `valid` means every check digit holds. Country codes are reported as read: the
 * document check judges them (ICAO's specimen state `UTO` is in no country list).
 */
export function parseMrz(lines: string[], today = new Date()): MrzReading | null {
  let result;
  try {
    result = parse(lines);
  } catch {
    return null;
  }
  if (!['TD1', 'TD2', 'TD3'].includes(result.format)) return null;
  const f = result.fields;
  const td1 = lines[0].length === 30;
  const failed = new Set(result.details.filter((d) => !d.valid && d.field !== null && d.field in CHECKS).map((d) => CHECKS[d.field!]));
  // `<` in the number's check digit place says the number goes on in the optional field: with
  // that field empty, it is a digit misread (the parser would take it for a long number)
  const [checkPlace, optionalStart] = td1 ? [lines[0][14], lines[0][15]] : [lines[1][9], lines[1][28]];
  if (checkPlace === '<' && optionalStart === '<') failed.add('documentNumber').add('composite');
  const checked = <T>(field: string, value: T): T | null => (failed.has(field) ? null : value);
  const clean = (v: string | null | undefined) => (v ? v.trim() || null : null);
  const issuingState = clean(lines[0].slice(2, 5).replace(/</g, ''));
  const nationality = clean((td1 ? lines[1].slice(15, 18) : lines[1].slice(10, 13)).replace(/</g, ''));
  const unknownStates = Object.entries({ issuingState, nationality })
    .filter(([, code]) => !isStateCode(code))
    .map(([field]) => field);
  const [sexLine, sexCell] = codesOf(lines).sex.at;
  return {
    format: result.format as MrzReading['format'],
    lines,
    valid: failed.size === 0 && unknownStates.length === 0,
    // no check digit covers the sex: a glyph that is no sex code is a misread, so the field is in doubt
    doubtful: SEX_CODE.test(lines[sexLine][sexCell]) ? [] : ['sex'],
    failedChecks: Object.values(CHECKS).filter((field) => failed.has(field)),
    unknownStates,
    documentCode: lines[0].slice(0, 2).replace(/</g, ''),
    issuingState,
    documentNumber: checked('documentNumber', clean(f.documentNumber)),
    dateOfBirth: checked('birthDate', isoDate(td1 ? lines[1].slice(0, 6) : lines[1].slice(13, 19), 'birth', today)),
    expiryDate: checked('expirationDate', isoDate(td1 ? lines[1].slice(8, 14) : lines[1].slice(21, 27), 'expiry', today)),
    nationality,
    sex: f.sex === 'male' ? 'M' : f.sex === 'female' ? 'F' : null,
    surname: clean(f.lastName),
    givenNames: clean(f.firstName),
  };
}

/** How much worse than a cell's best choice another may score and still be tried when a check digit fails. */
const MEND_MARGIN = 0.12;

const fitsShape = (c: string, want: string | undefined) => c === '<' || fits(c, want);

/**
 * Failed check digits mended from the image's own doubts: in a failed field check's cells (its field
 * and itself), one glyph replaced by a look-alike (0/O, 1/I, 8/B…) that scored within
 * MEND_MARGIN of the cell's best, when that alone makes the check hold and breaks no other. One
 * glyph only: two look-alike swaps can cancel out in a check digit (0→O at weights 7 and 3 adds
 * 240), and a glyph the image shows clearly has no close second: a forged digit stays a failed check.
 */
export function mendByChoices(lines: string[], choices: Choice[][][], today: Date): string[] {
  let current = lines;
  for (let round = 0; round < 5; round++) {
    let details;
    try {
      details = parse(current).details;
    } catch {
      return current;
    }
    const failed = details.find((d) => !d.valid && d.field !== null && d.field in CHECKS);
    if (!failed) return current;
    const cells = failed.ranges.flatMap((r) => Array.from({ length: r.end - r.start }, (_, i) => [r.line, r.start + i] as const));
    const failedBefore = parseMrz(current, today)?.failedChecks.length ?? Infinity;
    const mended = cells
      .flatMap(([line, i]) => {
        const cell = choices[line][i];
        const best = cell[0]?.score ?? 0;
        const alike = LOOK_ALIKE[current[line][i]] ?? '';
        return cell
          .filter((c) => c.char !== current[line][i] && alike.includes(c.char) && best - c.score <= MEND_MARGIN)
          .map((c) => ({ line, i, char: c.char, cost: best - c.score }));
      })
      .sort((x, y) => x.cost - y.cost)
      .map(({ line, i, char }) => current.map((text, l) => (l === line ? text.slice(0, i) + char + text.slice(i + 1) : text)))
      .find((candidate) => {
        const reading = parseMrz(candidate, today);
        return reading && reading.failedChecks.length < failedBefore && !reading.failedChecks.includes(CHECKS[failed.field!]);
      });
    if (!mended) return current;
    current = mended;
  }
  return current;
}

/**
 * The zone read glyph by glyph: per line, per cell, the choices its position allows, best first;
 * `match`, the mean score of the cells' first choices (about 0.9 and more in a typeface of the
 * templates, 0.7–0.9 in others, below 0.3 for a grid of the wrong line length).
 */
export interface GlyphReading {
  cells: Choice[][][];
  match: number;
  /** Each line's cell centres (the region's x). */
  centres?: number[][];
}
/** Below this mean score the glyphs are no zone of that layout. */
const MIN_LAYOUT_MATCH = 0.5;
/** From this mean score the zone is in a typeface of the templates: the glyph reading may overrule OCR. */
const KNOWN_TYPEFACE_MATCH = 0.88;

/**
 * The zone read glyph by glyph (mrz-glyphs.ts) as `length`-character lines, each through the
 * glyphs OCR found on it (`rows`, the region's coordinates); null when a line's glyphs sit on no
 * grid of that length.
 */
async function readGlyphs(region: Buffer, rows: Box[][], length: number, given: Array<number[] | null> = []): Promise<GlyphReading | null> {
  const { data, info } = await sharp(region).greyscale().raw().toBuffer({ resolveWithObject: true });
  const grey = { data, width: info.width, height: info.height };
  const tracked = rows.map((glyphs) => trackLine(glyphs, grey.width));
  if (tracked.some((line) => !line)) return null;
  // the zone's lines start and end together: OCR's misses at one line's end are the others' width;
  // and share a capital height: a name line of fillers (`DIALLO<<<…`, the `<` shorter than a
  // capital) measured by its own glyphs cut its letters' tops and feet (read `UJALLD`)
  const lines = (tracked as NonNullable<(typeof tracked)[number]>[]).map((line, _, all) => ({
    ...line,
    x0: Math.min(...all.map((l) => l.x0)),
    x1: Math.max(...all.map((l) => l.x1)),
    capital: Math.max(...all.map((l) => l.capital)),
  }));
  const ink = binarise(grey, lines[0].capital * 2);
  const shapes = SHAPES[length];
  const choices: Choice[][][] = [];
  const grids: number[][] = [];
  const firsts: number[] = [];
  for (const [l, line] of lines.entries()) {
    const centres = given[l] ?? cellCentres(ink, grey.width, grey.height, line, length);
    if (!centres) return null;
    grids.push(centres);
    // only what the position allows, so that mending keeps digits where digits must be
    const allowed = (cell: Choice[], i: number) => cell.filter((c) => fitsShape(c.char, shapes[l][i]));
    const read = await readCells(grey, ink, line, centres);
    choices.push(read.cells.map(allowed));
    // how well the templates fit the glyphs, whichever look-alike the line's typeface prefers
    firsts.push(...read.plain.map((cell, i) => allowed(cell, i)[0]?.score ?? 0));
  }
  const match = firsts.reduce((sum, score) => sum + score, 0) / firsts.length;
  return match >= MIN_LAYOUT_MATCH ? { cells: choices, match, centres: grids } : null;
}

/** How much better than OCR's character the glyph reading's own must score to overrule it. */
const OVERRULE_MARGIN = 0.03;

/**
 * The glyph reading and OCR's line model together, cell by cell: the glyph reading's character
 * unless it matches the glyph hardly better than OCR's (a typeface the templates do not know
 * scores every character alike; OCR's model reads it better).
 */
function combine(glyphs: GlyphReading, ocr: string[] | null): string[] {
  const margin = glyphs.match >= KNOWN_TYPEFACE_MATCH ? OVERRULE_MARGIN : Infinity;
  return glyphs.cells.map((line, l) =>
    line
      .map((cell, i) => {
        const [best] = cell;
        const other = ocr?.[l]?.[i];
        if (!best) return other ?? '<';
        const otherScore = cell.find((c) => c.char === other)?.score;
        // a filler or not is the glyphs' call: OCR's line model inserts and drops fillers
        if (other === '<' || best.char === '<') return best.char;
        return other && otherScore !== undefined && best.score - otherScore < margin ? other : best.char;
      })
      .join(''),
  );
}

/** The sex codes of ICAO 9303: M, F, X, or `<` (unspecified). */
const SEX_CODE = /^[MFX<]$/;

const isState = (cells: string) => isStateCode(cells.replace(/</g, '') || null);

/**
 * The codes no check digit covers: where each sits ([line, first cell]), its length, and whether its
 * cells hold a code (a known ICAO state, fillers dropped; a sex code).
 */
const codesOf = (lines: string[]) => {
  const td1 = lines[0].length === 30;
  return {
    issuingState: { at: [0, 2], length: 3, holds: isState },
    nationality: { at: td1 ? [1, 15] : [1, 10], length: 3, holds: isState },
    sex: { at: td1 ? [1, 7] : [1, 20], length: 1, holds: (cells: string) => SEX_CODE.test(cells) },
  } satisfies Record<string, { at: [number, number]; length: number; holds(cells: string): boolean }>;
};

/**
 * Codes no check digit covers, read as no code, mended from the glyph reader's runner-ups: a state
 * code misread by one glyph (`NLD` read `NID` in Courier Prime, `ERI` read `EPI` in IBM Plex Mono:
 * seventh session) or a sex read as another letter (`F` read `P` in Roboto Mono, in perspective:
 * tenth session) is taken back when exactly one glyph scored within MEND_MARGIN of its cell's best
 * makes a code, and no other does. The mended code stays in doubt.
 */
export function mendCodes(lines: string[], choices: Choice[][][]): { lines: string[]; mended: string[] } {
  let current = lines;
  const mended: string[] = [];
  for (const [field, { at, length, holds }] of Object.entries(codesOf(lines))) {
    const [line, start] = at;
    const code = (text: string) => text.slice(start, start + length);
    if (holds(code(current[line]))) continue;
    const candidates = new Set<string>();
    for (let i = start; i < start + length; i++) {
      const cell = choices[line]?.[i] ?? [];
      const best = cell[0]?.score ?? 0;
      for (const choice of cell) {
        if (choice.char === current[line][i] || best - choice.score > MEND_MARGIN || !/^[A-Z<]$/.test(choice.char)) continue;
        const text = current[line].slice(0, i) + choice.char + current[line].slice(i + 1);
        if (holds(code(text))) candidates.add(text);
      }
    }
    if (candidates.size !== 1) continue;
    const [text] = candidates;
    current = current.map((t, l) => (l === line ? text : t));
    mended.push(field);
  }
  return { lines: current, mended };
}

/**
 * The zone as the glyph reader and OCR read it together; its failed check digits and unknown state
 * codes mended only in a typeface the templates know (elsewhere their scores tell look-alikes apart
 * no better than chance).
 */
export function glyphReading(glyphs: GlyphReading, ocr: string[] | null, today: Date): MrzReading | null {
  const combined = combine(glyphs, ocr);
  const known = glyphs.match >= KNOWN_TYPEFACE_MATCH;
  const codes = known ? mendCodes(combined, glyphs.cells) : { lines: combined, mended: [] };
  const lines = known ? mendByChoices(codes.lines, glyphs.cells, today) : combined;
  const reading = parseMrz(lines, today);
  if (!reading) return null;
  // a mended field holds by its check digit's word only: a forged digit a look-alike happens to satisfy reads the same
  const mended = lines.flatMap((text, l) => [...text].flatMap((ch, i) => (ch === codes.lines[l][i] ? [] : [fieldAt(lines, l, i)])));
  const doubtful = new Set([
    ...reading.doubtful,
    ...codes.mended,
    ...mended.filter((f): f is string => f !== null),
    ...doubtfulFields(reading, glyphs.cells, ocr, today),
  ]);
  return { ...reading, doubtful: [...doubtful] };
}

/** The MrzReading field a cell belongs to (`documentNumber`, `dateOfBirth`, `optionalData`…), null for a check digit or a code. */
function fieldAt(lines: string[], line: number, i: number): string | null {
  // `parse` counts the optional data in the number's ranges (where a long number runs on)
  if (optionalCells(lines).some(([l, k]) => l === line && k === i)) return 'optionalData';
  const names: Record<string, string> = { birthDate: 'dateOfBirth', expirationDate: 'expiryDate' };
  const detail = parse(lines).details.find(
    (d) => d.field !== null && !d.field.endsWith('CheckDigit') && d.ranges.some((r) => r.line === line && r.start <= i && i < r.end),
  );
  return detail?.field ? (names[detail.field] ?? detail.field) : null;
}

/** A name glyph that leads its runner-up by less than this is in doubt when OCR read it otherwise (or did not read the zone). */
const NAME_LEAD = 0.1;
/** A name glyph matched worse than this (a typeface's glyph scores 0.9 and more) is in doubt when OCR read it otherwise, whatever its lead. */
const NAME_MATCH = 0.7;
/** A checked field is in doubt when look-alikes scored within this of their cells' best would pass its check as well. */
const NUMBER_DOUBT = 0.03;
/** The checked fields as `parse` and `MrzReading` name them. */
const CHECKED_FIELDS: Record<string, keyof MrzReading> = {
  documentNumber: 'documentNumber',
  birthDate: 'dateOfBirth',
  expirationDate: 'expiryDate',
};

/** `surname` and/or `givenNames`: the name fields holding a cell `inDoubt` picks. */
function namesInDoubt(
  reading: MrzReading,
  inDoubt: (line: number, i: number) => boolean,
  details = parse(reading.lines).details,
): string[] {
  const { lines } = reading;
  const names = details.find((d) => d.field === 'lastName')?.ranges[0];
  if (!names) return [];
  const surnameEnd = lines[names.line].indexOf('<<', names.start);
  const fields = new Set<string>();
  for (let i = names.start; i < names.end; i++) {
    const field = surnameEnd < 0 || i < surnameEnd ? 'surname' : 'givenNames';
    if (reading[field] && inDoubt(names.line, i)) fields.add(field);
  }
  return [...fields];
}

/**
 * The fields of a reading its glyphs leave in doubt (`MrzReading.doubtful`): a name with a glyph
 * the templates liked no better than another (OCR's reading won), with no ink (the zone prints its
 * fillers: a cell without any lost its glyph to light or scan), or, where OCR read otherwise,
 * leading its runner-up by less than NAME_LEAD or matching worse than NAME_MATCH; a checked field that one or two look-alikes scored
 * within NUMBER_DOUBT of their cells' best would change while every check that held still holds
 * (G and 6 weigh the same modulo 10; 0→O at weights 7 and 3 adds 240). Tuned on the tune corpus:
 * 1 of 9 valid readings with a wrong field left undoubted, 11 % of right ones in doubt.
 */
export function doubtfulFields(reading: MrzReading, cells: Choice[][][], ocr: string[] | null, today: Date): string[] {
  const { lines } = reading;
  const details = parse(lines).details;
  const doubtful = namesInDoubt(
    reading,
    (line, i) => {
      const read = lines[line][i];
      const cell = cells[line][i];
      const score = cell.find((c) => c.char === read)?.score ?? 0;
      const lead = score - Math.max(-Infinity, ...cell.filter((c) => c.char !== read).map((c) => c.score));
      const ocrRead = ocr?.[line]?.[i];
      const ocrDisagrees = !ocr || (ocrRead !== undefined && ocrRead !== read && /[A-Z]/.test(read + ocrRead));
      return score <= 0 || lead <= 0 || (ocrDisagrees && (lead < NAME_LEAD || score < NAME_MATCH));
    },
    details,
  );
  for (const [field, name] of Object.entries(CHECKED_FIELDS)) {
    const check = details.find((d) => d.field === `${field}CheckDigit`);
    if (!check || reading[name] === null) continue;
    const swaps = check.ranges.flatMap(({ line, start, end }) =>
      Array.from({ length: end - start }, (_, k) => start + k).flatMap((i) => {
        const cell = cells[line][i];
        const best = cell[0]?.score ?? 0;
        const alike = LOOK_ALIKE[lines[line][i]] ?? '';
        return cell
          .filter((c) => c.char !== lines[line][i] && alike.includes(c.char) && best - c.score <= NUMBER_DOUBT)
          .map((c) => ({ line, i, char: c.char }));
      }),
    );
    const pairs = swaps.flatMap((a, n) => [
      [a],
      ...swaps
        .slice(n + 1)
        .filter((b) => b.line !== a.line || b.i !== a.i)
        .map((b) => [a, b]),
    ]);
    const passesToo = pairs.some((pair) => {
      const changed = lines.map((text, l) => [...text].map((ch, i) => pair.find((s) => s.line === l && s.i === i)?.char ?? ch).join(''));
      const other = parseMrz(changed, today);
      return (
        other !== null &&
        other[name] !== null &&
        other[name] !== reading[name] &&
        other.failedChecks.every((f) => reading.failedChecks.includes(f))
      );
    });
    if (passesToo) doubtful.push(name);
  }
  if (compositeAloneChose(reading, cells, today)) doubtful.push('optionalData');
  return doubtful;
}

/**
 * Whether the composite check digit alone chose a glyph of the optional data (no other check
 * digit covers it) against the glyph reader: a cell read otherwise than the glyphs' first choice
 * (OCR's look-alike where the glyphs hesitated) whose first choice would make the composite fail.
 * A forged optional digit passes that way (`0` printed, the glyphs 0.91 for `0`, 0.90 for `O`, OCR
 * read `O`, the composite computed for a 4: tune corpus, DejaVu Sans Mono Bold in noise).
 */
function compositeAloneChose(reading: MrzReading, cells: Choice[][][], today: Date): boolean {
  const { lines } = reading;
  if (reading.failedChecks.includes('composite')) return false;
  return optionalCells(lines).some(([line, i]) => {
    const best = cells[line]?.[i]?.[0]?.char;
    if (!best || best === lines[line][i]) return false;
    const changed = lines.map((text, l) => (l === line ? text.slice(0, i) + best + text.slice(i + 1) : text));
    return parseMrz(changed, today)?.failedChecks.includes('composite') ?? false;
  });
}

/**
 * The cells of the optional data, which only the composite check digit covers (TD1's two
 * optional fields, TD2's; TD3's personal number has its own), but for the field a long document
 * number runs on into (`<` in its check digit's place: the number's own check digit covers it).
 */
function optionalCells(lines: string[]): Array<[number, number]> {
  const length = lines[0]?.length;
  const spans: Array<[number, number, number]> = [];
  if (length === 30 && lines[0][14] !== '<') spans.push([0, 15, 30]);
  if (length === 30) spans.push([1, 18, 29]);
  if (length === 36 && lines[1]?.[9] !== '<') spans.push([1, 28, 35]);
  return spans.flatMap(([line, start, end]) => Array.from({ length: end - start }, (_, k): [number, number] => [line, start + k]));
}

/**
 * A zone OCR did not find as lines (a photo in perspective, uneven light): looked for in the ink
 * (two or three lines of 28 glyphs or more at the foot of what is found) and read by the glyph
 * reader alone; null when there is none or its glyphs fit no layout.
 */
async function readUnfoundZone(image: Buffer, today: Date): Promise<MrzReading | null> {
  const { data, info } = await sharp(image).greyscale().raw().toBuffer({ resolveWithObject: true });
  const rows = findZoneLines({ data, width: info.width, height: info.height });
  if (rows.length < 2) return null;
  const readings: MrzReading[] = [];
  for (const length of LAYOUTS[rows.length as 2 | 3]) {
    const glyphs = await readGlyphs(image, rows, length);
    const reading = glyphs && glyphReading(glyphs, null, today);
    if (reading) readings.push(reading);
  }
  return readings.sort((a, b) => a.failedChecks.length - b.failedChecks.length)[0] ?? null;
}

/**
 * Reads the machine-readable zone of a document image, or null when it has none. `lines`: what
 * OCR already read of the whole image (read here when not given). Of the readings of the layouts
 * the glyphs fit (any the line count allows when they fit none), the one with the fewest failed
 * check digits wins; on a tie, the glyph reader's. A zone not read valid is read again from its
 * band straightened (`straightenZone`), which wins when it settles the zone.
 */
export async function readMrz(
  image: Buffer,
  text: TextReader,
  opts: { lines?: ReadLine[]; today?: Date } = {},
): Promise<MrzReading | null> {
  const today = opts.today ?? new Date();
  // a tilted page (a phone held askew, a crooked scan) is levelled first: the zone's cells are found along horizontal lines
  const skew = await estimateSkew(image);
  const tilted = Math.abs(skew) >= MIN_SKEW_DEGREES;
  if (tilted) image = await sharp(image).rotate(-skew, { background: '#ffffff' }).jpeg({ quality: 95 }).toBuffer();
  const reading = await readPage(image, text, (!tilted && opts.lines) || null, today);
  if (reading?.valid) return reading;
  // a photo in strong perspective: levelled on average, the zone's rows may still slope (OCR ran
  // two of them together) and are read again straightened, OCR on the band alone
  const band = await straightenZone(image);
  const straight = band && (await readPage(band, text, null, today));
  return straight && (!reading || settled(straight)) ? straight : reading;
}

/**
 * Whether a reading settles its zone: valid, no field in doubt but a name (no check digit covers
 * one). A re-read that merely fails fewer checks replaces none: on the tune corpus it read a forged
 * number's look-alike as one that passes its check digit, and a forged composite as valid with the
 * optional data in doubt.
 */
const settled = (reading: MrzReading) => reading.valid && reading.doubtful.every((field) => field === 'surname' || field === 'givenNames');

/**
 * The zone of a levelled image (`lines`: what OCR read of it, read here when null): the lines OCR
 * found, or the ink's when it found none.
 */
async function readPage(image: Buffer, text: TextReader, lines: ReadLine[] | null, today: Date): Promise<MrzReading | null> {
  const found = lines ?? (await text.read(image)).lines;
  const zone = mrzLines(found);
  if (zone.length < 2) return readUnfoundZone(image, today);
  const reading = await readZone(image, zone, text, today);
  // two lines that read as no valid TD2 or TD3: a TD1 zone whose first line OCR made little of
  // ("IRTC 1", bold at 150 dpi) may sit one line above, its left edge with theirs
  const above = zone.length === 2 && !reading?.valid ? lineAbove(found, zone) : null;
  if (above) {
    const withAbove = await readZone(image, [above, ...zone], text, today);
    if (withAbove && (!reading || withAbove.failedChecks.length < reading.failedChecks.length)) return withAbove;
  }
  // three lines, but a TD2 or TD3 zone under a line of text OCR took for one of it (the page's
  // heading read through noise as "F<<<<<<<<<<<<<<<IMIRAINDEARMET"): its last two lines read on their own
  if (zone.length === 3 && !reading?.valid) {
    const lastTwo = await readZone(image, zone.slice(1), text, today);
    if (lastTwo && (!reading || lastTwo.failedChecks.length < reading.failedChecks.length)) return lastTwo;
  }
  return reading;
}

/** The line OCR found one zone line's pitch above the zone's first, its left edge with theirs (within a glyph or two); null when there is none. */
function lineAbove(lines: ReadLine[], zone: ReadLine[]): ReadLine | null {
  const [first, second] = zone;
  const pitch = second.box.y0 - first.box.y0;
  const height = first.box.y1 - first.box.y0;
  return (
    lines.find(
      (l) =>
        l.symbols.length >= 3 && Math.abs(first.box.y0 - l.box.y0 - pitch) < 0.3 * pitch && Math.abs(l.box.x0 - first.box.x0) < 2 * height,
    ) ?? null
  );
}

/** The ink's grid is off where a cell's centre is this share of a pitch from OCR's sure grid's. */
const OFF_GRID = 0.4;

/**
 * The glyphs read again on OCR's grid (its symbols aligned with the cells, `alignSymbols`) where
 * that grid is sure and the ink gave none (glyphs touching in a bold or blurred photo) or one off
 * by OFF_GRID of a pitch somewhere (a photo's run of touching glyphs counted as one, and a speck
 * as another: the glyphs one cell off mid-line); of the two grids, each line keeps the one whose
 * cells the templates match better on average. `glyphReadings` updated for `length`.
 */
async function gridFromOcr(
  region: Buffer,
  rows: Box[][],
  length: number,
  rebuilt: Array<{ cells: Cells; sure: boolean }>,
  glyphReadings: Map<number, GlyphReading>,
): Promise<void> {
  const current = glyphReadings.get(length);
  const given = rebuilt.map(({ cells, sure }, l) => {
    if (!sure) return null;
    const ink = current?.centres?.[l];
    const off = !ink || ink.some((x, n) => Math.abs(x - cells.centres[n]) > OFF_GRID * pitchAt(cells, n));
    return off ? cells.centres : null;
  });
  if (!given.some(Boolean)) return;
  const glyphs = await readGlyphs(region, rows, length, given);
  if (!glyphs) return;
  if (!current) {
    glyphReadings.set(length, glyphs);
    return;
  }
  // line by line, the grid whose cells the templates match better (OCR's grid is off where it
  // placed a run of fillers it read as K and L; the ink's where touching glyphs made one run)
  const better = glyphs.cells.map((_, l) => (lineMatch(glyphs, l) > lineMatch(current, l) ? glyphs : current));
  const cells = better.map((reading, l) => reading.cells[l]);
  const firsts = cells.flat().map((cell) => cell[0]?.score ?? 0);
  const match = firsts.reduce((sum, score) => sum + score, 0) / firsts.length;
  glyphReadings.set(length, { cells, match, centres: better.map((reading, l) => reading.centres![l]) });
}

/** The mean score of a line's cells' first choices. */
const lineMatch = (glyphs: GlyphReading, l: number) =>
  glyphs.cells[l].reduce((sum, cell) => sum + (cell[0]?.score ?? 0), 0) / glyphs.cells[l].length;

/** A layout whose glyphs match worse than another layout's by more than this is not the zone's. */
const LAYOUT_MARGIN = 0.15;

/** The zone whose lines OCR found (`zone`, two or three) read by the glyph reader and OCR's line model. */
async function readZone(image: Buffer, zone: ReadLine[], text: TextReader, today: Date): Promise<MrzReading | null> {
  const meta = await sharp(image).metadata();
  const bounds = union(zone.map((l) => l.box));
  // OCR reads a glyph at the edge of an image badly: keep a margin of paper around the zone
  const lineHeight = (bounds.y1 - bounds.y0) / zone.length;
  const crop: Box = {
    x0: Math.max(0, Math.round(bounds.x0 - 2 * lineHeight)),
    y0: Math.max(0, Math.round(bounds.y0 - lineHeight / 2)),
    x1: Math.min(meta.width ?? bounds.x1, Math.round(bounds.x1 + 2 * lineHeight)),
    y1: Math.min(meta.height ?? bounds.y1, Math.round(bounds.y1 + lineHeight / 2)),
  };
  // a small zone (a scan at 150–200 dpi: glyphs 12–16 px tall) is enlarged before its glyphs are read
  const scale = lineHeight < MIN_LINE_HEIGHT ? MIN_LINE_HEIGHT / lineHeight : 1;
  let cut = sharp(image).extract({ left: crop.x0, top: crop.y0, width: crop.x1 - crop.x0, height: crop.y1 - crop.y0 });
  if (scale > 1)
    cut = sharp(await cut.png().toBuffer())
      .resize(Math.round((crop.x1 - crop.x0) * scale), null, { kernel: 'lanczos3' })
      .png();
  const region = await cut.toBuffer();
  // the glyphs OCR found on each line, in the region's coordinates
  const rows = zone.map((l) =>
    l.symbols.map(({ box }) => ({
      x0: (box.x0 - crop.x0) * scale,
      y0: (box.y0 - crop.y0) * scale,
      x1: (box.x1 - crop.x0) * scale,
      y1: (box.y1 - crop.y0) * scale,
    })),
  );
  const glyphReadings = new Map<number, GlyphReading>();
  for (const length of LAYOUTS[zone.length as 2 | 3] ?? []) {
    const glyphs = await readGlyphs(region, rows, length);
    if (glyphs) glyphReadings.set(length, glyphs);
  }
  // the layouts the glyphs fit nearly as well as the best one: a TD3 line's first 36 glyphs fit a
  // TD2 grid at 0.7 (0.98 on its own), and that misreading failed one check digit of a forged
  // TD3 zone where the right layout failed two
  const byGlyphs = (ocr: MrzReading[]) => {
    const best = Math.max(...[...glyphReadings.values()].map((g) => g.match));
    return [...glyphReadings]
      .filter(([, glyphs]) => glyphs.match >= best - LAYOUT_MARGIN)
      .flatMap(([length, glyphs]) => glyphReading(glyphs, ocr.find((r) => r.lines[0].length === length)?.lines ?? null, today) ?? []);
  };
  const reread = (await text.read(region, { charset: MRZ_CHARSET })).lines.filter((l) => l.text.replace(/\s/g, '').length >= 20);
  if (reread.length !== zone.length) return byGlyphs([]).sort((a, b) => a.failedChecks.length - b.failedChecks.length)[0] ?? null;
  // the re-read's boxes are in the region's coordinates
  const ink = await inkOf(region);
  const readings: MrzReading[] = [];
  // the layouts whose grid the glyphs fit, when they fit any (OCR's line model fits a line to any length)
  const layouts: number[] = glyphReadings.size ? [...glyphReadings.keys()] : [...(LAYOUTS[reread.length as 2 | 3] ?? [])];
  // every layout is tried on OCR's grid: the ink's may fit the wrong one only (a TD3 photo's glyphs on a TD2 grid)
  for (const length of LAYOUTS[reread.length as 2 | 3] ?? []) {
    const rebuilt = reread.map((line, l) => rebuildLine(line, length, SHAPES[length][l], ink));
    if (rebuilt.some((line) => !line)) continue;
    await gridFromOcr(region, rows, length, rebuilt as NonNullable<(typeof rebuilt)[number]>[], glyphReadings);
    if (!layouts.includes(length)) continue;
    const lines: string[] = [];
    for (const line of rebuilt as NonNullable<(typeof rebuilt)[number]>[]) {
      const chars = [...line.text];
      for (const i of line.doubtful) chars[i] = (await rereadCell(region, line.cells, i, text, '0123456789<')) ?? chars[i];
      lines.push(chars.join(''));
    }
    const shaped = correctByShape(lines);
    // the names: on their own line (TD1's third), after the state code on the first (TD2, TD3)
    const named =
      shaped.length === 3
        ? [shaped[0], shaped[1], fillNameTail(shaped[2])]
        : [shaped[0].slice(0, 5) + fillNameTail(shaped[0].slice(5)), shaped[1]];
    let reading = parseMrz(named, today);
    // a number whose check digit fails: its look-alike glyphs (0/O, 1/I, 8/B…) are read again one
    // by one, each choosing only among its look-alikes; the image decides, the check digit then judges
    if (reading?.failedChecks.includes('documentNumber')) {
      const [l, from, to] = NUMBER_CELLS[length];
      const chars = [...named[l]];
      for (let i = from; i < to; i++) {
        const alike = LOOK_ALIKE[chars[i]];
        if (alike)
          chars[i] =
            (await rereadCell(region, (rebuilt[l] as NonNullable<(typeof rebuilt)[number]>).cells, i, text, `${alike}<`)) ?? chars[i];
      }
      reading = parseMrz(
        named.map((line, n) => (n === l ? chars.join('') : line)),
        today,
      );
    }
    // a name glyph OCR dropped reads as a filler: no check digit would notice
    const lineCells = rebuilt as NonNullable<(typeof rebuilt)[number]>[];
    if (reading)
      readings.push({ ...reading, doubtful: [...reading.doubtful, ...namesInDoubt(reading, (l, i) => lineCells[l].unread.includes(i))] });
  }
  // the glyph reader's, when its cells are found: OCR's reading alone could "mend" a forged zone
  const fewestFailed = (all: MrzReading[]) => all.sort((a, b) => a.failedChecks.length - b.failedChecks.length)[0] ?? null;
  return fewestFailed(byGlyphs(readings)) ?? fewestFailed(readings);
}
