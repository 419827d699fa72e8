import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { imageFacts } from './image-facts.js';
import { meshViews } from './mesh-views.js';
import type { FaceAnalysis, Point2, VisionAnalysis } from './vision.types.js';

/**
 * The face models (@vladmandic/human on the tfjs WASM backend, CPU only), in a vision worker
 * process (vision.worker.ts imports this module on its first face analysis: a worker that only
 * reads text never loads them): loaded once, from the npm packages on disk (nothing is downloaded).
 */

const require = createRequire(import.meta.url);
const packageDir = (entry: string, up: number) => path.resolve(path.dirname(require.resolve(entry)), ...Array<string>(up).fill('..'));
const HUMAN_DIR = packageDir('@vladmandic/human', 1);
const WASM_DIR = path.join(packageDir('@tensorflow/tfjs-backend-wasm', 1), 'dist');

// Node's fetch has no file:// scheme; the models are files of the package
const realFetch = globalThis.fetch;
globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  if (!url.startsWith('file://')) return realFetch(input, init);
  return new Response(readFileSync(fileURLToPath(url)), {
    headers: { 'content-type': url.endsWith('.json') ? 'application/json' : 'application/octet-stream' },
  });
}) as typeof fetch;

type HumanModule = typeof import('@vladmandic/human');
const { Human } = require(path.join(HUMAN_DIR, 'dist', 'human.node-wasm.js')) as HumanModule;
const human = new Human({
  backend: 'wasm',
  wasmPath: `${pathToFileURL(WASM_DIR).href}/`,
  modelBasePath: `${pathToFileURL(path.join(HUMAN_DIR, 'models')).href}/`,
  // stills, not video: no frame caching, every frame analysed in full
  cacheSensitivity: 0,
  debug: false,
  face: {
    enabled: true,
    detector: { rotation: true, maxDetected: 5, skipFrames: 0, minConfidence: 0.5 },
    mesh: { enabled: true },
    iris: { enabled: true },
    description: { enabled: true, skipFrames: 0 },
    emotion: { enabled: true, skipFrames: 0 },
    antispoof: { enabled: true, skipFrames: 0 },
    liveness: { enabled: true, skipFrames: 0 },
  },
  body: { enabled: false },
  hand: { enabled: false },
  object: { enabled: false },
  gesture: { enabled: false },
  segmentation: { enabled: false },
  filter: { enabled: false },
});
const ready = human.load().then(() => human.warmup());

type Point = [number, number, number?];
const gap = (mesh: Point[], a: number, b: number) => Math.abs(mesh[a][1] - mesh[b][1]);
const xy = (p: Point): Point2 => [Math.round(p[0] * 10) / 10, Math.round(p[1] * 10) / 10];
const distance = (mesh: Point[], a: number, b: number) => Math.hypot(mesh[a][0] - mesh[b][0], mesh[a][1] - mesh[b][1]);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

type MeshReadings = Pick<FaceAnalysis, 'facing' | 'eyesOpen' | 'mouthOpen' | 'mouth' | 'eyeAspect' | 'landmarks'>;
type Shape = { width: number; cornerLift: number; eyeAspect: number };

/**
 * The mouth's shape and the eyes' opening in one mesh (MediaPipe's indices: 61/291 mouth corners,
 * 0/17 the lips' outer middle, 234/454 the cheeks' edges, 10/152 forehead and chin, 33/263 and
 * 133/362 the eyes' outer and inner corners, 160/159/158 over 144/145/153 and 387/386/385 over
 * 373/374/380 the lids), measured along the line of the eyes, so a rolled head (or a mirrored
 * photo) reads the same.
 */
function shapeOf(mesh: Point[]): Shape {
  const eyeLine = Math.hypot(mesh[263][0] - mesh[33][0], mesh[263][1] - mesh[33][1]) || 1;
  // across the face (u, pointing to the picture's right) and down it (v): the head's own axes in the picture
  const side = mesh[263][0] >= mesh[33][0] ? 1 : -1;
  const u = [(side * (mesh[263][0] - mesh[33][0])) / eyeLine, (side * (mesh[263][1] - mesh[33][1])) / eyeLine];
  const across = (a: number, b: number) => Math.abs((mesh[b][0] - mesh[a][0]) * u[0] + (mesh[b][1] - mesh[a][1]) * u[1]);
  const down = (p: Point) => -p[0] * u[1] + p[1] * u[0];
  const faceHeight = Math.abs(down(mesh[152]) - down(mesh[10])) || 1;
  const lips = (down(mesh[0]) + down(mesh[17])) / 2;
  const corners = (down(mesh[61]) + down(mesh[291])) / 2;
  // the eye aspect ratio: the lids' gap at three points over the eye's width, both eyes
  const aspect = (lids: Array<[number, number]>, outer: number, inner: number) =>
    mean(lids.map(([a, b]) => distance(mesh, a, b))) / (distance(mesh, outer, inner) || 1);
  return {
    width: across(61, 291) / (across(234, 454) || 1),
    cornerLift: (lips - corners) / faceHeight,
    eyeAspect:
      (aspect(
        [
          [160, 144],
          [159, 145],
          [158, 153],
        ],
        33,
        133,
      ) +
        aspect(
          [
            [387, 373],
            [386, 374],
            [385, 380],
          ],
          263,
          362,
        )) /
      2,
  };
}

