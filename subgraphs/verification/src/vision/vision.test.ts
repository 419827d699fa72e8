import sharp from 'sharp';
import { createLogger } from '../../../../platform/logger.js';
import { VisionPool } from './vision.pool.js';
import { faceSimilarity } from './face-match.js';
import { TextReader } from './text-reader.js';
import { noFace, portrait } from '../../../../test/support/faces.js';
import { eyesClosed, jpegOf, rgbOf } from '../../../../bench/support/face-render.js';
import { judgeChallenge, readingOf } from '../liveness/liveness.rules.js';

describe('vision pool (Human on WASM, in a worker thread)', () => {
  const pool = new VisionPool({ size: 1, timeoutMs: 60_000, logger: createLogger('vision-test', 'silent') });
  afterAll(() => pool.close());

  it('finds the face in a portrait, describes it, and tells the same face from another', async () => {
    const woman = await portrait('woman');
    const man = await portrait('man');
    const [a, b, c] = await Promise.all([
      pool.analyze(woman),
      pool.analyze(await sharp(woman).modulate({ brightness: 1.15 }).resize(300).jpeg().toBuffer()),
      pool.analyze(man),
    ]);
    for (const analysis of [a, b, c]) expect(analysis.faces).toHaveLength(1);
    expect(a.faces[0].embedding).toHaveLength(1024);
    const same = faceSimilarity(a.faces[0].embedding, b.faces[0].embedding);
    const different = faceSimilarity(a.faces[0].embedding, c.faces[0].embedding);
    expect(same).toBeGreaterThan(0.9);
    expect(different).toBeLessThan(same - 0.2);
    expect(a.image).toMatchObject({ width: 320 });
  }, 120_000);

  it('reads the head turning the other way in the mirrored image', async () => {
    const man = await portrait('man');
    const [straight, mirrored] = await Promise.all([pool.analyze(man), pool.analyze(await sharp(man).flop().jpeg().toBuffer())]);
    expect(Math.sign(straight.faces[0].yaw)).toBe(-Math.sign(mirrored.faces[0].yaw));
  }, 120_000);

  it('reads the eyes’ aspect ratio from the lids: closed lids rendered from the mesh pass BLINK against the open eyes', async () => {
    const man = await portrait('man');
    const open = (await pool.analyze(man, { expression: true })).faces[0];
    expect(open.eyeAspect).toBeGreaterThan(0.2);
    // the upper lids drawn down to a lash line (the liveness bench's rendering), photographed again
    const closed = (await pool.analyze(await jpegOf(eyesClosed(await rgbOf(man), open.landmarks!), 85), { expression: true })).faces[0];
    expect(closed.eyeAspect!).toBeLessThan(open.eyeAspect! * 0.88);
    expect(judgeChallenge('BLINK', [readingOf(closed)], readingOf(open)).passed).toBe(true);
  }, 120_000);

  it('sees no face in a picture without one, and a blurred copy as less sharp', async () => {
    expect((await pool.analyze(await noFace())).faces).toEqual([]);
    const man = await portrait('man');
    const [sharpImage, blurred] = await Promise.all([pool.analyze(man), pool.analyze(await sharp(man).blur(6).jpeg().toBuffer())]);
    expect(blurred.image.sharpness).toBeLessThan(sharpImage.image.sharpness / 2);
  }, 120_000);
});

describe('text reader (tesseract.js, English model from its npm package)', () => {
  const reader = new TextReader();
  afterAll(() => reader.close());

  it('reads printed lines', async () => {
    const lines = ['REPUBLIC OF KENYA', 'A123456789KEN8402291F3001012'];
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="200"><rect width="900" height="200" fill="#fff"/>
      ${lines.map((line, i) => `<text x="30" y="${70 + i * 70}" font-family="DejaVu Sans Mono" font-size="34">${line}</text>`).join('')}</svg>`;
    const image = await sharp(Buffer.from(svg)).jpeg().toBuffer();
    const read = await reader.read(image);
    expect(read.lines.map((line) => line.text.replace(/\s/g, ''))).toEqual(lines.map((line) => line.replace(/\s/g, '')));
  }, 60_000);
});
