import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

/**
 * The machine-readable zone read glyph by glyph, without a language model: the zone is
 * monospaced and its line lengths are known, so each line's cells are found from the ink itself
 * (a regular grid fitted to the glyphs' centres), and each cell's glyph is compared with the
 * MRZ alphabet rendered in OCR-B (the typeface of real zones) and a common monospace font. Every
 * cell keeps its ranked choices with their scores (each template font drawn at the line's own
 * stroke weight: thickened for a bold zone, thinned for a thin one): a check digit that fails may then be mended
 * only where the image itself leaves two readings close (a second choice), never by the check
 * digit alone.
 */

export const MRZ_CHARSET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';

/** Glyphs a reader takes for one another in the MRZ alphabet (a document number may hold either). */
export const LOOK_ALIKE: Record<string, string> = {
  '0': '0OQD',
  O: '0OQD',
  Q: '0OQD',
  D: '0OQD',
  '1': '1I',
  I: '1I',
  '2': '2Z',
  Z: '2Z',
  '5': '5S',
  S: '5S',
  '6': '6G',
  G: '6G',
  '8': '8B',
  B: '8B',
};
/** The round look-alikes, told apart by their centre too (a zero's dot or slash, an O's hole). */
const ROUND = LOOK_ALIKE.O;
/**
 * How much a round look-alike's score loses per unit of centre darkness it differs by from the
 * template's (0 paper – 1 ink; DejaVu Sans Mono's dotted zero 0.42, every O 0): a clean DejaVu
 * Sans Mono 0 had scored 0.951 against its O's 0.844, close enough for a forged number's failed
 * check to be "mended" by reading it O (bold: 0.948 against 0.889). Chosen on the clean pages of
 * tune seed 4; other glyphs' scores are left as they were.
 */
const CENTRE_WEIGHT = 0.3;

/** A greyscale image, one byte per pixel (0 black). */
export interface Grey {
  data: Uint8Array;
  width: number;
  height: number;
}

/** One choice for a cell: a character and how well the glyph matches it (correlation, at most 1). */
export interface Choice {
  char: string;
  score: number;
}

/** Glyphs are compared on a grid of this many columns × rows of their ink box. */
const GRID_COLUMNS = 8;
const GRID_ROWS = 12;

interface Features {
  grid: Float64Array;
  /** Width over height of the ink box (no height feature: OCR-B's digits are taller than its capitals, so a line's capital height depends on its mix). */
  aspect: number;
  /** Mean darkness of the box's centre: a dotted or slashed zero's mark, an O's hole. */
  centre: number;
}

/**
 * The template fonts: OCR-B (shipped in data/fonts), and two common monospace typefaces of
 * different build (dependencies): DejaVu Sans Mono (sans-serif, the Linux default) and Courier
 * Prime (a Courier, slab serifs).
 */