/**
 * The mesh's readings. Eyes and mouth opening as Human's gesture module measures them; the mouth's
 * shape and the eyes' aspect from `shapeOf`, averaged over the meshes given (the photo's and those
 * of `meshPasses`: each pass errs differently, the mean less).
 */
function meshReadings(mesh: Point[], more: Point[][] = []): MeshReadings {
  if (mesh.length <= 450)
    return { facing: 'center', eyesOpen: { left: 1, right: 1 }, mouthOpen: 0, mouth: null, eyeAspect: null, landmarks: null };
  const zDiff = (mesh[33][2] ?? 0) - (mesh[263][2] ?? 0);
  const xDiff = mesh[33][0] - mesh[263][0];
  const facing = Math.abs(zDiff / xDiff) <= 0.15 ? 'center' : zDiff < 0 ? 'left' : 'right';
  const shapes = [mesh, ...more.filter((m) => m.length > 450)].map(shapeOf);
  const eye = (outer: number, inner: number, upper: number, lower: number) => ({
    outer: xy(mesh[outer]),
    inner: xy(mesh[inner]),
    upper: xy(mesh[upper]),
    lower: xy(mesh[lower]),
  });
  return {
    facing,
    eyesOpen: { left: gap(mesh, 374, 386) / gap(mesh, 443, 450), right: gap(mesh, 145, 159) / gap(mesh, 223, 230) },
    mouthOpen: Math.min(100, (500 * gap(mesh, 13, 14)) / gap(mesh, 10, 152)),
    mouth: { width: mean(shapes.map((s) => s.width)), cornerLift: mean(shapes.map((s) => s.cornerLift)) },
    eyeAspect: mean(shapes.map((s) => s.eyeAspect)),
    landmarks: {
      mouthLeft: xy(mesh[61]),
      mouthRight: xy(mesh[291]),
      upperLip: xy(mesh[0]),
      lowerLip: xy(mesh[17]),
      leftEye: eye(33, 133, 159, 145),
      rightEye: eye(263, 362, 386, 374),
      leftCheek: xy(mesh[50]),
      rightCheek: xy(mesh[280]),
      forehead: xy(mesh[10]),
      chin: xy(mesh[152]),
    },
  };
}

/** The second and third looks at a face: the mesh models alone (no description, emotion or anti-spoofing). */
const MESH_ONLY = {
  face: { description: { enabled: false }, emotion: { enabled: false }, antispoof: { enabled: false }, liveness: { enabled: false } },
};
const EVERYTHING = {
  face: { description: { enabled: true }, emotion: { enabled: true }, antispoof: { enabled: true }, liveness: { enabled: true } },
};

/**
 * The face's mesh found again in the two other views of it of `meshViews` (its crop enlarged,
 * contrast equalised; and mirrored), for a photo of one face (a liveness photo). Each mesh in its
 * own view's pixels (the shape measures do not depend on where the face is or its size). The
 * face's description is not taken from them: face match reads the photo as it is.
 */
async function meshPasses(image: Uint8Array, box: readonly number[]): Promise<Point[][]> {
  const views = await meshViews(image, box);
  const meshes: Point[][] = [];
  for (const view of views) {
    const { data, info } = view;
    const tensor = human.tf.tensor3d(new Uint8Array(data), [info.height, info.width, 3], 'int32');
    try {
      const { face } = await human.detect(tensor, MESH_ONLY);
      if (face.length === 1) meshes.push(face[0].mesh as Point[]);
    } finally {
      human.tf.dispose(tensor);
    }
  }
  return meshes;
}

/** The image's faces and facts; `expression`: the face's mouth and eyes measured in two more views of it. */
export async function analyze(image: Uint8Array, expression: boolean): Promise<VisionAnalysis> {
  await ready;
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const tensor = human.tf.tensor3d(new Uint8Array(data), [info.height, info.width, 3], 'int32');
  try {
    const result = await human.detect(tensor, EVERYTHING);
    // the other looks only where a face's expression is judged: documents and face match read the photo once
    const more = expression && result.face.length === 1 ? await meshPasses(image, result.face[0].box) : [];
    const faces: FaceAnalysis[] = result.face.map((face) => ({
      box: face.box,
      score: face.score,
      embedding: Array.from(face.embedding ?? []),
      yaw: face.rotation?.angle.yaw ?? 0,
      pitch: face.rotation?.angle.pitch ?? 0,
      roll: face.rotation?.angle.roll ?? 0,
      ...meshReadings(face.mesh as Point[], more),
      emotion: Object.fromEntries((face.emotion ?? []).map((e) => [e.emotion, e.score])),
      real: face.real ?? null,
      live: face.live ?? null,
    }));
    return { image: await imageFacts(image), faces };
  } finally {
    human.tf.dispose(tensor);
  }
}
