import type { Counter } from './graph.facts.js';

const MINUTE = 60_000;
/** No bucket, or no subject: what a holder keeps before its first count and after `onEmpty`. */
export const NONE = -1;

const ZERO: Counter = Object.freeze({ count1h: 0, sum1h: 0, count24h: 0, sum24h: 0 });

/** A growable list of int32 (a free list, or first in first out without copying what is taken). */
class Ints {
  private items = new Int32Array(1024);
  private head = 0;
  private tail = 0;

  get size(): number {
    return this.tail - this.head;
  }

  push(value: number): void {
    if (this.tail === this.items.length) {
      // make room: drop what was taken, and grow when still more than half full
      const live = this.items.subarray(this.head, this.tail);
      const next = live.length * 2 > this.items.length ? new Int32Array(this.items.length * 2) : this.items;
      next.set(live);
      this.items = next;
      this.tail -= this.head;
      this.head = 0;
    }
    this.items[this.tail++] = value;
  }

  /** The first pushed and not yet taken (NONE when empty). */
  first(): number {
    return this.head < this.tail ? this.items[this.head] : NONE;
  }

  takeFirst(): number {
    return this.head < this.tail ? this.items[this.head++] : NONE;
  }

  /** The last pushed and not yet taken (NONE when empty). */
  takeLast(): number {
    return this.head < this.tail ? this.items[--this.tail] : NONE;
  }
}

function grown<T extends Int32Array | Float64Array>(array: T, size: number): T {
  if (size <= array.length) return array;
  const next = new (array.constructor as new (n: number) => T)(Math.max(size, array.length * 2));
  next.set(array);
  return next;
}

/**
 * Per-minute velocity counters of many subjects (an account as sender or receiver, a device, a
 * sender → receiver pair) held in a few typed arrays, so that counting a transfer allocates no
 * object the garbage collector has to walk: the risk process's full collections mark its live
 * objects on its event loop (≈ 1.1 ms per MB here), and the counters had been ≈ 1.5 KB of small
 * objects per transfer (a series, its closure, a bucket per subject and minute).
 *
 * A subject is a number. Its buckets (one per minute it counted) form a doubly linked list in
 * minute order; each bucket keeps its first currency's sum apart (a tenant's transfers are mostly
 * in one currency), the others in a map. Buckets leave in the order they were made (`expire`), and
 * a subject left without buckets is freed, its holder told through `onEmpty(owner, role, key)`.
 */
export class VelocityCounters<Owner, Key> {
  // buckets, by index
  private minute = new Int32Array(1024);
  private count = new Int32Array(1024);
  private sum = new Float64Array(1024);
  private currency = new Int32Array(1024);
  private older = new Int32Array(1024);
  private newer = new Int32Array(1024);
  private subjectOf = new Int32Array(1024);
  private buckets = 0;
  private readonly freeBuckets = new Ints();
  private readonly bucketsByAge = new Ints();
  /** Sums in a bucket's other currencies, by bucket (rare). */
  private readonly otherSums = new Map<number, Map<number, number>>();
  // subjects, by number
  private newest = new Int32Array(1024);
  private oldest = new Int32Array(1024);
  private readonly owners: Array<Owner | undefined> = [];
  private readonly keys: Array<Key | undefined> = [];
  private roles = new Int32Array(1024);
  private subjects = 0;
  private readonly freeSubjects = new Ints();
  private readonly currencies = new Map<string, number>();

  constructor(private readonly onEmpty: (owner: Owner, role: number, key: Key | undefined) => void) {}

  /** A new subject, empty until counted; `owner`, `role` and `key` are what `onEmpty` is told. */
  open(owner: Owner, role: number, key?: Key): number {
    let s = this.freeSubjects.takeLast();
    if (s === NONE) {
      s = this.subjects++;
      this.newest = grown(this.newest, this.subjects);
      this.oldest = grown(this.oldest, this.subjects);
      this.roles = grown(this.roles, this.subjects);
    }
    this.newest[s] = NONE;
    this.oldest[s] = NONE;
    this.roles[s] = role;
    this.owners[s] = owner;
    this.keys[s] = key;
    return s;
  }

