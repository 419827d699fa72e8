import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { createLogger } from '../platform/logger.js';
import { VisionPool } from '../subgraphs/verification/src/vision/vision.pool.js';
import { faceCrowding, faceMatchScore, PORTRAIT_MATCH } from '../subgraphs/verification/src/vision/face-match.js';
import { encodeCohortFace, installedFaceModel, type FaceCohortFile } from '../subgraphs/verification/src/vision/face-cohort.js';
import type { FaceAnalysis, FaceLandmarks } from '../subgraphs/verification/src/vision/vision.types.js';
import {
  CHALLENGE_TYPES,
  judgeChallenge,
  LIVENESS_RULES,
  readingOf,
  smileChange,
  type ChallengeType,
  type FaceReading,
} from '../subgraphs/verification/src/liveness/liveness.rules.js';
import {
  eyesClosed,
  jpegOf,
  retaken,
  rgbOf,
  skinTone,
  smiled,
  pitched,
  regionAround,
  toneGroupOf,
  toneShifted,
  DARKER_TONES,
  TONE_GROUPS,
  turned,
  type Rgb,
  type ToneGroup,
} from './support/face-render.js';
import { FACE_API_DEMO, GRID, HUMAN_ASSETS } from './face-calibration.bench.js';
import { londonSet, type PhotoPair } from './support/london-set.js';
import { seeded, type Random } from './support/random.js';
import { verdict } from './support/targets.js';

/**
 * Liveness and face match per skin-tone group (issue 29, items 3 and 4).
 *
 * Faces: the photos of the face-calibration bench (MIT sample pictures of npm packages, read from
 * node_modules): the 6 × 18 thumbnail grid of Human's `screenshot-facematch.jpg` and the faces of
 * `@vladmandic/face-api`'s `demo/sample1–6.jpg` group photos. Each usable photo (one face, big
 * enough, facing the camera: what a reference selfie must be) is one person's reference selfie;
 * the challenge photos are rendered from it (`support/face-render.ts`): a closed-lip smile of
 * random strength (corners out 5–14 % of the mouth's width each side, up 3–9 %, the cheeks raised
 * 0–6 %), closed eyes (the upper lids drawn down to a lash line), the head turned either way, raised, lowered (a nod: lowered then raised), each then "taken again"
 * (shifted, scaled, rotated ±3°, light and JPEG quality changed). Negatives: the reference
 * selfie taken again with the mouth moved by at most 2 % (a neutral face) sent for every challenge.
 * Skin tone: the ITA of the cheeks, grouped by Del Bino's bins. The photos hold few darker faces,
 * so every face lighter than "brown" is also rendered with its skin made darker (to ITA ≈ −15,
 * "brown", and ≈ −40, "dark"): synthetic tones of the same people, reported in their own rows.
 *
 * Face match per group: pairs of two different source photos of one row give the false-match
 * rates (the grid's non-author faces come from party photos and may repeat: unlabelled); one
 * person's pairs are each reference against the photo taken again (dedup), its rendered challenge
 * photos (liveness) and a document-like copy of it (small, soft, JPEG 45, less colour: a printed
 * portrait's loss, not another photo): synthetic pairs. The grid's author's photos in the half are
 * the only real one-person pairs.
 *
 * Split: faces are halved by a seeded draw; LIVENESS_BENCH_SPLIT `report` (the default, whose
 * figures are published) or `tune` (the half the thresholds of liveness.rules.ts were chosen on).
 * LIVENESS_BENCH_FACES: at most that many photos (all: ~ 120, half of them in a split).
 * LIVENESS_BENCH_READINGS: a file the readings are saved to, or read from when it exists (the rules
 * judged again without the models: seconds instead of minutes). LIVENESS_BENCH_DUMP=1 prints every
 * reading, LIVENESS_BENCH_MEASURES=1 the measures the thresholds are set on, genuine against neutral.
 * LIVENESS_BENCH_PHOTOS: the London Set's folder (`realPhotos` below: real photos of 102 people);
 * LIVENESS_BENCH_PHOTO_READINGS its readings saved or reused as LIVENESS_BENCH_READINGS does;
 * LIVENESS_BENCH_RENDERED=0 skips the renderings.
 */

type Split = 'tune' | 'report';
const SEED = 'liveness-bench/1';

