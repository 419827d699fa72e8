/** Length of a face description (Human's faceres). */
export const FACE_DIMENSIONS = 1024;

/** The description scaled to length 1 (float32), so that a dot product is the cosine. */
export function normalizedFace(embedding: ArrayLike<number>): Float32Array {
  if (embedding.length !== FACE_DIMENSIONS) throw new Error(`a face description has ${FACE_DIMENSIONS} numbers, not ${embedding.length}`);
  let norm = 0;
  for (let i = 0; i < embedding.length; i++) norm += embedding[i] * embedding[i];
  norm = Math.sqrt(norm) || 1;
  return Float32Array.from(embedding, (x) => x / norm);
}