  private currencyOf(code: string): number {
    let c = this.currencies.get(code);
    if (c === undefined) this.currencies.set(code, (c = this.currencies.size));
    return c;
  }

  /** Adds `count` transfers summing `sum` in `currencyCode` to `subject`'s bucket of the minute of `at`. */
  add(subject: number, at: number, currencyCode: string, count: number, sum: number): void {
    const minute = Math.floor(at / MINUTE);
    const currency = this.currencyOf(currencyCode);
    // buckets are in minute order; the minute's is almost always the newest
    let b = this.newest[subject];
    while (b !== NONE && this.minute[b] > minute) b = this.older[b];
    if (b === NONE || this.minute[b] !== minute) b = this.bucket(subject, minute, currency, b);
    this.count[b] += count;
    if (this.currency[b] === currency) this.sum[b] += sum;
    else {
      let others = this.otherSums.get(b);
      if (!others) this.otherSums.set(b, (others = new Map()));
      others.set(currency, (others.get(currency) ?? 0) + sum);
    }
  }

  /** A new bucket of `subject` for `minute`, linked just newer than `before` (NONE: as its oldest). */
  private bucket(subject: number, minute: number, currency: number, before: number): number {
    let b = this.freeBuckets.takeLast();
    if (b === NONE) {
      b = this.buckets++;
      const n = this.buckets;
      this.minute = grown(this.minute, n);
      this.count = grown(this.count, n);
      this.sum = grown(this.sum, n);
      this.currency = grown(this.currency, n);
      this.older = grown(this.older, n);
      this.newer = grown(this.newer, n);
      this.subjectOf = grown(this.subjectOf, n);
    }
    this.minute[b] = minute;
    this.count[b] = 0;
    this.sum[b] = 0;
    this.currency[b] = currency;
    this.subjectOf[b] = subject;
    const after = before === NONE ? this.oldest[subject] : this.newer[before];
    this.older[b] = before;
    this.newer[b] = after;
    if (before === NONE) this.oldest[subject] = b;
    else this.newer[before] = b;
    if (after === NONE) this.newest[subject] = b;
    else this.older[after] = b;
    this.bucketsByAge.push(b);
    return b;
  }

  /** The database's windows over `subject`'s buckets at `now`: the last 60 and 1,440 minutes, this one included. */
  windows(subject: number, now: number, currencyCode: string): Counter {
    if (subject === NONE) return ZERO;
    const thisMinute = Math.floor(now / MINUTE);
    const h1 = thisMinute - 59;
    const d1 = thisMinute - 1439;
    const currency = this.currencies.get(currencyCode);
    const c = { count1h: 0, sum1h: 0, count24h: 0, sum24h: 0 };
    for (let b = this.newest[subject]; b !== NONE && this.minute[b] >= d1; b = this.older[b]) {
      const sum = this.currency[b] === currency ? this.sum[b] : currency === undefined ? 0 : (this.otherSums.get(b)?.get(currency) ?? 0);
      c.count24h += this.count[b];
      c.sum24h += sum;
      if (this.minute[b] >= h1) {
        c.count1h += this.count[b];
        c.sum1h += sum;
      }
    }
    return c;
  }

  /** Drops the buckets of minutes before `before` that were made first, and the subjects left without any. */
  expire(before: number): void {
    const cutoff = before / MINUTE;
    for (let b = this.bucketsByAge.first(); b !== NONE && this.minute[b] < cutoff; b = this.bucketsByAge.first()) {
      this.bucketsByAge.takeFirst();
      const s = this.subjectOf[b];
      const older = this.older[b];
      const newer = this.newer[b];
      if (older === NONE) this.oldest[s] = newer;
      else this.newer[older] = newer;
      if (newer === NONE) this.newest[s] = older;
      else this.older[newer] = older;
      this.otherSums.delete(b);
      this.freeBuckets.push(b);
      if (this.newest[s] === NONE) {
        const owner = this.owners[s]!;
        const key = this.keys[s];
        this.owners[s] = undefined;
        this.keys[s] = undefined;
        this.freeSubjects.push(s);
        this.onEmpty(owner, this.roles[s], key);
      }
    }
  }
}