interface Source {
  name: string;
  /** The reference selfie: a JPEG of one face. */
  jpeg: Buffer;
  /** The grid's author (one person in 18 photos). */
  author: boolean;
}

async function gridSources(): Promise<Source[]> {
  const file = path.join(HUMAN_ASSETS, 'screenshot-facematch.jpg');
  return Promise.all(
    Array.from({ length: GRID.rows * GRID.columns }, async (_, i) => {
      const row = Math.floor(i / GRID.columns);
      const column = i % GRID.columns;
      const jpeg = await sharp(file)
        .extract({ left: Math.round(column * GRID.columnWidth), top: GRID.top + Math.round(row * GRID.rowHeight), ...GRID.cell })
        .resize(256)
        .jpeg({ quality: 95 })
        .toBuffer();
      return { name: `grid ${row}:${column}`, jpeg, author: row === 0 };
    }),
  );
}

async function photoSources(vision: VisionPool): Promise<Source[]> {
  const out: Source[] = [];
  for (const photo of [1, 2, 3, 4, 5, 6]) {
    const file = path.join(FACE_API_DEMO, `sample${photo}.jpg`);
    const meta = await sharp(file).metadata();
    const { faces } = await vision.analyze(await sharp(file).jpeg().toBuffer());
    for (const [i, face] of faces.entries()) {
      const region = regionAround(face.box, meta, 0.5);
      out.push({
        name: `sample${photo} #${i}`,
        jpeg: await sharp(file).extract(region).resize(320).jpeg({ quality: 92 }).toBuffer(),
        author: false,
      });
    }
  }
  return out;
}

/** The one face of a photo as the liveness service would take it (null: it would refuse the photo). */
function usable(faces: FaceAnalysis[]): FaceAnalysis | null {
  if (faces.length !== 1) return null;
  const [face] = faces;
  return face.box[2] >= LIVENESS_RULES.minFaceWidth && face.mouth && face.landmarks ? face : null;
}

const frontal = (r: FaceReading) =>
  Math.abs(r.yaw) <= LIVENESS_RULES.frontal.maxYaw && Math.abs(r.pitch) <= LIVENESS_RULES.frontal.maxPitch;

/** What a challenge photo gave: its reading and description, or null when the service would refuse it (no single usable face). */
interface Shot {
  reading: FaceReading;
  embedding: number[];
  landmarks: FaceLandmarks;
}

interface Subject {
  source: Source;
  /** Original tone, or a synthetic darker one. */
  tone: 'original' | keyof typeof DARKER_TONES;
  group: ToneGroup;
  ita: number;
  reference: Shot;
  /** Genuine photos per challenge (a nod: two), null where the service refused a photo. */
  genuine: Record<ChallengeType, Array<Shot | null>>;
  /** The reference taken again, neutral. */
  neutral: Shot | null;
  /** A document-like copy of the reference. */
  document: Shot | null;
}

async function shot(vision: VisionPool, jpeg: Buffer): Promise<Shot | null> {
  const face = usable((await vision.analyze(jpeg, { expression: true })).faces);
  return face ? { reading: readingOf(face), embedding: face.embedding, landmarks: face.landmarks! } : null;
}

async function documentCopy(jpeg: Buffer): Promise<Buffer> {
  const meta = await sharp(jpeg).metadata();
  const small = await sharp(jpeg)
    .resize(Math.round(meta.width! * 0.4))
    .modulate({ saturation: 0.7 })
    .blur(0.6)
    .jpeg({ quality: 45 })
    .toBuffer();
  return sharp(small).resize(meta.width).jpeg({ quality: 90 }).toBuffer();
}