function templateFonts(): Array<{ file: string; family: string }> {
  const fonts: Array<{ file: string; family: string }> = [];
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = path.join(dir, 'data', 'fonts', 'OCRB.otf');
    if (existsSync(file)) {
      fonts.push({ file, family: 'OCR B' });
      break;
    }
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  const require = createRequire(import.meta.url);
  fonts.push({ file: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansMono.ttf'), family: 'DejaVu Sans Mono' });
  fonts.push({ file: require.resolve('@expo-google-fonts/courier-prime/400Regular/CourierPrime_400Regular.ttf'), family: 'Courier Prime' });
  return fonts;
}

/** Subtracts the mean and scales to unit length, so a dot product is a correlation. */
function standardise(grid: Float64Array): Float64Array {
  const mean = grid.reduce((s, v) => s + v, 0) / grid.length;
  let norm = 0;
  for (let i = 0; i < grid.length; i++) {
    grid[i] -= mean;
    norm += grid[i] * grid[i];
  }
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < grid.length; i++) grid[i] /= norm;
  return grid;
}

/** The rows and columns of the grid whose mean darkness is a glyph's centre (a zero's dot or slash, an O's hole). */
const CENTRE_ROWS = [4, 8] as const;
const CENTRE_COLUMNS = [3, 5] as const;

/**
 * The features of a glyph from the darkness (0 paper – 1 ink) of its ink box: the grid, each grid
 * cell averaged by sampling 3×3 points bilinearly (a glyph of 15 px and one of 60 px alike), and
 * its width over height; and the darkness of its centre.
 */
function featuresOf(darkness: (x: number, y: number) => number, box: { x0: number; y0: number; x1: number; y1: number }): Features {
  const grid = new Float64Array(GRID_COLUMNS * GRID_ROWS);
  const w = box.x1 - box.x0;
  const h = box.y1 - box.y0;
  for (let r = 0; r < GRID_ROWS; r++) {
    for (let c = 0; c < GRID_COLUMNS; c++) {
      let sum = 0;
      for (let sy = 0; sy < 3; sy++) {
        for (let sx = 0; sx < 3; sx++) {
          sum += darkness(box.x0 + ((c + (sx + 0.5) / 3) / GRID_COLUMNS) * w, box.y0 + ((r + (sy + 0.5) / 3) / GRID_ROWS) * h);
        }
      }
      grid[r * GRID_COLUMNS + c] = sum / 9;
    }
  }
  let centre = 0;
  for (let r = CENTRE_ROWS[0]; r < CENTRE_ROWS[1]; r++)
    for (let c = CENTRE_COLUMNS[0]; c < CENTRE_COLUMNS[1]; c++) centre += grid[r * GRID_COLUMNS + c];
  centre /= (CENTRE_ROWS[1] - CENTRE_ROWS[0]) * (CENTRE_COLUMNS[1] - CENTRE_COLUMNS[0]);
  return { grid: standardise(grid), aspect: w / h, centre };
}

/** Bilinear darkness of an image given per pixel by `at` (outside: paper). */
function bilinear(at: (x: number, y: number) => number, width: number, height: number) {
  return (x: number, y: number) => {
    const fx = x - 0.5;
    const fy = y - 0.5;
    const x0 = Math.floor(fx);
    const y0 = Math.floor(fy);
    const tx = fx - x0;
    const ty = fy - y0;
    const px = (xx: number, yy: number) => (xx < 0 || yy < 0 || xx >= width || yy >= height ? 0 : at(xx, yy));
    return (
      px(x0, y0) * (1 - tx) * (1 - ty) + px(x0 + 1, y0) * tx * (1 - ty) + px(x0, y0 + 1) * (1 - tx) * ty + px(x0 + 1, y0 + 1) * tx * ty
    );
  };
}

interface Template extends Features {
  char: string;
}

/** One template font drawn at one stroke weight. */
interface Weighted {
  font: string;
  /** Dilations (thicker) or erosions (thinner, negative) of its 64 px rendering, one pixel each. */
  step: number;
  glyphs: Template[];
}

/**
 * The stroke weights the templates are drawn at besides their own: each font's glyphs thickened
 * (a grey dilation, pixels of a 64 px rendering) or thinned, so that a bold zone, or a blurred or
 * thin one, meets templates of its own weight.
 */
const WEIGHT_STEPS = [-2, -1, 0, 1, 2, 3, 4, 5];

/** A grey morphology step on a white-on-black rendering: each pixel the max (dilate) or min (erode) of its 4-neighbourhood and itself. */
function morph(data: Float64Array, width: number, height: number, dilate: boolean): Float64Array {
  const out = new Float64Array(data.length);
  const pick = dilate ? Math.max : Math.min;
  const px = (x: number, y: number) => (x < 0 || y < 0 || x >= width || y >= height ? 0 : data[y * width + x]);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) out[y * width + x] = pick(px(x, y), px(x - 1, y), px(x + 1, y), px(x, y - 1), px(x, y + 1));
  return out;
}

/** A glyph rendering (0–1, ink 1) at `step` weight steps, padded, re-cropped to its ink. */
function reweigh(glyph: { data: Float64Array; width: number; height: number }, step: number) {
  const pad = Math.max(0, step) + 1;
  const width = glyph.width + 2 * pad;
  const height = glyph.height + 2 * pad;
  let data: Float64Array = new Float64Array(width * height);
  for (let y = 0; y < glyph.height; y++)
    for (let x = 0; x < glyph.width; x++) data[(y + pad) * width + x + pad] = glyph.data[y * glyph.width + x];
  for (let k = 0; k < Math.abs(step); k++) data = morph(data, width, height, step > 0);
  let box = { x0: width, y0: height, x1: 0, y1: 0 };
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (data[y * width + x] > 0)
        box = { x0: Math.min(box.x0, x), y0: Math.min(box.y0, y), x1: Math.max(box.x1, x + 1), y1: Math.max(box.y1, y + 1) };
  return { at: (x: number, y: number) => (x < 0 || y < 0 || x >= width || y >= height ? 0 : data[y * width + x]), box };
}

