import sharp from 'sharp';
import { createLogger } from '../../../../platform/logger.js';
import { VisionPool } from './vision.pool.js';
import { faceCrowding, faceMatchScore, faceSimilarity, PORTRAIT_MATCH, scoreOfCosine } from './face-match.js';
import { TextReader } from './text-reader.js';
import { noFace, portrait } from '../../../../test/support/faces.js';
import { DARKER_TONES, eyesClosed, jpegOf, rgbOf, toneShifted } from '../../../../bench/support/face-render.js';
import { processAlive } from '../../../../test/support/stack-process.js';
import { eventually } from '../../../../test/support/database.js';
import { judgeChallenge, readingOf } from '../liveness/liveness.rules.js';
import { AMINA, idCardBack, td1 } from '../../../../test/support/documents.js';
import { daysAgo, electricityBill } from '../../../../test/support/bills.js';
import { threadNames } from '../../../../test/support/process-info.js';
import { readDocumentText } from '../document/document-text.js';
import { readAddressDocument } from '../address/address-reader.js';

describe('vision pool (Human on WASM, in a worker process)', () => {
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

  it('scores two people rendered with dark skin apart, where the raw cosine put them close, and one person across tones as the same', async () => {
    // the liveness bench's recolouring of the two portraits; the model crowds darker faces together
    const shades = async (who: 'woman' | 'man') => {
      const jpeg = await portrait(who);
      const face = (await pool.analyze(jpeg)).faces[0];
      const dark = await jpegOf(toneShifted(await rgbOf(jpeg), face.landmarks!, DARKER_TONES.dark));
      return { original: face.embedding, dark: (await pool.analyze(dark)).faces[0].embedding };
    };
    const [woman, man] = await Promise.all([shades('woman'), shades('man')]);
    for (const who of [woman, man]) {
      expect(faceCrowding(who.original)).toBeLessThan(0);
      expect(faceCrowding(who.dark)).toBeGreaterThan(0.03);
    }
    const raw = scoreOfCosine(faceSimilarity(woman.dark, man.dark));
    const corrected = faceMatchScore(woman.dark, man.dark);
    // under the review bar of a portrait check: another person, where the raw cosine asked a reviewer
    expect(corrected).toBeLessThan(Math.min(PORTRAIT_MATCH.reject, raw - 0.2));
    // two light faces are scored as before; the man against his dark rendering still passes
    expect(faceMatchScore(man.original, woman.original)).toBeCloseTo(scoreOfCosine(faceSimilarity(man.original, woman.original)), 4);
    expect(faceMatchScore(man.original, man.dark)).toBeGreaterThanOrEqual(PORTRAIT_MATCH.pass);
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

describe('vision pool: the models live in worker processes of their own', () => {
  it('runs them outside this process, stops them when idle and starts them again on the next image', async () => {
    const pool = new VisionPool({ size: 1, timeoutMs: 60_000, idleMs: 200, logger: createLogger('vision-test', 'silent') });
    try {
      const man = await portrait('man');
      expect((await pool.analyze(man)).faces).toHaveLength(1);
      const [pid] = pool.workerPids();
      expect(pid).toBeDefined();
      expect(pid).not.toBe(process.pid);
      await eventually(async () => !processAlive(pid), 30_000, 20); // the memory of its models went back with it
      expect(pool.workerPids()).toEqual([]);
      expect((await pool.analyze(man)).faces).toHaveLength(1);
      expect(pool.workerPids()).toHaveLength(1);
      expect(pool.workerPids()[0]).not.toBe(pid);
    } finally {
      await pool.close();
    }
  }, 120_000);

  it('fails the requests of a worker that dies (503, never a hang) and starts another for the next', async () => {
    const pool = new VisionPool({ size: 1, timeoutMs: 60_000, logger: createLogger('vision-test', 'silent') });
    try {
      const man = await portrait('man');
      await pool.analyze(man); // started, models loaded
      const [pid] = pool.workerPids();
      const pending = pool.analyze(man);
      process.kill(pid, 'SIGKILL');
      await expect(pending).rejects.toMatchObject({ code: 'UNAVAILABLE' });
      expect((await pool.analyze(man)).faces).toHaveLength(1);
      expect(pool.workerPids()[0]).not.toBe(pid);
    } finally {
      await pool.close();
    }
  }, 120_000);
});

describe('vision pool: documents and proofs of address are read in the worker processes', () => {
  const TODAY = new Date('2026-11-25T00:00:00Z');
  const logger = createLogger('vision-test', 'silent');

  it('reads them as the readers read them in this process, Tesseract in the worker, the face models only for a face', async () => {
    const pool = new VisionPool({ size: 1, timeoutMs: 60_000, logger });
    const english = new TextReader();
    const englishAndFrench = new TextReader(['eng', 'fra']);
    try {
      const back = await idCardBack(td1(AMINA));
      const bill = await electricityBill('AMINA WANJIKU', ['12 Moi Avenue', 'Nairobi 00100'], daysAgo(20, TODAY));
      const [text, address] = await Promise.all([pool.readDocumentText(back, TODAY), pool.readAddress(bill)]);
      expect(text.mrz).toMatchObject({ format: 'TD1', lines: td1(AMINA), valid: true });
      expect(address.fields).toMatchObject({ fullName: 'AMINA WANJIKU', issueDate: daysAgo(20, TODAY) });
      // a move, not a rewrite: the same readings, to the last digit of every confidence
      expect(text).toEqual(await readDocumentText(back, english, TODAY));
      expect(address).toEqual(await readAddressDocument(bill, englishAndFrench));
      // OCR's threads are the worker's
      const [reader] = pool.workerPids();
      expect(threadNames(reader)).toContain('WorkerThread');

      // a worker that only judges faces starts no OCR
      const faces = new VisionPool({ size: 1, timeoutMs: 60_000, logger });
      try {
        expect((await faces.analyze(await portrait('man'))).faces).toHaveLength(1);
        expect(threadNames(faces.workerPids()[0])).not.toContain('WorkerThread');
      } finally {
        await faces.close();
      }
    } finally {
      await Promise.all([pool.close(), english.close(), englishAndFrench.close()]);
    }
  }, 120_000);

  it('fails a reading whose worker dies with 503, as an analysis, and reads the next in a new worker', async () => {
    const pool = new VisionPool({ size: 1, timeoutMs: 60_000, logger });
    try {
      const back = await idCardBack(td1(AMINA));
      await pool.readDocumentText(back, TODAY); // started, Tesseract loaded
      const [pid] = pool.workerPids();
      const reading = pool.readDocumentText(back, TODAY);
      const analysis = pool.analyze(await portrait('man'));
      process.kill(pid, 'SIGKILL');
      await expect(reading).rejects.toMatchObject({ code: 'UNAVAILABLE', message: 'Document reading failed' });
      await expect(analysis).rejects.toMatchObject({ code: 'UNAVAILABLE', message: 'Face analysis failed' });
      expect((await pool.readDocumentText(back, TODAY)).mrz).toMatchObject({ valid: true });
      expect(pool.workerPids()[0]).not.toBe(pid);
    } finally {
      await pool.close();
    }
  }, 120_000);

  it('fails a reading past its budget with 503 and replaces the worker', async () => {
    const pool = new VisionPool({ size: 1, timeoutMs: 50, logger });
    try {
      // the first reading starts the worker process and Tesseract too: far past 50 ms (a second was
      // not, once, on a quiet machine with the models in the page cache)
      const page = await electricityBill('AMINA WANJIKU', ['12 Moi Avenue', 'Nairobi 00100'], daysAgo(20, TODAY));
      const reading = pool.readAddress(page);
      const [pid] = pool.workerPids();
      await expect(reading).rejects.toMatchObject({ code: 'UNAVAILABLE', message: 'Address document reading timed out' });
      await eventually(async () => !processAlive(pid), 10_000, 20);
    } finally {
      await pool.close();
    }
  }, 60_000);
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

  it('stops its worker when idle and starts it again on the next read', async () => {
    const idle = new TextReader(['eng'], { idleMs: 100 });
    try {
      const image = await sharp(
        Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="100"><rect width="600" height="100" fill="#fff"/><text x="20" y="65" font-family="DejaVu Sans Mono" font-size="34">REPUBLIC OF KENYA</text></svg>',
        ),
      )
        .jpeg()
        .toBuffer();
      expect((await idle.read(image)).text).toMatch(/KENYA/);
      expect(idle.running).toBe(true);
      await eventually(async () => !idle.running, 30_000, 20);
      expect((await idle.read(image)).text).toMatch(/KENYA/);
    } finally {
      await idle.close();
    }
  }, 60_000);
});
