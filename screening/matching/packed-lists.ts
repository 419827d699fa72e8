/**
 * Many short lists of ids, frozen once built: two flat typed arrays instead of an array object per
 * list (an index of the official lists holds some 400,000 lists, most of one id; as JavaScript
 * arrays they took ten times the memory). List `i` is `items[start[i]]` up to `items[start[i + 1]]`.
 */
export interface PackedLists {
  readonly start: Uint32Array;
  readonly items: Int32Array;
}

export function packLists(lists: readonly (readonly number[])[]): PackedLists {
  const start = new Uint32Array(lists.length + 1);
  for (let i = 0; i < lists.length; i++) start[i + 1] = start[i] + lists[i].length;
  const items = new Int32Array(start[lists.length]);
  for (let i = 0; i < lists.length; i++) items.set(lists[i], start[i]);
  return { start, items };
}

/** A 32-bit hash of a string (multiply-xorshift over its UTF-16 units, murmur3's finaliser); `seed` picks one of a family. */
function hash32(text: string, seed: number): number {
  let h = seed ^ text.length;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 0x9e3779b1);
    h ^= h >>> 15;
  }
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
const SEED_HIGH = 0x2545f491;
const SEED_LOW = 0x68e31da4;

/**
 * Lists of ids filed under string keys, frozen: each key is kept as a 64-bit hash (two 32-bit
 * ones) in sorted order and found by binary search, so no key string stays in memory. Two keys
 * with one hash would share a list (with 10⁶ keys, a chance of about 10⁻⁸): for a blocking index
 * that only adds candidates, which are then scored like any other.
 */
export class KeyedLists {
  private constructor(
    private readonly high: Uint32Array,
    private readonly low: Uint32Array,
    readonly lists: PackedLists,
  ) {}

  static pack(byKey: ReadonlyMap<string, readonly number[]>): KeyedLists {
    const keyed = [...byKey].map(([key, ids]) => ({ high: hash32(key, SEED_HIGH), low: hash32(key, SEED_LOW), ids }));
    keyed.sort((a, b) => a.high - b.high || a.low - b.low);
    const high: number[] = [];
    const low: number[] = [];
    const lists: (readonly number[])[] = [];
    for (const k of keyed) {
      const last = lists.length - 1;
      if (last >= 0 && high[last] === k.high && low[last] === k.low) lists[last] = [...new Set([...lists[last], ...k.ids])];
      else {
        high.push(k.high);
        low.push(k.low);
        lists.push(k.ids);
      }
    }
    return new KeyedLists(Uint32Array.from(high), Uint32Array.from(low), packLists(lists));
  }

  get size(): number {
    return this.high.length;
  }

  /** Bytes of its arrays. */
  get byteLength(): number {
    return this.high.byteLength + this.low.byteLength + this.lists.start.byteLength + this.lists.items.byteLength;
  }

  /** The number of the list filed under `key`, or -1. */
  find(key: string): number {
    const h = hash32(key, SEED_HIGH);
    const l = hash32(key, SEED_LOW);
    let lo = 0;
    let hi = this.high.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const mh = this.high[mid];
      const ml = this.low[mid];
      if (mh === h && ml === l) return mid;
      if (mh < h || (mh === h && ml < l)) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
}