/**
 * How much better than a font's own weight another must match a line (the mean of its cells' best
 * scores) to replace it: a bold zone gains 0.05–0.1 from a thicker one, an OCR-B zone scanned
 * small and enlarged 0.01–0.025 (and read 0 and O alike at that weight).
 */
const OWN_WEIGHT_MARGIN = 0.03;

let templates: Promise<Weighted[]> | null = null;

/** The alphabet rendered in every template font at every weight, measured once per process. */
export function glyphTemplates(): Promise<Weighted[]> {
  templates ??= (async () => {
    const all: Weighted[] = [];
    for (const font of templateFonts()) {
      const render = async (char: string) => {
        const { data, info } = await sharp({
          text: { text: char === '<' ? '&lt;' : char, fontfile: font.file, font: `${font.family} 64px` },
        })
          .extractChannel(0)
          .raw()
          .toBuffer({ resolveWithObject: true });
        return { data: Float64Array.from(data, (v) => v / 255), width: info.width, height: info.height };
      };
      const rendered = [];
      for (const char of MRZ_CHARSET) rendered.push({ char, glyph: await render(char) });
      for (const step of WEIGHT_STEPS) {
        const glyphs = rendered.map(({ char, glyph }) => {
          const { at, box } = reweigh(glyph, step);
          return { char, ...featuresOf(bilinear(at, Infinity, Infinity), box) };
        });
        all.push({ font: font.family, step, glyphs });
      }
    }
    return all;
  })();
  return templates;
}

/**
 * Which pixels are ink: Sauvola's local threshold (mean and deviation over a window about two
 * glyphs wide), which holds under uneven light where one threshold for the zone does not.
 */
export function binarise(image: Grey, window: number): Uint8Array {
  const { data, width, height } = image;
  const stride = width + 1;
  const sum = new Float64Array(stride * (height + 1));
  const squares = new Float64Array(stride * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    let rowSquares = 0;
    for (let x = 0; x < width; x++) {
      const v = data[y * width + x];
      row += v;
      rowSquares += v * v;
      sum[(y + 1) * stride + x + 1] = sum[y * stride + x + 1] + row;
      squares[(y + 1) * stride + x + 1] = squares[y * stride + x + 1] + rowSquares;
    }
  }
  const half = Math.max(4, Math.round(window / 2));
  const ink = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const y0 = Math.max(0, y - half);
    const y1 = Math.min(height, y + half + 1);
    for (let x = 0; x < width; x++) {
      const x0 = Math.max(0, x - half);
      const x1 = Math.min(width, x + half + 1);
      const n = (x1 - x0) * (y1 - y0);
      const s = sum[y1 * stride + x1] - sum[y0 * stride + x1] - sum[y1 * stride + x0] + sum[y0 * stride + x0];
      const q = squares[y1 * stride + x1] - squares[y0 * stride + x1] - squares[y1 * stride + x0] + squares[y0 * stride + x0];
      const mean = s / n;
      const deviation = Math.sqrt(Math.max(0, q / n - mean * mean));
      // k = 0.3, R = 128: a flat patch of paper (small deviation) stays paper
      ink[y * width + x] = data[y * width + x] < mean * (1 + 0.3 * (deviation / 128 - 1)) ? 1 : 0;
    }
  }
  return ink;
}

/** A line of the zone: its capitals' middle at column x is `y0 + slope·x`, `capital` pixels tall. */
export interface Line {
  y0: number;
  slope: number;
  capital: number;
  /** Where OCR found its first and last glyph: ink beyond (a table's edge in a photo) is not the line's. */
  x0: number;
  x1: number;
}

const middleAt = (line: Line, x: number) => line.y0 + line.slope * x;

/**
 * The line through the glyphs OCR found on it (their boxes): the middles of their boxes fitted by
 * the median of pairwise slopes (Theil–Sen: a few glyphs misplaced by OCR do not tilt it), so a
 * line tilted by a photo's perspective (which levelling the page does not straighten: its lines
 * converge) is followed where it goes; capital height, the tall glyphs' box height.
 */
