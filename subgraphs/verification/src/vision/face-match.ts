/**
 * Face comparison on one calibrated scale. The model (Human's faceres) gives a cosine similarity
 * whose useful range is narrow; the API speaks 0–1 scores where 0.90 means "the same person,
 * confidently" (the spec's dedup default). `FACE_SCORE` maps one onto the other with a logistic
 * curve: `center` is the cosine scored 0.5, `slope` how fast the score rises around it. Every face
 * match (dedup, liveness, identity, the AI check) uses this one mapping.
 *
 * Calibrated by bench/face-calibration (faces from Human's and face-api's MIT sample pictures, not
 * the test fixtures): one person's photos (153 pairs of thumbnails) cosine mean 0.654, sd 0.096;
 * different people (1,489 pairs) mean 0.379, sd 0.067, highest 0.616. Score 0.5 sits at the equal
 * error cosine (0.50: ≈ 4% errors each way); score 0.90 at cosine 0.65, above every pair of two
 * people of those pictures (same-person thumbnails accepted there: ≈ 50%; a re-sent, edited photo:
 * always). Score 0.95 ↔ 0.70, 0.99 ↔ 0.815. docs/api/biometrics.md has the table.
 *
 * Not fair across groups: on real studio photos (the London Set, bench/liveness with
 * LIVENESS_BENCH_PHOTOS) two different white people reach 0.90 in 0.85 % of pairs, two different
 * black people in 37 %: the model crowds darker faces together, and one mapping cannot undo that.
 */
export const FACE_SCORE = { center: 0.5, slope: 14.6 };

/**
 * A new selfie against a document's printed portrait (the AI identity check, identity
 * verifications): at or above `pass` the same person; under `reject` another person; between the
 * two a reviewer compares. A printed portrait and a selfie differ more than two selfies, so the bar
 * sits below dedup's 0.90: 0.80 is the cosine 0.595, one person's pairs' mean less one standard
 * deviation; 0.50 the cosine 0.50, the equal-error point of the calibration.
 */
export const PORTRAIT_MATCH = { pass: 0.8, reject: 0.5 };

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
