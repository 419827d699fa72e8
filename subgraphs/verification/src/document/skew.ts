import sharp from 'sharp';

/** Width the page is measured at: enough for text lines, cheap to scan. */
const MEASURE_WIDTH = 800;
/** The tilts a scanned or photographed page may have, in degrees, and the step they are tried at. */
const MAX_DEGREES = 10;
const COARSE_STEP = 0.5;
const FINE_STEP = 0.1;

/**
 * How far a page's text lines are tilted, in degrees (positive: clockwise, as sharp's `rotate`
 * turns an image; rotate by the negative to level it). Projection profiles: projected at the
 * right angle, the ink of each text line falls into few rows and the gaps between lines into none,
 * so the rows' counts vary most; a coarse search over ±10°, then a fine one around the best.
 */
export async function estimateSkew(image: Buffer): Promise<number> {
  const { data, info } = await sharp(image)
    .greyscale()
    .resize({ width: MEASURE_WIDTH, withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const threshold = otsu(data);
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      if (data[y * info.width + x] <= threshold) {
        xs.push(x);
        ys.push(y);
      }
    }
  }
  if (xs.length < 50) return 0;
  const diagonal = Math.ceil(Math.hypot(info.width, info.height));
  const rows = new Float64Array(2 * diagonal + 1);
  /** How sharply the ink falls into rows when the page is levelled by `degrees`. */
  const sharpness = (degrees: number): number => {
    rows.fill(0);
    const angle = (degrees * Math.PI) / 180;
    const sin = Math.sin(angle);
    const cos = Math.cos(angle);
    for (let i = 0; i < xs.length; i++) rows[Math.round(ys[i] * cos - xs[i] * sin) + diagonal] += 1;
    let score = 0;
    for (let r = 1; r < rows.length; r++) score += (rows[r] - rows[r - 1]) ** 2;
    return score;
  };
  const best = (from: number, to: number, step: number, start: number) => {
    let angle = start;
    let score = sharpness(start);
    for (let a = from; a <= to + 1e-9; a += step) {
      const s = sharpness(a);
      if (s > score) [angle, score] = [a, s];
    }
    return angle;
  };
  const coarse = best(-MAX_DEGREES, MAX_DEGREES, COARSE_STEP, 0);
  const fine = best(coarse - COARSE_STEP, coarse + COARSE_STEP, FINE_STEP, coarse);
  return Math.round(fine * 10) / 10;
}

/** The grey level that best separates ink from paper (Otsu's method). */
export function otsu(grey: Uint8Array | Buffer): number {
  const histogram = new Array<number>(256).fill(0);
  for (const v of grey) histogram[v] += 1;
  const total = grey.length;
  const sum = histogram.reduce((acc, count, level) => acc + count * level, 0);
  let best = 0;
  let threshold = 128;
  let below = 0;
  let belowSum = 0;
  for (let level = 0; level < 256; level++) {
    below += histogram[level];
    belowSum += histogram[level] * level;
    if (below === 0 || below === total) continue;
    const meanBelow = belowSum / below;
    const meanAbove = (sum - belowSum) / (total - below);
    const between = below * (total - below) * (meanBelow - meanAbove) ** 2;
    if (between > best) {
      best = between;
      threshold = level;
    }
  }
  return threshold;
}
