import sharp from 'sharp';
import type { FaceLandmarks, Point2 } from '../../subgraphs/verification/src/vision/vision.types.js';

/**
 * What one photo of a face becomes in the liveness bench: the movements a challenge asks for,
 * rendered from the mesh's landmarks of that photo (a smile, closed eyes, a turned or raised
 * head), and a darker skin tone. Plain pixel operations on an RGB buffer: no face is drawn, each
 * rendering moves or recolours the photo's own pixels. Skin tone is measured as the Individual
 * Typology Angle (ITA, Chardon et al. 1991) of the cheeks.
 */

export interface Rgb {
  data: Buffer;
  width: number;
  height: number;
}

export async function rgbOf(jpeg: Buffer): Promise<Rgb> {
  const { data, info } = await sharp(jpeg).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

export function jpegOf(image: Rgb, quality = 92): Promise<Buffer> {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .jpeg({ quality })
    .toBuffer();
}

/** A face's box grown by `margin` of its width and height on every side, within the image. */
export function regionAround(
  [x, y, w, h]: readonly number[],
  image: { width?: number; height?: number },
  margin: number,
): { left: number; top: number; width: number; height: number } {
  const left = Math.max(0, Math.round(x - margin * w));
  const top = Math.max(0, Math.round(y - margin * h));
  return {
    left,
    top,
    width: Math.min(image.width! - left, Math.round((1 + 2 * margin) * w)),
    height: Math.min(image.height! - top, Math.round((1 + 2 * margin) * h)),
  };
}

/** Bilinear sample of channel `c` at (x, y), clamped to the image. */
function sample(image: Rgb, x: number, y: number, c: number): number {
  const cx = Math.min(Math.max(x, 0), image.width - 1.001);
  const cy = Math.min(Math.max(y, 0), image.height - 1.001);
  const x0 = Math.floor(cx);
  const y0 = Math.floor(cy);
  const fx = cx - x0;
  const fy = cy - y0;
  const at = (yy: number, xx: number) => image.data[(yy * image.width + xx) * 3 + c];
  return at(y0, x0) * (1 - fx) * (1 - fy) + at(y0, x0 + 1) * fx * (1 - fy) + at(y0 + 1, x0) * (1 - fx) * fy + at(y0 + 1, x0 + 1) * fx * fy;
}

/** Every output pixel taken from where `from` says it came from (a backward warp). */
function remap(image: Rgb, from: (x: number, y: number) => Point2): Rgb {
  const out = Buffer.alloc(image.data.length);
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const [sx, sy] = from(x, y);
      for (let c = 0; c < 3; c++) out[(y * image.width + x) * 3 + c] = Math.round(sample(image, sx, sy, c));
    }
  }
  return { ...image, data: out };
}

const sub = (a: Point2, b: Point2): Point2 => [a[0] - b[0], a[1] - b[1]];
const length = (p: Point2) => Math.hypot(p[0], p[1]);
const mid = (a: Point2, b: Point2): Point2 => [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];

/** The face's own axes in the picture: across (eye to eye) and down, unit vectors. */
function axes(l: FaceLandmarks): { across: Point2; down: Point2 } {
  const eyes = sub(l.rightEye.outer, l.leftEye.outer);
  const n = length(eyes) || 1;
  const across: Point2 = [eyes[0] / n, eyes[1] / n];
  return { across, down: [-across[1], across[0]] };
}

/** A smooth displacement field: each handle moves its neighbourhood by its vector, fading as a Gaussian of `radius`. */
function displaced(image: Rgb, handles: Array<{ at: Point2; move: Point2 }>, radius: number): Rgb {
  const twoSigma2 = 2 * radius * radius;
  return remap(image, (x, y) => {
    let dx = 0;
    let dy = 0;
    for (const { at, move } of handles) {
      // weighted by the distance from the handle's destination: the inverse of a small forward move
      const ex = x - (at[0] + move[0]);
      const ey = y - (at[1] + move[1]);
      const w = Math.exp(-(ex * ex + ey * ey) / twoSigma2);
      dx += w * move[0];
      dy += w * move[1];
    }
    return [x - dx, y - dy];
  });
}

/**
 * A closed-lip smile: each mouth corner pulled outward by `widen` and up by `lift`, both as
 * fractions of the mouth's width (what the zygomaticus does), the cheeks beside them following;
 * with `cheek` > 0 the cheeks also rise by that fraction of the mouth's width and push the lower
 * lids up by half as much (the cheek raise of most smiles; 0: a smile of the mouth alone).
 */
