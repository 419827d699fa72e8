import sharp from 'sharp';
import { MESH_FACE_WIDTH, meshViews } from './mesh-views.js';

/** A test card: left half dark, right half light, a bright square near the top left. */
async function card(width: number, height: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="${width}" height="${height}" fill="#303030"/><rect x="${width / 2}" width="${width / 2}" height="${height}" fill="#d0d0d0"/>
    <rect x="${width * 0.3}" y="${height * 0.3}" width="${width * 0.05}" height="${width * 0.05}" fill="#ffffff"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 95 }).toBuffer();
}

/** Mean grey level of the left and right tenth of a raw RGB view. */
function edges({ data, info }: { data: Buffer; info: { width: number; height: number; channels: number } }): [number, number] {
  const band = Math.round(info.width / 10);
  let left = 0;
  let right = 0;
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < band; x++) {
      left += data[(y * info.width + x) * info.channels];
      right += data[(y * info.width + info.width - 1 - x) * info.channels];
    }
  }
  const n = band * info.height;
  return [left / n, right / n];
}

describe('the mesh’s extra views of a liveness photo’s face', () => {
  it('enlarge a small face’s crop (its box grown by 40 % each side) so the face is MESH_FACE_WIDTH px wide: one equalised, one mirrored', async () => {
    const image = await card(400, 400);
    // a 120 px face in the middle: its crop is 216 px, enlarged 2.4 times
    const views = await meshViews(image, [140, 140, 120, 120]);
    expect(views).toHaveLength(2);
    for (const view of views) {
      expect(view.info).toMatchObject({
        width: Math.round(216 * (MESH_FACE_WIDTH / 120)),
        height: Math.round(216 * (MESH_FACE_WIDTH / 120)),
        channels: 3,
      });
    }
    const [equalised, mirrored] = views.map(edges);
    // the crop as it is: dark on the left, light on the right; mirrored: the other way round
    expect(equalised[0]).toBeLessThan(equalised[1]);
    expect(mirrored[0]).toBeGreaterThan(mirrored[1]);
  });

  it('leave a face already that wide at its own size, and give none for a crop too small to hold one', async () => {
    const image = await card(800, 800);
    const views = await meshViews(image, [200, 200, 320, 320]);
    expect(views.map((v) => [v.info.width, v.info.height])).toEqual([
      [576, 576],
      [576, 576],
    ]);
    expect(await meshViews(image, [10, 10, 10, 10])).toEqual([]);
  });
});
