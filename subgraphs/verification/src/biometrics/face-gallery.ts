import { adjustedCosine } from '../vision/face-match.js';
import { FACE_DIMENSIONS } from '../vision/face-vectors.js';

/** A normalized vector as stored (bytea: float32 little-endian), and back. */
export function vectorBytes(vector: Float32Array): Buffer {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((x, i) => bytes.writeFloatLE(x, i * 4));
  return bytes;
}

export function vectorOfBytes(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Float32Array.from({ length: bytes.byteLength / 4 }, (_, i) => view.getFloat32(i * 4, true));
}

export interface EnrolledFace {
  seq: number;
  userId: string;
  enrolledAt: Date;
  vector: Float32Array;
  /** How crowded the face's part of the model's space is (face-match.ts `faceCrowding`). */
  crowding: number;
}

/** A face to search for: its normalized description and its crowding. */
export interface FaceQuery {
  vector: Float32Array;
  crowding: number;
}

export interface GalleryHit {
  userId: string;
  /** The cosine corrected for both faces' crowding (face-match.ts `adjustedCosine`). */
  cosine: number;
  enrolledAt: Date;
}

/**
 * One organization's (and environment's) enrolled faces in memory, for an exact search: every face
 * is compared (no approximate index can miss a duplicate), as one dot product over contiguous
 * float32 rows (4 KB a face). `npm run bench -- dedup` measures it (100,000 faces: p95 ≈ 90 ms on one core).
 */
export class FaceGallery {
  private rows = new Float32Array(FACE_DIMENSIONS * 1024);
  private users: string[] = [];
  private crowding: number[] = [];
  private enrolled: Date[] = [];
  private enrolledUsers = new Set<string>();
  /** Highest `seq` held: the next refresh loads the rows after it. */
  lastSeq = 0;
  /** The database's removal count when the rows were loaded: another count means reload. */
  removals = 0;

  get size(): number {
    return this.users.length;
  }

  add(face: EnrolledFace): void {
    const at = this.users.length * FACE_DIMENSIONS;
    if (at + FACE_DIMENSIONS > this.rows.length) {
      const grown = new Float32Array(this.rows.length * 2);
      grown.set(this.rows);
      this.rows = grown;
    }
    this.rows.set(face.vector, at);
    this.users.push(face.userId);
    this.crowding.push(face.crowding);
    this.enrolledUsers.add(face.userId);
    this.enrolled.push(face.enrolledAt);
    this.lastSeq = Math.max(this.lastSeq, face.seq);
  }

  clear(): void {
    this.rows = new Float32Array(FACE_DIMENSIONS * 1024);
    this.users = [];
    this.crowding = [];
    this.enrolled = [];
    this.enrolledUsers.clear();
    this.lastSeq = 0;
  }

  has(userId: string): boolean {
    return this.enrolledUsers.has(userId);
  }

  /**
   * Faces of other users whose crowding-adjusted cosine with `query` is at least `minCosine`, most
   * similar first, at most `limit`.
   */
  search({ vector: query, crowding }: FaceQuery, minCosine: number, excludeUserId: string | null, limit: number): GalleryHit[] {
    const rows = this.rows;
    const hits: GalleryHit[] = [];
    for (let r = 0, n = this.users.length; r < n; r++) {
      const o = r * FACE_DIMENSIONS;
      // four accumulators: independent additions the CPU overlaps
      let a0 = 0;
      let a1 = 0;
      let a2 = 0;
      let a3 = 0;
      for (let i = 0; i < FACE_DIMENSIONS; i += 4) {
        a0 += rows[o + i] * query[i];
        a1 += rows[o + i + 1] * query[i + 1];
        a2 += rows[o + i + 2] * query[i + 2];
        a3 += rows[o + i + 3] * query[i + 3];
      }
      // the correction only lowers a cosine: most faces are out before it is computed
      const raw = a0 + a1 + a2 + a3;
      if (raw < minCosine) continue;
      const cosine = adjustedCosine(raw, crowding, this.crowding[r]);
      if (cosine >= minCosine && this.users[r] !== excludeUserId)
        hits.push({ userId: this.users[r], cosine, enrolledAt: this.enrolled[r] });
    }
    return hits.sort((a, b) => b.cosine - a.cosine).slice(0, limit);
  }
}