export function smiled(image: Rgb, l: FaceLandmarks, widen: number, lift: number, cheek = 0): Rgb {
  const { across, down } = axes(l);
  const width = length(sub(l.mouthRight, l.mouthLeft));
  const move = (side: -1 | 1): Point2 => [
    width * (side * widen * across[0] - lift * down[0]),
    width * (side * widen * across[1] - lift * down[1]),
  ];
  const up = (amount: number): Point2 => [-amount * width * down[0], -amount * width * down[1]];
  const mouth = displaced(
    image,
    [
      { at: l.mouthLeft, move: move(-1) },
      { at: l.mouthRight, move: move(1) },
    ],
    0.28 * width,
  );
  if (cheek <= 0) return mouth;
  const raised = displaced(
    mouth,
    [
      { at: l.leftCheek, move: up(cheek) },
      { at: l.rightCheek, move: up(cheek) },
    ],
    0.3 * width,
  );
  return displaced(
    raised,
    [
      { at: l.leftEye.lower, move: up(cheek / 2) },
      { at: l.rightEye.lower, move: up(cheek / 2) },
    ],
    0.12 * width,
  );
}

/**
 * Both eyes closed, as a closing eye looks: each upper lid drawn down over the eye (the skin
 * between the upper lid's edge and the crease above stretched down to the lash line, which lies
 * a little above the lower lid's edge), the strip of the opening left below it covered by the lower
 * lid's skin, and a dark line of lashes where the lids meet. Lids are parabolas through the eye's
 * corners and the mesh's mid-lid points, in the eye's own frame (rolled with the head).
 */
export function eyesClosed(image: Rgb, l: FaceLandmarks): Rgb {
  const out = Buffer.from(image.data);
  const { across, down } = axes(l);
  for (const eye of [l.leftEye, l.rightEye]) {
    const centre = mid(eye.outer, eye.inner);
    const half = length(sub(eye.inner, eye.outer)) / 2;
    const along = (p: Point2) => (p[0] - centre[0]) * across[0] + (p[1] - centre[1]) * across[1];
    const below = (p: Point2) => (p[0] - centre[0]) * down[0] + (p[1] - centre[1]) * down[1];
    // the lids' middles, from the mesh (the upper one above the corners' line, the lower one below)
    const upper = Math.min(below(eye.upper), -0.12 * half);
    const lower = Math.max(below(eye.lower), 0.08 * half);
    const shift = along(mid(eye.upper, eye.lower));
    const opening = lower - upper;
    const lid = Math.max(opening, 0.3 * half); // the upper lid's skin above its edge, stretched down
    const under = 0.6 * lid; // the lower lid's skin below its edge
    const line = Math.max(0.7, 0.07 * half); // half the lash line's thickness
    const extent = half * 1.08;
    const reach = Math.ceil(Math.hypot(extent, lid + opening + under) + 2);
    for (let y = Math.floor(centre[1] - reach); y <= centre[1] + reach; y++) {
      for (let x = Math.floor(centre[0] - reach); x <= centre[0] + reach; x++) {
        if (x < 0 || y < 0 || x >= image.width || y >= image.height) continue;
        const u = along([x, y]);
        const v = below([x, y]);
        const t = (u - shift * (1 - (u / extent) ** 2)) / extent;
        if (Math.abs(t) >= 1) continue;
        const bow = 1 - t * t; // 1 in the middle, 0 at the corners
        const vUp = upper * bow;
        const vLow = lower * bow;
        const vShut = (upper + 0.72 * opening) * bow; // where the lids meet
        const top = vUp - lid;
        const bottom = vLow + under;
        if (v <= top || v >= bottom) continue;
        // backward map along the eye's down axis: [top, vShut] ← [top, vUp]; [vShut, bottom] ← [vLow, bottom]
        const from =
          v < vShut ? top + ((v - top) * (vUp - top)) / (vShut - top || 1) : vLow + ((v - vShut) * (bottom - vLow)) / (bottom - vShut || 1);
        const dv = from - v;
        const lash = Math.max(0, 1 - Math.abs(v - vShut) / line) * Math.min(1, (1 - Math.abs(t)) / 0.15);
        const fade = Math.min(1, (1 - Math.abs(t)) / 0.12);
        for (let c = 0; c < 3; c++) {
          const moved = sample(image, x + dv * down[0], y + dv * down[1], c) * (1 - 0.55 * lash);
          const i = (y * image.width + x) * 3 + c;
          out[i] = Math.round(image.data[i] * (1 - fade) + moved * fade);
        }
      }
    }
  }
  return { ...image, data: out };
}