export function trackLine(glyphs: ReadonlyArray<{ x0: number; y0: number; x1: number; y1: number }>, width: number): Line | null {
  if (glyphs.length < 3) return null;
  const points = glyphs.map((g) => [(g.x0 + g.x1) / 2, (g.y0 + g.y1) / 2] as const);
  const slopes: number[] = [];
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      const dx = points[j][0] - points[i][0];
      if (Math.abs(dx) > 1) slopes.push((points[j][1] - points[i][1]) / dx);
    }
  }
  const median = (xs: number[]) => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)];
  const slope = median(slopes);
  const y0 = median(points.map(([x, y]) => y - slope * x));
  const heights = glyphs.map((g) => g.y1 - g.y0).sort((p, q) => p - q);
  const capital = heights[Math.floor(heights.length * 0.75)];
  const x0 = Math.max(0, Math.round(Math.min(...glyphs.map((g) => g.x0)) - capital * 0.5));
  const x1 = Math.min(width, Math.round(Math.max(...glyphs.map((g) => g.x1)) + capital * 0.5));
  return { y0, slope, capital, x0, x1 };
}

/**
 * The centres of a line's `length` cells: runs of inked columns are glyphs (a run twice as wide is
 * two glyphs touching); the first and last glyph fix a first grid, which a least-squares fit of
 * every glyph's centre then refines (a quadratic term absorbs a photo's perspective). Null when
 * the glyphs do not sit on a grid of that length.
 */
export function cellCentres(ink: Uint8Array, width: number, height: number, line: Line, length: number): number[] | null {
  const columns = new Uint16Array(width);
  for (let x = line.x0; x < line.x1; x++) {
    const middle = middleAt(line, x);
    const y0 = Math.max(0, Math.round(middle - line.capital / 2));
    const y1 = Math.min(height, Math.round(middle + line.capital / 2));
    for (let y = y0; y < y1; y++) columns[x] += ink[y * width + x];
  }
  const runs: Array<{ x0: number; x1: number }> = [];
  for (let x = 0; x < width; x++) {
    if (!columns[x]) continue;
    const last = runs.at(-1);
    if (last && last.x1 === x) last.x1 = x + 1;
    else runs.push({ x0: x, x1: x + 1 });
  }
  // specks (a pixel or two of noise) are no glyphs
  const glyphs = runs.filter((r) => r.x1 - r.x0 >= Math.max(2, line.capital / 8));
  if (glyphs.length < length / 3) return null;
  const centre = (r: { x0: number; x1: number }) => (r.x0 + r.x1) / 2;
  // the line's extent: the zone fills every cell (fillers are ink), so its first and last cells hold glyphs
  const first = glyphs[0];
  const last = glyphs.at(-1)!;
  // one run per cell (glyphs apart, the usual case): the runs are the cells, in order
  if (glyphs.length === length) {
    const [a, b, c] = leastSquares(
      glyphs.map((run, n) => [n, centre(run)]),
      true,
    );
    return Array.from({ length }, (_, n) => a + b * n + c * n * n);
  }
  let fit = [centre(first), (centre(last) - centre(first)) / (length - 1), 0];
  for (let round = 0; round < 3; round++) {
    const [a, b, c] = fit;
    const grid = Array.from({ length }, (_, n) => a + b * n + c * n * n);
    const points: Array<[number, number]> = [];
    for (const run of glyphs) {
      if (run.x1 - run.x0 > 1.2 * b) continue;
      // the nearest cell of the grid (a perspective's grid widens along the line)
      const n = grid.reduce((best, x, i) => (Math.abs(x - centre(run)) < Math.abs(grid[best] - centre(run)) ? i : best), 0);
      if (Math.abs(centre(run) - grid[n]) < (round ? 0.3 : 0.4) * b) points.push([n, centre(run)]);
    }
    // most glyphs on the grid: a grid of another line length fits every other glyph at best
    if (points.length < (round === 2 ? 0.7 : 0.5) * length) return null;
    fit = leastSquares(points, points.length >= length * 0.6 && round > 0);
  }
  const [a, b, c] = fit;
  return Array.from({ length }, (_, n) => a + b * n + c * n * n);
}