async function subject(
  vision: VisionPool,
  source: Source,
  tone: Subject['tone'],
  image: Rgb,
  landmarks: FaceLandmarks,
  r: Random,
): Promise<Subject | null> {
  const jpeg = await jpegOf(image, 95);
  const reference = await shot(vision, jpeg);
  if (!reference || !frontal(reference.reading)) return null;
  const { ita } = skinTone(image, landmarks);
  const taken = async (rendered: Rgb) => shot(vision, await retaken(await jpegOf(rendered), r));
  const strength = () => r.between(0.4, 0.55);
  // the cheek raise from its own draw, so the other renderings stay those of the earlier runs
  const cheek = seeded(`${SEED}/${source.name}/${tone}/cheek`).between(0, 0.06);
  const [smile, blink, left, right, up, down, neutral, document] = await Promise.all([
    taken(smiled(image, landmarks, r.between(0.05, 0.14), r.between(0.03, 0.09), cheek)),
    taken(eyesClosed(image, landmarks)),
    // the user's own left is the picture's right (photos as the camera takes them, unmirrored)
    taken(turned(image, landmarks, 1, strength())),
    taken(turned(image, landmarks, -1, strength())),
    taken(pitched(image, landmarks, -r.between(45, 55))),
    taken(pitched(image, landmarks, r.between(35, 45))),
    taken(smiled(image, landmarks, r.between(-0.02, 0.02), r.between(-0.02, 0.02))),
    documentCopy(jpeg).then((copy) => shot(vision, copy)),
  ]);
  return {
    source,
    tone,
    group: toneGroupOf(ita),
    ita,
    reference,
    genuine: { SMILE: [smile], BLINK: [blink], TURN_LEFT: [left], TURN_RIGHT: [right], LOOK_UP: [up], NOD: [down, up] },
    neutral,
    document,
  };
}

/** Every subject of one source photo: its own tone and, when lighter than brown, the darker renderings. */
async function subjectsOf(vision: VisionPool, source: Source, r: Random): Promise<Subject[]> {
  const face = usable((await vision.analyze(source.jpeg, { expression: true })).faces);
  if (!face?.landmarks) return [];
  const image = await rgbOf(source.jpeg);
  const out: Array<Subject | null> = [await subject(vision, source, 'original', image, face.landmarks, r)];
  const original = out[0];
  if (original && original.ita > 10) {
    for (const [tone, target] of Object.entries(DARKER_TONES) as Array<[keyof typeof DARKER_TONES, { L: number; b: number }]>) {
      out.push(await subject(vision, source, tone, toneShifted(image, face.landmarks, target), face.landmarks, r));
    }
  }
  return out.filter((s): s is Subject => s !== null);
}

/** `work` over `items`, at most `width` at once (the pool's queue time counts against its timeout). */
async function inTurn<T, R>(items: readonly T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await work(items[i]);
      }
    }),
  );
  return out;
}

const pc = (part: number, total: number) => (total ? `${((100 * part) / total).toFixed(1)}%` : '—');

function dump(subjects: Subject[]): void {
  const f = (r: FaceReading | undefined) =>
    r
      ? `y${r.yaw.toFixed(2)} p${r.pitch.toFixed(2)} e${r.eyeOpenness.toFixed(2)} h${r.smile.toFixed(2)} w${r.mouthWidth?.toFixed(3)} l${r.mouthCornerLift?.toFixed(3)}`
      : '—';
  for (const s of subjects) {
    console.log(`${s.source.name} ${s.tone} ${s.group} ita ${s.ita.toFixed(0)}`);
    console.log(`   ref     ${f(s.reference.reading)}`);
    console.log(`   neutral ${f(s.neutral?.reading)}`);
    for (const type of CHALLENGE_TYPES) console.log(`   ${type.padEnd(10)} ${s.genuine[type].map((x) => f(x?.reading)).join(' | ')}`);
  }
}

/** A table row: a skin-tone group, its synthetic renderings apart. */
const ALL_REAL = 'all, original tones';
const ALL_SYNTHETIC = 'all, synthetic tones';
/** The rows a subject counts in: its group (synthetic renderings apart), and the overall row. */
const rowsOf = (s: Subject) => (s.tone === 'original' ? [s.group, ALL_REAL] : [`${s.group} (synthetic)`, ALL_SYNTHETIC]);
const ROWS = [...TONE_GROUPS.flatMap((g) => [g.name, `${g.name} (synthetic)`]), ALL_REAL, ALL_SYNTHETIC];

/** The rule before issue 29.3, for comparison: the emotion model's `happy` at least 0.5, whatever the reference. */
const EMOTION_ALONE = 0.5;

function table(header: string[], rows: string[][]): void {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  for (const row of all) console.log(`  ${row.map((cell, i) => (i ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join('  ')}`);
}

interface Rates {
  genuine: { passed: number; total: number };
  neutral: { passed: number; total: number };
}

