import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';

/**
 * Face fixtures cut from the sample picture shipped with @vladmandic/human (MIT licence, in
 * node_modules): two portraits of its top strip. Tests derive variants (mirrored, blurred,
 * brightened) with sharp.
 */
export const HUMAN_SAMPLES = path.join(
  path.dirname(createRequire(path.resolve('package.json')).resolve('@vladmandic/human')),
  '..',
  'assets',
  'samples.jpg',
);

const PORTRAITS = { woman: { left: 166, width: 150 }, man: { left: 326, width: 210 } } as const;

/** A portrait (JPEG, 320 px wide) of one of the two sample people. */
export function portrait(who: keyof typeof PORTRAITS): Promise<Buffer> {
  const { left, width } = PORTRAITS[who];
  return sharp(HUMAN_SAMPLES).extract({ left, top: 0, width, height: 160 }).resize(320).jpeg().toBuffer();
}

/** Both portraits side by side: a picture with two faces. */
export async function twoFaces(): Promise<Buffer> {
  const [woman, man] = await Promise.all([portrait('woman'), portrait('man')]);
  const height = Math.max((await sharp(woman).metadata()).height!, (await sharp(man).metadata()).height!);
  return sharp({ create: { width: 640, height, channels: 3, background: '#ffffff' } })
    .composite([
      { input: woman, left: 0, top: 0 },
      { input: man, left: 320, top: 0 },
    ])
    .jpeg()
    .toBuffer();
}

/** A picture without a face. */
export function noFace(): Promise<Buffer> {
  return sharp({ create: { width: 400, height: 300, channels: 3, background: '#88aacc' } })
    .jpeg()
    .toBuffer();
}

/**
 * A selfie: a portrait in front of a bookshelf, as a phone camera takes one (the background's
 * edges give the picture the sharpness of a real photo; the portrait crop alone is soft).
 */
export async function selfie(who: keyof typeof PORTRAITS): Promise<Buffer> {
  const books = Array.from({ length: 40 }, (_, i) => {
    const top = (i * 37) % 60;
    return `<rect x="${i * 16}" y="${top}" width="12" height="${400 - top}" fill="hsl(${(i * 47) % 360},60%,${30 + ((i * 13) % 40)}%)"/>`;
  }).join('');
  const shelf = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480"><rect width="640" height="480" fill="#ddd"/>${books}</svg>`;
  return sharp(Buffer.from(shelf))
    .composite([{ input: await portrait(who), left: 160, top: 150 }])
    .jpeg({ quality: 92 })
    .toBuffer();
}
