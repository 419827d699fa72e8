import sharp from 'sharp';
import type { ImageFacts } from './vision.types.js';

/** The grey version every measure reads: at most 512 pixels a side, so figures compare across cameras. */
const grey = (image: Uint8Array) => sharp(image).greyscale().resize(512, 512, { fit: 'inside' });

/** Sharpness (variance of the Laplacian) and brightness on a 512-pixel grey version of the image. */
export async function imageFacts(image: Uint8Array): Promise<ImageFacts> {
  const meta = await sharp(image).metadata();
  const laplacian = await grey(image)
    .convolve({ width: 3, height: 3, kernel: [0, 1, 0, 1, -4, 1, 0, 1, 0], offset: 128 })
    .raw()
    .toBuffer();
  let sum = 0;
  let squares = 0;
  for (const v of laplacian) {
    sum += v;
    squares += v * v;
  }
  const mean = sum / laplacian.length;
  const stats = await grey(image).stats();
  return {
    width: meta.width ?? 0,
    height: meta.height ?? 0,
    sharpness: squares / laplacian.length - mean * mean,
    brightness: stats.channels[0].mean,
  };
}

/** Grey level from which a pixel is burnt out: a reflection shows white whatever was printed there. */
const BURNT_OUT = 250;

/** The share (0–1) of the image's pixels burnt out by a reflection. */
export async function glareShare(image: Uint8Array): Promise<number> {
  const pixels = await grey(image).raw().toBuffer();
  let burnt = 0;
  for (const v of pixels) if (v >= BURNT_OUT) burnt++;
  return pixels.length ? burnt / pixels.length : 0;
}
