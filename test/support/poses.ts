import sharp, { type Sharp } from 'sharp';
import { jpegOf, rgbOf, smiled } from '../../bench/support/face-render.js';
import type { FaceLandmarks } from '../../subgraphs/verification/src/vision/vision.types.js';
import { portrait } from './faces.js';

/**
 * One person (the 'woman' portrait of faces.ts) in the poses liveness challenges ask for, made
 * from the one photo with plain image operations, so a whole session can be sent with real
 * judgments by the face models. Her smile is rendered from the mesh's landmarks (the mouth's
 * corners pulled out and up), and the emotion model does not see it: it reads `happy` 0.15, as on
 * her neutral face; the mesh reads the wider mouth. The values in brackets are what the models read (measured once,
 * deterministic for these bytes; the liveness rules' thresholds are explained in liveness.rules.ts).
 *
 * The portrait's head is turned to the woman's own left (yaw −0.41 rad): as a camera sees it,
 * without mirroring. Mirrored (`flop`), it is turned to her right (+0.35).
 */

/** Where the woman's face is in the 320 × 341 portrait: the point the tilt turns about, her eyes. */
const FACE_CENTER = { x: 150, y: 95 };
const EYES: Array<[cx: number, cy: number, width: number, height: number]> = [
  [134, 79.5, 24, 9],
  [168, 84, 17, 9],
];

const jpeg = (image: Sharp) => image.jpeg({ quality: 92 }).toBuffer();

/** The photo as a flat print tilted about the horizontal line through the face (positive: the top away), seen by a camera of focal length `focal` px. */
async function tilted(image: Buffer, degrees: number, focal: number): Promise<Buffer> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const out = Buffer.alloc(data.length, 255);
  const sin = Math.sin((degrees * Math.PI) / 180);
  const cos = Math.cos((degrees * Math.PI) / 180);
  for (let v = 0; v < height; v++) {
    // the plane point seen at row v, then at column u (inverse perspective), sampled bilinearly
    const y = ((v - FACE_CENTER.y) * focal) / (focal * cos - (v - FACE_CENTER.y) * sin);
    const scale = (focal + y * sin) / focal;
    const sy = y + FACE_CENTER.y;
    for (let u = 0; u < width; u++) {
      const sx = (u - FACE_CENTER.x) * scale + FACE_CENTER.x;
      if (sx < 0 || sy < 0 || sx >= width - 1 || sy >= height - 1) continue;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const fx = sx - x0;
      const fy = sy - y0;
      for (let k = 0; k < 3; k++) {
        const at = (yy: number, xx: number) => data[(yy * width + xx) * 3 + k];
        out[(v * width + u) * 3 + k] = Math.round(
          at(y0, x0) * (1 - fx) * (1 - fy) + at(y0, x0 + 1) * fx * (1 - fy) + at(y0 + 1, x0) * (1 - fx) * fy + at(y0 + 1, x0 + 1) * fx * fy,
        );
      }
    }
  }
  return jpeg(sharp(out, { raw: { width, height, channels: 3 } }));
}

/** The rows between `top` and `bottom` redistributed: those above `split` scaled by `factor`, those below filling the rest. */
async function stretched(image: Buffer, top: number, split: number, bottom: number, factor: number): Promise<Buffer> {
  const { width, height } = await sharp(image).metadata();
  const upper = Math.round((split - top) * factor);
  const lower = bottom - top - upper;
  const rows = (from: number, to: number) => sharp(image).extract({ left: 0, top: from, width: width!, height: to - from });
  const layers = [
    { input: await rows(0, top).toBuffer(), left: 0, top: 0 },
    { input: await rows(top, split).resize(width, upper, { fit: 'fill' }).toBuffer(), left: 0, top },
    { input: await rows(split, bottom).resize(width, lower, { fit: 'fill' }).toBuffer(), left: 0, top: top + upper },
    { input: await rows(bottom, height!).toBuffer(), left: 0, top: bottom },
  ];
  return jpeg(sharp({ create: { width: width!, height: height!, channels: 3, background: '#ffffff' } }).composite(layers));
}

