import { writeFileSync } from 'node:fs';
import sharp from 'sharp';

/**
 * What Chromium's fake camera shows (`--use-file-for-fake-video-capture=<file>.y4m`): pictures
 * turned into a YUV4MPEG2 video (planar 4:2:0, BT.601 studio range, the file format Chromium reads
 * without a decoder). Chromium plays the frames in a loop at the file's rate; a picture held still
 * is one frame repeated, so every photo the page takes of it is the same.
 */
export interface CameraSize {
  width: number;
  height: number;
}

/** A phone's rear camera in landscape, for documents. */
export const REAR_CAMERA: CameraSize = { width: 1920, height: 1080 };
/**
 * A front camera, for selfies: the size of the face pictures of faces.ts and poses.ts (320 × 341,
 * one row cropped), so each is seen as it is. The liveness models' readings of the poses were
 * measured at that size; the same face scaled into a larger frame reads differently (a closed eye
 * less closed, the lowered head not found at all).
 */
export const FRONT_CAMERA: CameraSize = { width: 320, height: 340 };

/** Chromium's command-line switches for a fake camera (and microphone) fed from `file`, granted without a prompt. */
export const fakeCameraArgs = (file: string): string[] => [
  '--use-fake-ui-for-media-stream',
  '--use-fake-device-for-media-stream',
  `--use-file-for-fake-video-capture=${file}`,
];

/** One picture in 4:2:0 planes (Y full size, U and V each a quarter), from its RGB pixels. */
function i420(rgb: Buffer, { width, height }: CameraSize): Buffer {
  const frame = Buffer.alloc((width * height * 3) / 2);
  const u0 = width * height;
  const v0 = u0 + (width * height) / 4;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const [r, g, b] = [rgb[i]!, rgb[i + 1]!, rgb[i + 2]!];
      frame[y * width + x] = Math.round(16 + (65.481 * r + 128.553 * g + 24.966 * b) / 255);
    }
  }
  // chroma of each 2 × 2 block, from its mean colour
  for (let y = 0; y < height; y += 2) {
    for (let x = 0; x < width; x += 2) {
      let [r, g, b] = [0, 0, 0];
      for (const [dx, dy] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ] as const) {
        const i = ((y + dy) * width + x + dx) * 3;
        r += rgb[i]!;
        g += rgb[i + 1]!;
        b += rgb[i + 2]!;
      }
      [r, g, b] = [r / 4, g / 4, b / 4];
      const at = (y / 2) * (width / 2) + x / 2;
      frame[u0 + at] = Math.round(128 + (-37.797 * r - 74.203 * g + 112 * b) / 255);
      frame[v0 + at] = Math.round(128 + (112 * r - 93.786 * g - 18.214 * b) / 255);
    }
  }
  return frame;
}

/** The pictures as a Y4M video of `size` (each scaled to cover it), `fps` frames a second. */
export async function y4mVideo(pictures: Buffer[], size: CameraSize, fps = 10): Promise<Buffer> {
  const header = Buffer.from(`YUV4MPEG2 W${size.width} H${size.height} F${fps}:1 Ip A1:1 C420jpeg\n`);
  const frames = await Promise.all(
    pictures.map(async (picture) => {
      const rgb = await sharp(picture).resize(size.width, size.height, { fit: 'cover' }).removeAlpha().raw().toBuffer();
      return Buffer.concat([Buffer.from('FRAME\n'), i420(rgb, size)]);
    }),
  );
  return Buffer.concat([header, ...frames]);
}

/** A document lying on a dark desk, filling most of a rear camera's picture (as a person frames it in the guide). */
export async function documentScene(document: Buffer, size: CameraSize = REAR_CAMERA): Promise<Buffer> {
  const { width, height } = await sharp(document).metadata();
  const scale = Math.min((size.width * 0.86) / width!, (size.height * 0.86) / height!);
  const [w, h] = [Math.round(width! * scale), Math.round(height! * scale)];
  const page = await sharp(document).resize(w, h).toBuffer();
  return sharp({ create: { ...size, channels: 3, background: '#3b3a36' } })
    .composite([{ input: page, left: Math.round((size.width - w) / 2), top: Math.round((size.height - h) / 2) }])
    .png()
    .toBuffer();
}

/** Writes a still picture as a fake camera file (`file` ends in .y4m) and returns the browser's switches for it. */
export async function fakeCamera(file: string, picture: Buffer, size: CameraSize): Promise<string[]> {
  // two frames of the same picture: Chromium's reader wants more than one to loop
  writeFileSync(file, await y4mVideo([picture, picture], size));
  return fakeCameraArgs(file);
}