/**
 * The head turned: the half of the face on the side of `toward` (−1 the picture's left, +1 its
 * right) narrowed by `factor`, the other widened to fill, so the nose moves that way, as a head
 * turning shows its far half foreshortened. Rows outside the face are left alone.
 */
export function turned(image: Rgb, l: FaceLandmarks, toward: -1 | 1, factor: number): Rgb {
  const nose = mid(mid(l.leftEye.inner, l.rightEye.inner), l.upperLip)[0];
  const halfWidth = length(sub(l.rightEye.outer, l.leftEye.outer)) * 1.1;
  const left = nose - halfWidth;
  const right = nose + halfWidth;
  const split = toward < 0 ? left + (nose - left) * factor : right - (right - nose) * factor;
  return remap(image, (x, y) => {
    if (x <= left || x >= right) return [x, y];
    // piecewise linear: [left, split] ← [left, nose], [split, right] ← [nose, right]
    return [x < split ? left + ((x - left) * (nose - left)) / (split - left) : nose + ((x - split) * (right - nose)) / (right - split), y];
  });
}

/**
 * The head raised (`degrees` < 0) or lowered: the photo as a flat print tilted about the
 * horizontal line through the eyes, seen in perspective by a camera of focal length `focal`
 * (as test/support/poses.ts makes the sample portrait look down). Where the print does not reach
 * the frame, the photo's own edge rows repeat.
 */
export function pitched(image: Rgb, l: FaceLandmarks, degrees: number, focal = image.width): Rgb {
  const centre = mid(l.leftEye.outer, l.rightEye.outer);
  const sin = Math.sin((degrees * Math.PI) / 180);
  const cos = Math.cos((degrees * Math.PI) / 180);
  return remap(image, (u, v) => {
    // the plane point seen at row v, then at column u (inverse perspective)
    const y = ((v - centre[1]) * focal) / (focal * cos - (v - centre[1]) * sin);
    const scale = (focal + y * sin) / focal;
    return [(u - centre[0]) * scale + centre[0], y + centre[1]];
  });
}

/** The same photo taken again: shifted, scaled and rotated a little, light changed; the face does not move. */
export async function retaken(jpeg: Buffer, r: { next(): number }): Promise<Buffer> {
  const meta = await sharp(jpeg).metadata();
  const scale = 0.92 + 0.16 * r.next();
  const angle = -3 + 6 * r.next();
  const rotated = await sharp(jpeg)
    .rotate(angle, { background: '#808080' })
    .resize(Math.round(meta.width! * scale))
    .modulate({ brightness: 0.9 + 0.2 * r.next() })
    .toBuffer();
  const m = await sharp(rotated).metadata();
  const width = Math.min(m.width!, meta.width!);
  const height = Math.min(m.height!, meta.height!);
  return sharp(rotated)
    .extract({ left: Math.floor((m.width! - width) / 2), top: Math.floor((m.height! - height) / 2), width, height })
    .jpeg({ quality: 70 + Math.floor(25 * r.next()) })
    .toBuffer();
}

// sRGB ↔ CIELAB (D65)
const toLinear = (v: number) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
const toGamma = (v: number) => (v <= 0.0031308 ? 12.92 * v : 1.055 * v ** (1 / 2.4) - 0.055);
const WHITE = [0.95047, 1, 1.08883];
const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
const fInverse = (t: number) => (t ** 3 > 216 / 24389 ? t ** 3 : (116 * t - 16) / (24389 / 27));