/** Each eye covered by the skin just below it (a soft-edged patch): closed eyes. */
async function eyesCovered(image: Buffer): Promise<Buffer> {
  const pad = 5;
  const layers = await Promise.all(
    EYES.map(async ([cx, cy, eyeWidth, eyeHeight]) => {
      const width = eyeWidth + 2 * pad;
      const height = eyeHeight + 2 * pad;
      const left = Math.round(cx - width / 2);
      const top = Math.round(cy - height / 2);
      const mask = await sharp(
        Buffer.from(
          `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><ellipse cx="${width / 2}" cy="${height / 2}" rx="${width / 2 - 1}" ry="${height / 2 - 1}" fill="#fff"/></svg>`,
        ),
      )
        .blur(1.2)
        .toBuffer();
      const skin = await sharp(image)
        .extract({ left, top: top + 11, width, height })
        .ensureAlpha()
        .composite([{ input: mask, blend: 'dest-in' }])
        .png()
        .toBuffer();
      return { input: skin, left, top };
    }),
  );
  return jpeg(sharp(image).composite(layers));
}

/** The columns between `left` and `right` redistributed: those left of `split` scaled by `factor`, those right of it filling the rest. */
async function squeezed(image: Buffer, left: number, split: number, right: number, factor: number): Promise<Buffer> {
  const { width, height } = await sharp(image).metadata();
  const before = Math.round((split - left) * factor);
  const after = right - left - before;
  const columns = (from: number, to: number) => sharp(image).extract({ left: from, top: 0, width: to - from, height: height! });
  const layers = [
    { input: await columns(0, left).toBuffer(), left: 0, top: 0 },
    { input: await columns(left, split).resize(before, height, { fit: 'fill' }).toBuffer(), left, top: 0 },
    { input: await columns(split, right).resize(after, height, { fit: 'fill' }).toBuffer(), left: left + before, top: 0 },
    { input: await columns(right, width!).toBuffer(), left: right, top: 0 },
  ];
  return jpeg(sharp({ create: { width: width!, height: height!, channels: 3, background: '#ffffff' } }).composite(layers));
}

export interface Poses {
  /** Nearly facing the camera [yaw −0.17, pitch 0.13]: the reference selfie. */
  frontal: Buffer;
  /** Head turned to her own left [yaw −0.41]; also what a reference selfie refuses (turned too far). */
  turnedLeft: Buffer;
  /** Head turned to her own right [yaw +0.35]: the mirror image of `turnedLeft`. */
  turnedRight: Buffer;
  /** Chin raised [pitch −0.21]. */
  lookingUp: Buffer;
  /** Chin lowered [pitch +0.20]: with `lookingUp`, the two frames of a nod. */
  lookingDown: Buffer;
  /** Eyes closed [eye aspect 0.28, the frontal's 0.34]. */
  eyesClosed: Buffer;
  /**
   * `frontal` smiling, lips closed [mouth width 0.338 → 0.390 of the face's, corners 0.009 of its
   * height higher; happy 0.19 → 0.15]: each corner pulled out by 10 % of the mouth's width and up by 6 %.
   */
  smiling: Buffer;
}

/** The mesh's landmarks of `frontal` (measured once, as the values in brackets). */
const FRONTAL_LANDMARKS: FaceLandmarks = {
  mouthLeft: [118, 118],
  mouthRight: [143, 121],
  upperLip: [136, 115],
  lowerLip: [131, 132],
  leftEye: { outer: [115, 79], inner: [129, 84], upper: [121, 77], lower: [121, 84] },
  rightEye: { outer: [159, 87], inner: [148, 85], upper: [155, 84], lower: [154, 87] },
  leftCheek: [107, 96],
  rightCheek: [158, 104],
  forehead: [143, 57],
  chin: [127, 145],
};

let made: Promise<Poses> | undefined;

/** Every pose of the woman (made once per test file). */
export function poses(): Promise<Poses> {
  made ??= (async () => {
    const woman = await portrait('woman');
    // the near half of her face narrowed: the head turns back toward the camera
    const frontal = await squeezed(woman, 60, 145, 230, 0.75);
    return {
      frontal,
      turnedLeft: woman,
      turnedRight: await jpeg(sharp(woman).flop()),
      lookingUp: await stretched(woman, 40, 100, 160, 0.4),
      lookingDown: await tilted(woman, 60, 150),
      eyesClosed: await eyesCovered(woman),
      smiling: await jpegOf(smiled(await rgbOf(frontal), FRONTAL_LANDMARKS, 0.1, 0.06)),
    };
  })();
  return made;
}