/** Fits x = a + b·n (+ c·n²) to the points (n, x). */
export function leastSquares(points: Array<[number, number]>, quadratic: boolean): number[] {
  const k = quadratic ? 3 : 2;
  const m = Array.from({ length: k }, () => new Array<number>(k + 1).fill(0));
  for (const [n, x] of points) {
    const basis = [1, n, n * n].slice(0, k);
    for (let i = 0; i < k; i++) {
      for (let j = 0; j < k; j++) m[i][j] += basis[i] * basis[j];
      m[i][k] += basis[i] * x;
    }
  }
  for (let col = 0; col < k; col++) {
    for (let r = col + 1; r < k; r++) {
      const f = m[r][col] / m[col][col];
      for (let c = col; c <= k; c++) m[r][c] -= f * m[col][c];
    }
  }
  const x = new Array<number>(k).fill(0);
  for (let r = k - 1; r >= 0; r--) x[r] = (m[r][k] - x.reduce((s, v, i) => (i > r ? s + m[r][i] * v : s), 0)) / m[r][r];
  return quadratic ? x : [...x, 0];
}

/**
 * Where a glyph's ink is in its cell: the rows of its tallest run of inked rows, the columns
 * inked in those rows. A row or column counts only with two ink pixels or more: a speck of noise
 * beside a glyph would widen its box, and width is what tells an O from a 0.
 */
function glyphBox(ink: Uint8Array, width: number, x0: number, x1: number, y0: number, y1: number) {
  let best: { y0: number; y1: number } | null = null;
  let runStart = -1;
  for (let y = y0; y <= y1; y++) {
    let count = 0;
    if (y < y1) for (let x = x0; x < x1 && count < 2; x++) count += ink[y * width + x];
    const inked = count >= 2;
    if (inked && runStart < 0) runStart = y;
    if (!inked && runStart >= 0) {
      if (!best || y - runStart > best.y1 - best.y0) best = { y0: runStart, y1: y };
      runStart = -1;
    }
  }
  if (!best) return null;
  const runs: Array<{ x0: number; x1: number }> = [];
  for (let x = x0; x < x1; x++) {
    let count = 0;
    for (let y = best.y0; y < best.y1 && count < 2; y++) count += ink[y * width + x];
    if (count < 2) continue;
    const last = runs.at(-1);
    if (last && last.x1 === x) last.x1 = x + 1;
    else runs.push({ x0: x, x1: x + 1 });
  }
  // every glyph of the alphabet is one run of columns: a narrow run apart at the cell's edge is a
  // neighbour's serif reaching in (Courier's A beside an I); the run nearest the centre stays (a thin I off centre)
  if (!runs.length) return null;
  const centre = (x0 + x1) / 2;
  const distance = (r: { x0: number; x1: number }) => Math.max(0, r.x0 - centre, centre - r.x1);
  const nearest = runs.reduce((a, b) => (distance(b) < distance(a) ? b : a));
  const edge = (x1 - x0) / 4;
  const own = runs.filter((r) => r === nearest || !((r.x0 === x0 || r.x1 === x1) && r.x1 - r.x0 < edge));
  return { x0: own[0].x0, y0: best.y0, x1: own.at(-1)!.x1, y1: best.y1 };
}

/**
 * A line's glyphs are compared with one template font alone when it matches them this well (mean
 * of the cells' best scores: clean OCR-B lines 0.96–0.98; Roboto Mono's, which no template is of,
 * match DejaVu Sans Mono's at 0.86–0.92) and better than any other font by OWN_FONT_LEAD (OCR-B
 * lines lead by 0.15–0.2, Roboto Mono's too: they lost the other fonts' shapes and misread 1 as J).
 */
const OWN_FONT_MATCH = 0.95;
const OWN_FONT_LEAD = 0.1;

/**
 * Ranks the alphabet for every cell of one line: the best score per character over the template
 * fonts, each drawn at the stroke weight that matches the line best (a bold zone against its
 * templates' regular weight scored 0 and O, 8 and B alike); `cells` with the first choice's
 * look-alikes scored in the line's typeface, `plain` without (how well the templates fit).
 */