export function labOf(r: number, g: number, b: number): [number, number, number] {
  const [lr, lg, lb] = [r, g, b].map((v) => toLinear(v / 255));
  const x = (0.4124 * lr + 0.3576 * lg + 0.1805 * lb) / WHITE[0];
  const y = (0.2126 * lr + 0.7152 * lg + 0.0722 * lb) / WHITE[1];
  const z = (0.0193 * lr + 0.1192 * lg + 0.9505 * lb) / WHITE[2];
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

export function rgbOfLab(L: number, a: number, b: number): [number, number, number] {
  const fy = (L + 16) / 116;
  const x = fInverse(fy + a / 500) * WHITE[0];
  const y = fInverse(fy) * WHITE[1];
  const z = fInverse(fy - b / 200) * WHITE[2];
  const lin = [3.2406 * x - 1.5372 * y - 0.4986 * z, -0.9689 * x + 1.8758 * y + 0.0415 * z, 0.0557 * x - 0.204 * y + 1.057 * z];
  return lin.map((v) => Math.round(255 * Math.min(1, Math.max(0, toGamma(Math.max(0, v)))))) as [number, number, number];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** The cheeks' median L* and b* (patches a fifth of the eye distance wide) and their ITA in degrees. */
export function skinTone(image: Rgb, l: FaceLandmarks): { L: number; b: number; ita: number } {
  const radius = Math.max(2, length(sub(l.rightEye.outer, l.leftEye.outer)) / 10);
  const Ls: number[] = [];
  const bs: number[] = [];
  for (const [cx, cy] of [l.leftCheek, l.rightCheek]) {
    for (let y = Math.round(cy - radius); y <= cy + radius; y++) {
      for (let x = Math.round(cx - radius); x <= cx + radius; x++) {
        if (x < 0 || y < 0 || x >= image.width || y >= image.height || Math.hypot(x - cx, y - cy) > radius) continue;
        const i = (y * image.width + x) * 3;
        const [L, , b] = labOf(image.data[i], image.data[i + 1], image.data[i + 2]);
        Ls.push(L);
        bs.push(b);
      }
    }
  }
  const L = median(Ls);
  const b = median(bs);
  return { L, b, ita: (Math.atan2(L - 50, b) * 180) / Math.PI };
}

/** Skin-tone groups by ITA (Del Bino's bins, the usual ones for Fitzpatrick-like reporting). */
export const TONE_GROUPS = [
  { name: 'very light', above: 55 },
  { name: 'light', above: 41 },
  { name: 'intermediate', above: 28 },
  { name: 'tan', above: 10 },
  { name: 'brown', above: -30 },
  { name: 'dark', above: -Infinity },
] as const;
export type ToneGroup = (typeof TONE_GROUPS)[number]['name'];

export const toneGroupOf = (ita: number): ToneGroup => TONE_GROUPS.find((g) => ita > g.above)!.name;

/** Darker renderings: the cheeks' target L* and b* (ITA −15 and −41). */
export const DARKER_TONES = { brown: { L: 45, b: 19 }, dark: { L: 35, b: 17 } } as const;

/**
 * The skin made darker: every pixel near the face's skin colour (ΔE under 28 of the cheeks'
 * median, inside an ellipse around the face, softly) moved in CIELAB so that the cheeks land on
 * `target` L* and b*: lightness scaled, yellowness shifted. Eyes, teeth and hair, far from the
 * skin colour, keep theirs. A synthetic tone, not a person of that group: the features, the light
 * and the camera's response to dark skin stay those of the original photo.
 */
export function toneShifted(image: Rgb, l: FaceLandmarks, target: { L: number; b: number }): Rgb {
  const tone = skinTone(image, l);
  const skinA = median(
    [l.leftCheek, l.rightCheek].map(([x, y]) => {
      const i = (Math.round(y) * image.width + Math.round(x)) * 3;
      return labOf(image.data[i], image.data[i + 1], image.data[i + 2])[1];
    }),
  );
  const scale = target.L / tone.L;
  const shift = target.b - tone.b;
  const centre = mid(l.forehead, l.chin);
  const ry = length(sub(l.chin, l.forehead)) * 0.62;
  const rx = length(sub(l.rightEye.outer, l.leftEye.outer)) * 1.25;
  const out = Buffer.from(image.data);
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      // the neck and ears too: the ellipse reaches below the chin
      const r = Math.hypot((x - centre[0]) / rx, (y - centre[1]) / (y > centre[1] ? ry * 1.5 : ry));
      if (r >= 1.15) continue;
      const i = (y * image.width + x) * 3;
      const [L, a, b] = labOf(image.data[i], image.data[i + 1], image.data[i + 2]);
      const distance = Math.hypot(L - tone.L, a - skinA, b - tone.b);
      const weight = Math.min(1, Math.max(0, (28 - distance) / 10)) * Math.min(1, Math.max(0, (1.15 - r) / 0.2));
      if (weight <= 0) continue;
      const moved = rgbOfLab(L * scale, a, b + shift);
      for (let c = 0; c < 3; c++) out[i + c] = Math.round(image.data[i + c] * (1 - weight) + moved[c] * weight);
    }
  }
  return { ...image, data: out };
}
