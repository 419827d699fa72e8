/**
 * Face comparison on one calibrated scale. The model (Human's faceres) gives a cosine similarity
 * whose useful range is narrow (≈ 0.6 for two photos of one person, ≈ 0.4 for two people); the API
 * speaks 0–1 scores where 0.90 means "the same person, confidently" (the spec's dedup default).
 * `FACE_SCORE` maps one onto the other with a logistic curve: `center` is the cosine scored 0.5,
 * `slope` how fast the score rises around it. Every face match (dedup, liveness, identity, the AI
 * check) uses this one mapping; bench/face-calibration measures the distributions it comes from.
 */
export const FACE_SCORE = { center: 0.5, slope: 25 };

/** Cosine similarity of two face descriptions, −1 to 1. */
export function faceSimilarity(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/** The API's 0–1 score of a model cosine. */
export function scoreOfCosine(cosine: number): number {
  return 1 / (1 + Math.exp(-FACE_SCORE.slope * (cosine - FACE_SCORE.center)));
}

/** The model cosine a 0–1 score stands for (a threshold turned into the cosine to search with). */
export function cosineOfScore(score: number): number {
  const clamped = Math.min(Math.max(score, 1e-6), 1 - 1e-6);
  return FACE_SCORE.center - Math.log(1 / clamped - 1) / FACE_SCORE.slope;
}

/** How alike two faces are on the API's 0–1 scale (rounded to 4 decimals). */
export function faceMatchScore(a: readonly number[], b: readonly number[]): number {
  return Math.round(scoreOfCosine(faceSimilarity(a, b)) * 10_000) / 10_000;
}