/** Per row and challenge: genuine photos passed, and the neutral photo passed (a false acceptance). */
function livenessRates(subjects: Subject[]): Map<string, Record<ChallengeType | 'SMILE_BEFORE', Rates>> {
  const out = new Map<string, Record<ChallengeType | 'SMILE_BEFORE', Rates>>();
  const empty = () => ({ genuine: { passed: 0, total: 0 }, neutral: { passed: 0, total: 0 } });
  const count = (rates: Rates, genuine: boolean, neutral: boolean) => {
    rates.genuine.total += 1;
    rates.neutral.total += 1;
    if (genuine) rates.genuine.passed += 1;
    if (neutral) rates.neutral.passed += 1;
  };
  for (const s of subjects) {
    for (const key of rowsOf(s)) {
      const row =
        out.get(key) ??
        (Object.fromEntries([...CHALLENGE_TYPES, 'SMILE_BEFORE'].map((t) => [t, empty()])) as Record<
          ChallengeType | 'SMILE_BEFORE',
          Rates
        >);
      out.set(key, row);
      for (const type of CHALLENGE_TYPES) {
        const frames = s.genuine[type];
        const still = s.neutral ? (type === 'NOD' ? [s.neutral.reading, s.reference.reading] : [s.neutral.reading]) : null;
        count(
          row[type],
          // a refused photo (no usable face) does not pass
          frames.every((f) => f) &&
            judgeChallenge(
              type,
              frames.map((f) => f!.reading),
              s.reference.reading,
            ).passed,
          still !== null && judgeChallenge(type, still, s.reference.reading).passed,
        );
      }
      const [smile] = s.genuine.SMILE;
      count(row.SMILE_BEFORE, (smile?.reading.smile ?? 0) >= EMOTION_ALONE, (s.neutral?.reading.smile ?? 0) >= EMOTION_ALONE);
    }
  }
  return out;
}

function printLiveness(rates: Map<string, Record<ChallengeType | 'SMILE_BEFORE', Rates>>): void {
  console.log('liveness per skin-tone group: genuine movements passed (1 − FNMR) / neutral photos passed (FMR-like), n subjects');
  const cell = ({ genuine, neutral }: Rates) => `${pc(genuine.passed, genuine.total)} / ${pc(neutral.passed, neutral.total)}`;
  const rows = ROWS.filter((r) => rates.has(r)).map((r) => {
    const row = rates.get(r)!;
    return [r, String(row.SMILE.genuine.total), ...CHALLENGE_TYPES.map((t) => cell(row[t])), cell(row.SMILE_BEFORE)];
  });
  table(['group', 'n', ...CHALLENGE_TYPES, 'SMILE by happy ≥ 0.5 (before)'], rows);
}

/** The measures the thresholds are set on, genuine against neutral, for tuning (LIVENESS_BENCH_MEASURES=1). */
function printMeasures(subjects: Subject[]): void {
  const q = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]?.toFixed(3) ?? '—';
    return `n ${sorted.length} min ${at(0)} p5 ${at(0.05)} p50 ${at(0.5)} p95 ${at(0.95)} max ${at(0.9999)}`;
  };
  const measures: Record<string, (x: FaceReading, ref: FaceReading) => number | null> = {
    'mouth widening': (x, ref) => (x.mouthWidth && ref.mouthWidth ? x.mouthWidth / ref.mouthWidth - 1 : null),
    'corner rise': (x, ref) => (x.mouthCornerLift != null && ref.mouthCornerLift != null ? x.mouthCornerLift - ref.mouthCornerLift : null),
    'happy rise': (x, ref) => x.smile - ref.smile,
    'smile change': (x, ref) => smileChange(x, ref),
    'eye openness ratio': (x, ref) => x.eyeOpenness / ref.eyeOpenness,
    'yaw change (left)': (x, ref) => ref.yaw - x.yaw,
    'pitch change (up)': (x, ref) => ref.pitch - x.pitch,
  };
  const genuineOf: Record<string, ChallengeType> = {
    'mouth widening': 'SMILE',
    'corner rise': 'SMILE',
    'happy rise': 'SMILE',
    'smile change': 'SMILE',
    'eye openness ratio': 'BLINK',
    'yaw change (left)': 'TURN_LEFT',
    'pitch change (up)': 'LOOK_UP',
  };
  for (const [name, measure] of Object.entries(measures)) {
    const values = (pick: (s: Subject) => Shot | null | undefined) =>
      subjects.flatMap((s) => {
        const x = pick(s);
        const v = x ? measure(x.reading, s.reference.reading) : null;
        return v === null ? [] : [v];
      });
    console.log(`  ${name}: genuine ${q(values((s) => s.genuine[genuineOf[name]][0]))}`);
    console.log(`  ${name.replace(/./g, ' ')}  neutral ${q(values((s) => s.neutral))}`);
  }
}

