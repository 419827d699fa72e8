import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { defaultDataDir } from '../lists/default-data.js';
import { normalizedFace } from './face-vectors.js';

/**
 * The face cohort (`data/face-cohort.json`): face descriptions of people who are no user, which
 * every face is compared with to measure how crowded its part of the model's space is
 * (face-match.ts, `faceCrowding`). The model puts darker-skinned faces close together. The cohort
 * holds the same photos twice, as taken and recoloured darker, so that comparing a face with both
 * halves measures skin tone's pull alone (not the photo's size or light). Made by the liveness
 * bench from its tune half (the MIT sample photos of the face packages; bench/README.md says how
 * to make it again), so the bench's report half and the real photos it is measured on stay out.
 */
export interface FaceCohortFile {
  about: string;
  /** The model that described the faces: another model's cohort means nothing. */
  model: string;
  /** Each face: whether it was recoloured darker, its unit description as signed bytes (base64) and the scale back to floats. */
  faces: Array<{ name: string; darker: boolean; int8: string; scale: number }>;
}

export const FACE_COHORT_FILE = 'face-cohort.json';

/** The installed face model: Human's faceres, which ships with (and changes with) Human's version. */
export function installedFaceModel(): string {
  const main = createRequire(import.meta.url).resolve('@vladmandic/human');
  const { version } = JSON.parse(readFileSync(path.join(path.dirname(main), '..', 'package.json'), 'utf8')) as { version: string };
  return `@vladmandic/human ${version} faceres`;
}

/** A unit description as the file keeps it (1 KB instead of 4; cosines move in the third decimal at most). */
export function encodeCohortFace(name: string, darker: boolean, embedding: readonly number[]): FaceCohortFile['faces'][number] {
  const unit = normalizedFace(embedding);
  const max = unit.reduce((m, x) => Math.max(m, Math.abs(x)), 0) || 1;
  const scale = max / 127;
  const bytes = Int8Array.from(unit, (x) => Math.round(x / scale));
  return { name, darker, int8: Buffer.from(bytes.buffer).toString('base64'), scale };
}

export interface FaceCohort {
  /** The photos recoloured darker. */
  darker: Float32Array[];
  /** The same photos as taken. */
  lighter: Float32Array[];
}

/** The cohort's unit descriptions. */
export function decodeCohort(file: FaceCohortFile): FaceCohort {
  const decode = ({ int8, scale }: FaceCohortFile['faces'][number]) => {
    const bytes = Buffer.from(int8, 'base64');
    return normalizedFace(Array.from(new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), (x) => x * scale));
  };
  return { darker: file.faces.filter((f) => f.darker).map(decode), lighter: file.faces.filter((f) => !f.darker).map(decode) };
}

let loaded: FaceCohort | null = null;

/** The shipped cohort file. */
export function readFaceCohortFile(): FaceCohortFile {
  const dir = defaultDataDir();
  if (!dir) throw new Error(`data/${FACE_COHORT_FILE} was not found (it ships with the product)`);
  return JSON.parse(readFileSync(path.join(dir, FACE_COHORT_FILE), 'utf8')) as FaceCohortFile;
}

/** The shipped cohort's unit descriptions, read once. */
export function faceCohort(): FaceCohort {
  return (loaded ??= decodeCohort(readFaceCohortFile()));
}