export async function readCells(
  image: Grey,
  ink: Uint8Array,
  line: Line,
  centres: number[],
): Promise<{ cells: Choice[][]; plain: Choice[][] }> {
  const all = await glyphTemplates();
  const pitch = (centres.at(-1)! - centres[0]) / (centres.length - 1);
  const capital = line.capital;
  const boxes = centres.map((cx) => {
    // a little above and below the capitals (a blurred glyph spreads), not so far as the next line
    const top = Math.max(0, Math.round(middleAt(line, cx) - capital * 0.75));
    const bottom = Math.min(image.height, Math.round(middleAt(line, cx) + capital * 0.75));
    return glyphBox(
      ink,
      image.width,
      Math.max(0, Math.round(cx - pitch / 2)),
      Math.min(image.width, Math.round(cx + pitch / 2)),
      top,
      bottom,
    );
  });
  const cells = boxes.map((box) => {
    if (!box) return null;
    // darkness relative to the cell's own paper and ink (uneven light)
    const values: number[] = [];
    for (let y = box.y0; y < box.y1; y++) for (let x = box.x0; x < box.x1; x++) values.push(image.data[y * image.width + x]);
    values.sort((a, b) => a - b);
    const darkest = values[Math.floor(values.length * 0.05)];
    const paper = Math.max(values.at(-1)!, darkest + 1);
    const at = (x: number, y: number) => Math.min(1, Math.max(0, (paper - image.data[y * image.width + x]) / (paper - darkest)));
    return { box, at };
  });
  const features = cells.map((cell) => (cell ? featuresOf(bilinear(cell.at, image.width, image.height), cell.box) : null));
  /** Each cell's score per character against one set of templates. */
  const scoresOf = (glyphs: Template[]) =>
    features.map((f) => {
      const best = new Map<string, number>();
      if (!f) return best;
      for (const t of glyphs) {
        let correlation = 0;
        for (let i = 0; i < t.grid.length; i++) correlation += t.grid[i] * f.grid[i];
        const centre = ROUND.includes(t.char) ? CENTRE_WEIGHT * Math.abs(f.centre - t.centre) : 0;
        const score = correlation - 0.5 * Math.abs(Math.log(f.aspect / t.aspect)) - centre;
        if (score > (best.get(t.char) ?? -Infinity)) best.set(t.char, score);
      }
      return best;
    });
  // per font, the weight whose glyphs match the line's best on average (a bold zone, a thin or a blurred one)
  // (its own weight unless another matches clearly better: an enlarged or blurred zone looks a
  // step heavier, and 0 and O drawn heavier look more alike)
  const bestOf = new Map<string, { set: Weighted; match: number; mean: number }>();
  for (const set of all) {
    const mean = scoresOf(set.glyphs).reduce((sum, cell) => sum + Math.max(0, ...cell.values()), 0) / cells.length;
    const match = set.step === 0 ? mean + OWN_WEIGHT_MARGIN : mean;
    const current = bestOf.get(set.font);
    if (!current || match > current.match) bestOf.set(set.font, { set, match, mean });
  }
  // a line whose typeface one template font matches clearly best is compared with that font
  // alone: another font's look-alike scored as well (DejaVu Sans Mono's narrow O matched OCR-B's 0
  // better than OCR-B's own O did, and two zeros read O failed a clean personal number's check)
  const ranked = [...bestOf.values()].sort((a, b) => b.match - a.match);
  const own =
    ranked[0].mean >= OWN_FONT_MATCH && ranked[1] && ranked[0].match - ranked[1].match >= OWN_FONT_LEAD ? ranked.slice(0, 1) : ranked;
  const perFont = own.map((b) => ({ scores: scoresOf(b.set.glyphs), deficit: ranked[0].match - b.match }));
  const sorted = (scores: Map<string, number>) => [...scores].map(([char, score]) => ({ char, score })).sort((a, b) => b.score - a.score);
  const read = cells.map((cell, n) => {
    if (!cell) return { plain: [{ char: '<', score: 0 }], ranked: [{ char: '<', score: 0 }] };
    const best = new Map<string, number>();
    for (const { scores } of perFont)
      for (const [char, score] of scores[n]) if (score > (best.get(char) ?? -Infinity)) best.set(char, score);
    const plain = sorted(best);
    // the first choice's look-alikes as the line's typeface draws them: each font's score less
    // how much worse that font fits the line (a bold DejaVu Sans Mono O matched OCR-B's plain 0
    // better than DejaVu's own O, OCR-B fitting that line 0.09 worse; a Roboto Mono O, Courier
    // Prime's 0: DejaVu's dotted zero tells them apart)
    const inTypeface = new Map(best);
    for (const char of LOOK_ALIKE[plain[0].char] ?? '') {
      const scores = perFont.flatMap((f) => (f.scores[n].has(char) ? [f.scores[n].get(char)! - f.deficit] : []));
      if (scores.length) inTypeface.set(char, Math.max(...scores));
    }
    return { plain, ranked: sorted(inTypeface) };
  });
  return { cells: read.map((r) => r.ranked), plain: read.map((r) => r.plain) };
}