/** Share of `scores` at or above `t`. */
const atLeast = (scores: number[], t: number) => [scores.filter((x) => x >= t).length, scores.length] as const;
/** The share of `scores` below `t` (false non-matches of one person's pairs), and at or above it (false matches of two people's). */
const belowShare = (scores: number[], t: number) => pc(scores.length - atLeast(scores, t)[0], scores.length);
const aboveShare = (scores: number[], t: number) => pc(atLeast(scores, t)[0], scores.length);

function printFaceMatch(subjects: Subject[]): void {
  console.log(
    'face match per skin-tone group (API 0–1 scores): false non-match (same person below the bar) / false match (two people at or above it)',
  );
  const rows: string[][] = [];
  for (const r of ROWS) {
    const group = subjects.filter((s) => rowsOf(s).includes(r));
    if (!group.length) continue;
    const dedupSame = group.flatMap((s) => (s.neutral ? [faceMatchScore(s.reference.embedding, s.neutral.embedding)] : []));
    const documentSame = group.flatMap((s) => (s.document ? [faceMatchScore(s.document.embedding, s.reference.embedding)] : []));
    const livenessSame = group.flatMap((s) =>
      CHALLENGE_TYPES.flatMap((t) => s.genuine[t].flatMap((f) => (f ? [faceMatchScore(f.embedding, s.reference.embedding)] : []))),
    );
    const different: number[] = [];
    const differentDocument: number[] = [];
    group.forEach((a, i) =>
      group.slice(i + 1).forEach((b) => {
        if (a.source === b.source || (a.source.author && b.source.author)) return;
        different.push(faceMatchScore(a.reference.embedding, b.reference.embedding));
        if (a.document) differentDocument.push(faceMatchScore(a.document.embedding, b.reference.embedding));
      }),
    );
    const fnmr = (xs: number[], t: number) => `${belowShare(xs, t)} (${xs.length})`;
    const fmr = (xs: number[], t: number) => `${aboveShare(xs, t)} (${xs.length})`;
    rows.push([
      r,
      fnmr(dedupSame, DEDUP_SCORE),
      fmr(different, DEDUP_SCORE),
      fnmr(documentSame, PORTRAIT_MATCH.pass),
      fmr(differentDocument, PORTRAIT_MATCH.pass),
      fmr(differentDocument, PORTRAIT_MATCH.reject),
      fnmr(livenessSame, LIVENESS_RULES.faceMatch.pass),
      fmr(different, LIVENESS_RULES.faceMatch.pass),
    ]);
  }
  table(
    [
      'group',
      'dedup FNMR @0.90',
      'dedup FMR @0.90',
      'doc↔selfie FNMR @0.80',
      'doc↔selfie FMR @0.80',
      'FMR @0.50 (review)',
      'liveness FNMR @0.60',
      'liveness FMR @0.60',
    ],
    rows,
  );
  const author = subjects.filter((s) => s.source.author && s.tone === 'original');
  const real: number[] = [];
  author.forEach((a, i) => author.slice(i + 1).forEach((b) => real.push(faceMatchScore(a.reference.embedding, b.reference.embedding))));
  if (real.length) {
    const [above, n] = atLeast(real, DEDUP_SCORE);
    const [above60] = atLeast(real, LIVENESS_RULES.faceMatch.pass);
    console.log(
      `  real photos of one person (the grid's author, ${author.length} photos, ${[...new Set(author.map((s) => s.group))].join('/')}): ${n} pairs, FNMR ${pc(n - above, n)} at 0.90, ${pc(n - above60, n)} at 0.60`,
    );
  }
}

/** The spec's dedup default. */
const DEDUP_SCORE = 0.9;

