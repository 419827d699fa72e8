/**
 * A perspective warp on raw pixels (sharp has affine transforms only): every output pixel is
 * mapped back through a homography into the source image and sampled bilinearly.
 */

export interface Point {
  x: number;
  y: number;
}

export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: number;
}

/** Solves A·x = b by Gaussian elimination with partial pivoting (A: n×n, row-major). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]]);
  for (let col = 0; col < n; col++) {
    const pivot = m.reduce((best, row, r) => (r >= col && Math.abs(row[col]) > Math.abs(m[best][col]) ? r : best), col);
    [m[col], m[pivot]] = [m[pivot], m[col]];
    for (let r = col + 1; r < n; r++) {
      const f = m[r][col] / m[col][col];
      for (let c = col; c <= n; c++) m[r][c] -= f * m[col][c];
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    x[r] = (m[r][n] - m[r].slice(r + 1, n).reduce((sum, v, i) => sum + v * x[r + 1 + i], 0)) / m[r][r];
  }
  return x;
}

/** The homography (3×3, row-major, h33 = 1) taking the four points `from` onto `to`. */
export function homography(from: Point[], to: Point[]): number[] {
  const rows: number[][] = [];
  const rhs: number[] = [];
  from.forEach((p, i) => {
    const q = to[i];
    rows.push([p.x, p.y, 1, 0, 0, 0, -p.x * q.x, -p.y * q.x]);
    rhs.push(q.x);
    rows.push([0, 0, 0, p.x, p.y, 1, -p.x * q.y, -p.y * q.y]);
    rhs.push(q.y);
  });
  return [...solve(rows, rhs), 1];
}

/**
 * The source image seen in perspective: its corners land on `corners` (top-left, top-right,
 * bottom-right, bottom-left) of an output of `width`×`height`; elsewhere `fill` (a function, so
 * the background can be textured).
 */
export function warpPerspective(
  source: RawImage,
  corners: Point[],
  width: number,
  height: number,
  fill: (x: number, y: number, channel: number) => number,
): RawImage {
  const { data, channels } = source;
  const rect = [
    { x: 0, y: 0 },
    { x: source.width - 1, y: 0 },
    { x: source.width - 1, y: source.height - 1 },
    { x: 0, y: source.height - 1 },
  ];
  // output → source: each output pixel looks up where it came from
  const h = homography(corners, rect);
  const out = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const w = h[6] * x + h[7] * y + h[8];
      const sx = (h[0] * x + h[1] * y + h[2]) / w;
      const sy = (h[3] * x + h[4] * y + h[5]) / w;
      const at = (y * width + x) * channels;
      if (sx < 0 || sy < 0 || sx > source.width - 1 || sy > source.height - 1) {
        for (let c = 0; c < channels; c++) out[at + c] = fill(x, y, c);
        continue;
      }
      const x0 = Math.min(Math.floor(sx), source.width - 2);
      const y0 = Math.min(Math.floor(sy), source.height - 2);
      const fx = sx - x0;
      const fy = sy - y0;
      const i00 = (y0 * source.width + x0) * channels;
      const i10 = i00 + channels;
      const i01 = i00 + source.width * channels;
      const i11 = i01 + channels;
      for (let c = 0; c < channels; c++) {
        const top = data[i00 + c] * (1 - fx) + data[i10 + c] * fx;
        const bottom = data[i01 + c] * (1 - fx) + data[i11 + c] * fx;
        out[at + c] = Math.round(top * (1 - fy) + bottom * fy);
      }
    }
  }
  return { data: out, width, height, channels };
}
