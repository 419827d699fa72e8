import { glareShare, imageFacts } from '../vision/image-facts.js';
import { BLURRED_BELOW, BRIGHT_ABOVE, DARK_BELOW, SOFT_BELOW } from './document-check.js';

export const IMAGE_PROBLEMS = ['TOO_BLURRY', 'SOFT', 'TOO_DARK', 'TOO_BRIGHT', 'GLARE', 'TOO_SMALL'] as const;
export type ImageProblem = (typeof IMAGE_PROBLEMS)[number];

export interface ImageAssessment {
  /** No problem the check itself would reject or send to a reviewer for. */
  acceptable: boolean;
  sharpness: number;
  brightness: number;
  /** Share of the image burnt out by a reflection, 0–1. */
  glare: number;
  problems: ImageProblem[];
}

/** A reflection over more than this share of the picture hides printed text (the MRZ, a date). */
export const GLARE_ABOVE = 0.03;
/** The document check reads text from images at least this wide and high. */
export const MIN_SIDE = 480;

/** The measures judged as the document check judges them (document-check.ts), before anything is submitted. */
export function judgeImage(m: { width: number; height: number; sharpness: number; brightness: number; glare: number }): ImageAssessment {
  const problems: ImageProblem[] = [];
  if (Math.min(m.width, m.height) < MIN_SIDE) problems.push('TOO_SMALL');
  if (m.sharpness < BLURRED_BELOW) problems.push('TOO_BLURRY');
  else if (m.sharpness < SOFT_BELOW) problems.push('SOFT');
  if (m.brightness < DARK_BELOW) problems.push('TOO_DARK');
  if (m.brightness > BRIGHT_ABOVE) problems.push('TOO_BRIGHT');
  if (m.glare > GLARE_ABOVE) problems.push('GLARE');
  return {
    acceptable: problems.length === 0,
    sharpness: Math.round(m.sharpness),
    brightness: Math.round(m.brightness),
    glare: Math.round(m.glare * 1000) / 1000,
    problems,
  };
}

/** A camera frame (a normalised JPEG) measured and judged: what a capture page shows before the person sends it. */
export async function assessImage(jpeg: Uint8Array): Promise<ImageAssessment> {
  const [facts, glare] = await Promise.all([imageFacts(jpeg), glareShare(jpeg)]);
  return judgeImage({ ...facts, glare });
}