/** Issue 29.3's two SMILE targets for one row (figures named `<prefix>: …, <row>`), met or not only when `judged` (a complete report half). */
function smileVerdicts(prefix: string, row: string, { genuine, neutral }: Rates, judged: boolean): void {
  verdict({
    item: '29.3',
    figure: `${prefix}: genuine smiles pass, ${row}`,
    measured: `${pc(genuine.passed, genuine.total)} of ${genuine.total}`,
    target: '≥ 95 %',
    met: judged ? genuine.passed >= 0.95 * genuine.total : null,
  });
  verdict({
    item: '29.3',
    figure: `${prefix}: neutral photos fail, ${row}`,
    measured: `${pc(neutral.total - neutral.passed, neutral.total)} of ${neutral.total}`,
    target: '≥ 95 %',
    met: judged ? neutral.total - neutral.passed >= 0.95 * neutral.total : null,
  });
}

/** Issue 29.3's targets per group with real faces and per synthetic group. */
function recordVerdicts(rates: Map<string, Record<ChallengeType | 'SMILE_BEFORE', Rates>>, split: Split, complete: boolean): void {
  for (const r of ROWS) {
    const row = rates.get(r);
    if (row) smileVerdicts('SMILE', r, row.SMILE, split === 'report' && complete);
  }
}

/**
 * Real photos (LIVENESS_BENCH_PHOTOS: the London Set, support/london-set.ts): each person's neutral
 * front photo is the reference selfie, the smiling one the SMILE challenge. A camera's size: as
 * photographed (faces ≈ 650 px wide: a phone's front camera), and as a webcam frames it (640 px
 * wide: faces ≈ 300 px). Both photos are also "taken again" (support/face-render.ts `retaken`).
 */
const CAMERAS = { phone: null, webcam: 640 } as const;
type Camera = keyof typeof CAMERAS;

interface PairSubject {
  pair: PhotoPair;
  camera: Camera;
  group: ToneGroup;
  ita: number;
  neutral: Shot;
  smiling: Shot | null;
  /** Each photo taken again: still faces, and a second genuine smile. */
  neutralAgain: Shot | null;
  smilingAgain: Shot | null;
}

async function pairSubject(vision: VisionPool, pair: PhotoPair, camera: Camera, r: Random): Promise<PairSubject | null> {
  const width = CAMERAS[camera];
  const load = async (file: string) => (width ? sharp(file).resize(width).jpeg({ quality: 90 }).toBuffer() : readFile(file));
  const [neutralJpeg, smilingJpeg] = await Promise.all([load(pair.neutral), load(pair.smiling)]);
  const neutral = await shot(vision, neutralJpeg);
  if (!neutral || !frontal(neutral.reading)) return null;
  const { ita } = skinTone(await rgbOf(neutralJpeg), neutral.landmarks);
  const [smiling, neutralAgain, smilingAgain] = await Promise.all([
    shot(vision, smilingJpeg),
    retaken(neutralJpeg, r).then((jpeg) => shot(vision, jpeg)),
    retaken(smilingJpeg, r).then((jpeg) => shot(vision, jpeg)),
  ]);
  return { pair, camera, group: toneGroupOf(ita), ita, neutral, smiling, neutralAgain, smilingAgain };
}

const ALL_PEOPLE = 'all people';
/** A person counts in their skin-tone group (ITA of the neutral photo), their self-reported ethnicity's row, and the overall row. */
const pairRowsOf = (s: PairSubject) => [s.group, ...(s.pair.ethnicity ? [`self-reported ${s.pair.ethnicity}`] : []), ALL_PEOPLE];

const smilePasses = (challenge: Shot | null, reference: Shot | null) =>
  // a refused photo (no usable face) does not pass
  challenge !== null && reference !== null && judgeChallenge('SMILE', [challenge.reading], reference.reading).passed;

/** Per row: genuine smiles passed (the smiling photo and it taken again, against the neutral one); neutral photos passed (the neutral photo taken again, the smiling one taken again against itself, the neutral one against the smiling one as reference). */
function pairRates(subjects: PairSubject[]): Map<string, Rates> {
  const out = new Map<string, Rates>();
  for (const s of subjects) {
    const genuine = [smilePasses(s.smiling, s.neutral), smilePasses(s.smilingAgain, s.neutral)];
    const still = [smilePasses(s.neutralAgain, s.neutral), smilePasses(s.smilingAgain, s.smiling), smilePasses(s.neutral, s.smiling)];
    for (const key of pairRowsOf(s)) {
      const row = out.get(key) ?? { genuine: { passed: 0, total: 0 }, neutral: { passed: 0, total: 0 } };
      out.set(key, row);
      row.genuine.total += genuine.length;
      row.genuine.passed += genuine.filter(Boolean).length;
      row.neutral.total += still.length;
      row.neutral.passed += still.filter(Boolean).length;
    }
  }
  return out;
}

