import sharp, { type Sharp } from 'sharp';
import type { Random } from './random.js';
import { warpPerspective, type Point, type RawImage } from './warp.js';

/**
 * The conditions a generated document is read under, shared by the benches that render pages
 * (documents, address): clean, JPEG 40–90, blur σ 0.5–1.5, noise, rotation ±1–7°, a phone photo
 * in perspective with uneven light, and a page scanned at 150–200 dpi instead of 300.
 */

export type Condition = 'clean' | 'jpeg' | 'blur' | 'noise' | 'rotation' | 'perspective+light' | 'lowres';
export const CONDITIONS: readonly Condition[] = ['clean', 'jpeg', 'blur', 'noise', 'rotation', 'perspective+light', 'lowres'];

export type Rgb = [number, number, number];

/** A page as rendered at "300 dpi" (or the lowres scale), with its paper colour (the background a rotation uncovers). */
export interface Page {
  image: RawImage;
  paper: Rgb;
}

/** The scale a page is composed at: lowres is the page as scanned at 150–200 dpi instead of 300 (draws from `rng` only then). */
export const conditionScale = (condition: Condition, rng: Random) => (condition === 'lowres' ? rng.between(150, 200) / 300 : 1);

const fromRaw = (image: RawImage) =>
  sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels as 3 } });
const jpeg = (image: Sharp, quality: number) => image.jpeg({ quality }).toBuffer();

/** The page under one condition, as the JPEG a client would upload. */
export async function degrade(page: Page, condition: Condition, rng: Random): Promise<Buffer> {
  const { image, paper } = page;
  switch (condition) {
    case 'clean':
      return jpeg(fromRaw(image), 95);
    case 'jpeg':
      return jpeg(fromRaw(image), rng.int(40, 90));
    case 'blur':
      return jpeg(fromRaw(image).blur(rng.between(0.5, 1.5)), 90);
    case 'noise':
      return jpeg(fromRaw(withNoise(image, rng.between(6, 16), rng)), 90);
    case 'rotation': {
      const degrees = (rng.chance(0.5) ? 1 : -1) * rng.between(1, 7);
      return jpeg(fromRaw(image).rotate(degrees, { background: { r: paper[0], g: paper[1], b: paper[2] } }), rng.int(75, 90));
    }
    case 'perspective+light':
      // a phone photo: the page on a table seen at a slant, lit unevenly, a little soft, compressed
      return jpeg(fromRaw(unevenLight(photographed(image, rng), rng)).blur(0.6), rng.int(70, 88));
    case 'lowres':
      return jpeg(fromRaw(image), rng.int(85, 92));
  }
}

/** Additive grey noise: the same offset on every channel of a pixel. */
function withNoise(image: RawImage, sigma: number, rng: Random): RawImage {
  const data = Buffer.from(image.data);
  for (let i = 0; i < data.length; i += image.channels) {
    const offset = rng.gaussian() * sigma;
    for (let c = 0; c < image.channels; c++) data[i + c] = Math.max(0, Math.min(255, data[i + c] + offset));
  }
  return { ...image, data };
}

/** The page inside a wider frame of table, its corners moved independently by up to 4 % of its size. */
function photographed(image: RawImage, rng: Random): RawImage {
  const margin = Math.round(0.06 * Math.max(image.width, image.height));
  const width = image.width + 2 * margin;
  const height = image.height + 2 * margin;
  const jitter = (size: number) => rng.between(-0.04, 0.04) * size;
  const corner = (x: number, y: number): Point => ({ x: x + jitter(image.width), y: y + jitter(image.height) });
  const corners = [
    corner(margin, margin),
    corner(margin + image.width, margin),
    corner(margin + image.width, margin + image.height),
    corner(margin, margin + image.height),
  ];
  const table = rng.pick<Rgb>([
    [92, 70, 52],
    [58, 58, 62],
    [120, 110, 96],
  ]);
  const grain = (x: number, y: number) => ((x * 73856093) ^ (y * 19349663)) & 15;
  return warpPerspective(image, corners, width, height, (x, y, c) => table[c] + grain(x, y));
}

/** Light falling off across the photo in one direction (a lamp or a window to one side). */
function unevenLight(image: RawImage, rng: Random): RawImage {
  const angle = rng.between(0, 2 * Math.PI);
  const dx = Math.cos(angle);
  const dy = Math.sin(angle);
  const depth = rng.between(0.25, 0.5);
  const gain = rng.between(0.98, 1.1);
  const span = Math.abs(dx) * image.width + Math.abs(dy) * image.height;
  const start = Math.min(0, dx * image.width) + Math.min(0, dy * image.height);
  const data = Buffer.from(image.data);
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const t = (dx * x + dy * y - start) / span; // 0 on the lit side, 1 on the dark one
      const light = gain * (1 - depth * t);
      const at = (y * image.width + x) * image.channels;
      for (let c = 0; c < image.channels; c++) data[at + c] = Math.min(255, data[at + c] * light);
    }
  }
  return { ...image, data };
}