interface Blob {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The bounding boxes of the ink's connected parts (8-connected), by union-find over runs of each row. */
function blobs(ink: Uint8Array, width: number, height: number): Blob[] {
  const parent: number[] = [];
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  const runs: Array<{ y: number; x0: number; x1: number; id: number }> = [];
  let previous: typeof runs = [];
  for (let y = 0; y < height; y++) {
    const row: typeof runs = [];
    for (let x = 0; x < width; x++) {
      if (!ink[y * width + x]) continue;
      const start = x;
      while (x < width && ink[y * width + x]) x++;
      const id = parent.length;
      parent.push(id);
      const run = { y, x0: start, x1: x, id };
      for (const above of previous) if (above.x0 <= run.x1 && above.x1 >= run.x0) parent[find(above.id)] = find(id);
      row.push(run);
    }
    runs.push(...row);
    previous = row;
  }
  const boxes = new Map<number, Blob>();
  for (const run of runs) {
    const root = find(run.id);
    const box = boxes.get(root);
    if (!box) boxes.set(root, { x0: run.x0, y0: run.y, x1: run.x1, y1: run.y + 1 });
    else {
      box.x0 = Math.min(box.x0, run.x0);
      box.x1 = Math.max(box.x1, run.x1);
      box.y1 = run.y + 1;
    }
  }
  return [...boxes.values()];
}

/**
 * The zone's lines found from the ink alone, for a page where OCR made nothing of them (a photo
 * in perspective, uneven light): chains of glyph-sized blobs, each the next one's left neighbour
 * at about one glyph's distance and height, of at least 28 glyphs (a zone's line is 30 to 44);
 * the last two or three such lines down the page, as the glyphs' boxes of each. `widest`: the
 * widest blob taken for a glyph, in glyph heights (3: two or three glyphs joined by serifs or a
 * bold stroke, whose gap in the chain would end it).
 */
export function findZoneLines(image: Grey, widest = 1.5): Blob[][] {
  const ink = binarise(image, image.width / 25);
  const glyphs = blobs(ink, image.width, image.height).filter((b) => {
    const h = b.y1 - b.y0;
    return h >= image.width / 100 && h <= image.width / 15 && b.x1 - b.x0 <= widest * h;
  });
  glyphs.sort((a, b) => a.x0 - b.x0);
  const next = new Map<Blob, Blob>();
  const hasPrevious = new Set<Blob>();
  for (const [i, g] of glyphs.entries()) {
    const h = g.y1 - g.y0;
    const middle = (g.y0 + g.y1) / 2;
    // the nearest blob to the right on the same line: centre within half a glyph up or down
    for (let j = i + 1; j < glyphs.length && glyphs[j].x0 < g.x1 + 2 * h; j++) {
      const c = glyphs[j];
      if (hasPrevious.has(c) || c.x0 < g.x1 - 1 || Math.abs((c.y0 + c.y1) / 2 - middle) > h / 2) continue;
      next.set(g, c);
      hasPrevious.add(c);
      break;
    }
  }
  const lines: Blob[][] = [];
  for (const g of glyphs) {
    if (hasPrevious.has(g)) continue;
    const chain = [g];
    for (let c = next.get(g); c; c = next.get(c)) chain.push(c);
    if (chain.length >= 28) lines.push(chain);
  }
  const middleOf = (line: Blob[]) => line.reduce((sum, b) => sum + b.y0 + b.y1, 0) / (2 * line.length);
  return lines.sort((a, b) => middleOf(a) - middleOf(b)).slice(-3);
}