const PAIR_ROWS = (subjects: PairSubject[]) => [
  ...TONE_GROUPS.map((g) => g.name as string).filter((g) => subjects.some((s) => s.group === g)),
  ...[...new Set(subjects.flatMap((s) => (s.pair.ethnicity ? [`self-reported ${s.pair.ethnicity}`] : [])))].sort(),
  ALL_PEOPLE,
];

function printPairs(subjects: PairSubject[], camera: Camera): Map<string, Rates> {
  const rates = pairRates(subjects);
  const rows = PAIR_ROWS(subjects).map((r) => {
    const group = subjects.filter((s) => pairRowsOf(s).includes(r));
    const { genuine, neutral } = rates.get(r)!;
    const same = group.flatMap((s) => (s.smiling ? [faceMatchScore(s.neutral.embedding, s.smiling.embedding)] : []));
    const different: number[] = [];
    group.forEach((a, i) =>
      group.slice(i + 1).forEach((b) => {
        different.push(faceMatchScore(a.neutral.embedding, b.neutral.embedding));
        if (b.smiling) different.push(faceMatchScore(a.neutral.embedding, b.smiling.embedding));
      }),
    );
    // the neutral photos' crowding (face-match.ts CROWDING): what the face scores are corrected by
    const crowding = group.map((s) => faceCrowding(s.neutral.embedding));
    const mean = crowding.reduce((sum, c) => sum + c, 0) / crowding.length;
    return [
      r,
      String(group.length),
      `${pc(genuine.passed, genuine.total)} (${genuine.total})`,
      `${pc(neutral.total - neutral.passed, neutral.total)} (${neutral.total})`,
      `${belowShare(same, DEDUP_SCORE)} / ${belowShare(same, LIVENESS_RULES.faceMatch.pass)} (${same.length})`,
      `${aboveShare(different, DEDUP_SCORE)} / ${aboveShare(different, PORTRAIT_MATCH.pass)} / ${aboveShare(different, LIVENESS_RULES.faceMatch.pass)} (${different.length})`,
      `${mean.toFixed(3)} (${Math.min(...crowding).toFixed(3)} – ${Math.max(...crowding).toFixed(3)})`,
    ];
  });
  console.log(
    `real photos (London Set), ${camera === 'phone' ? 'as photographed (faces ≈ 650 px)' : `a webcam's frame (${CAMERAS[camera]} px wide)`}: ` +
      "SMILE genuine smiles passed / neutral photos refused (photos); face match between a person's two photos and between two people",
  );
  table(
    [
      'group',
      'people',
      'SMILE passed',
      'neutral refused',
      'FNMR @0.90 / @0.60 (pairs)',
      'FMR @0.90 / @0.80 / @0.60 (pairs)',
      'crowding mean (range)',
    ],
    rows,
  );
  return rates;
}

async function realPhotos(vision: VisionPool, dir: string, split: Split, limit: number): Promise<void> {
  const halves = seeded(`${SEED}/photos/split`);
  const pairs = londonSet(dir)
    .filter(() => (halves.next() < 0.5 ? 'tune' : 'report') === split)
    .slice(0, limit);
  // the readings, to judge them again without the models (as LIVENESS_BENCH_READINGS for the renderings)
  const saved = process.env.LIVENESS_BENCH_PHOTO_READINGS;
  const readings: Partial<Record<Camera, PairSubject[]>> =
    saved && existsSync(saved) ? (JSON.parse(readFileSync(saved, 'utf8')) as Partial<Record<Camera, PairSubject[]>>) : {};
  for (const camera of Object.keys(CAMERAS) as Camera[]) {
    const started = performance.now();
    const subjects =
      readings[camera] ??
      (await inTurn(pairs, 3, (pair) => pairSubject(vision, pair, camera, seeded(`${SEED}/photos/${pair.id}/${camera}`)))).filter(
        (s): s is PairSubject => s !== null,
      );
    readings[camera] = subjects;
    console.log(
      `${split} half of the real photos: ${pairs.length} people → ${subjects.length} usable, ${camera}, in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
    const rates = printPairs(subjects, camera);
    for (const r of PAIR_ROWS(subjects))
      smileVerdicts(`SMILE, real photos (${camera})`, r, rates.get(r)!, split === 'report' && limit === Infinity);
  }
  if (saved && !existsSync(saved)) writeFileSync(saved, JSON.stringify(readings));
}

/** The product's face cohort (face-cohort.ts): the tune half's photos and their darker renderings, as their reference selfies describe them. */
function writeCohort(subjects: Subject[], split: Split, file: string): void {
  if (split !== 'tune') throw new Error('LIVENESS_BENCH_COHORT: the cohort is made of the tune half (LIVENESS_BENCH_SPLIT=tune)');
  const darker = subjects.filter((s) => s.tone !== 'original').length;
  const cohort: FaceCohortFile = {
    about: `Face descriptions of the ${subjects.length - darker} MIT sample photos of @vladmandic/human and @vladmandic/face-api in the tune half of bench/liveness.bench.ts, and of ${darker} darker renderings of them (synthetic skin tones). No user. Made by: LIVENESS_BENCH_SPLIT=tune LIVENESS_BENCH_COHORT=data/face-cohort.json npm run bench -- liveness`,
    model: installedFaceModel(),
    faces: subjects.map((s) => encodeCohortFace(`${s.source.name} ${s.tone}`, s.tone !== 'original', s.reference.embedding)),
  };
  writeFileSync(file, `${JSON.stringify(cohort, null, 2)}\n`);
  console.log(`face cohort: ${subjects.length} faces written to ${file}`);
}

/** The rendered movements of the packages' sample faces (above), per skin-tone group. */
async function renderedFaces(vision: VisionPool, split: Split, limit: number): Promise<void> {
  const started = performance.now();
  const saved = process.env.LIVENESS_BENCH_READINGS;
  let subjects: Subject[];
  if (saved && existsSync(saved)) {
    subjects = JSON.parse(readFileSync(saved, 'utf8')) as Subject[];
    console.log(`${split} half: ${subjects.length} subjects read from ${saved}`);
  } else {
    const sources = [...(await gridSources()), ...(await photoSources(vision))];
    const halves = seeded(`${SEED}/split`);
    const chosen = sources.filter(() => (halves.next() < 0.5 ? 'tune' : 'report') === split).slice(0, limit);
    subjects = (await inTurn(chosen, 3, (source) => subjectsOf(vision, source, seeded(`${SEED}/${source.name}`)))).flat();
    console.log(
      `${split} half: ${chosen.length} photos → ${subjects.length} subjects (${subjects.filter((s) => s.tone === 'original').length} original tones) in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
    // the photos' readings, to judge them again without the models (the JPEGs stay out)
    if (saved)
      writeFileSync(
        saved,
        JSON.stringify(subjects, (key, value: unknown) => (key === 'jpeg' ? undefined : value)),
      );
  }
  if (process.env.LIVENESS_BENCH_COHORT) writeCohort(subjects, split, process.env.LIVENESS_BENCH_COHORT);
  if (process.env.LIVENESS_BENCH_DUMP) dump(subjects);
  if (process.env.LIVENESS_BENCH_MEASURES) printMeasures(subjects);
  const rates = livenessRates(subjects);
  printLiveness(rates);
  printFaceMatch(subjects);
  recordVerdicts(rates, split, limit === Infinity);
}

export async function run(): Promise<void> {
  const split: Split = process.env.LIVENESS_BENCH_SPLIT === 'tune' ? 'tune' : 'report';
  const limit = Number(process.env.LIVENESS_BENCH_FACES ?? Infinity);
  const photos = process.env.LIVENESS_BENCH_PHOTOS;
  const vision = new VisionPool({ size: 2, timeoutMs: 120_000, logger: createLogger('bench', 'silent') });
  try {
    if (process.env.LIVENESS_BENCH_RENDERED !== '0') await renderedFaces(vision, split, limit);
    if (photos) await realPhotos(vision, photos, split, limit);
    else console.log("real photos: not measured (LIVENESS_BENCH_PHOTOS names the London Set's folder: bench/README.md)");
  } finally {
    await vision.close();
  }
}
