import type pg from 'pg';

export const WINDOW_SECONDS = 60;
/** How often each instance adds its counts to the shared ones and learns the others' (RATE_LIMIT_SYNC_MS). */
export const DEFAULT_SYNC_MS = 100;

/** A key unused here for this long (or two sync intervals) reads the shared count again before counting. */
const STALE_AFTER_MS = 500;

interface Counter {
  /** Start of the fixed window, in seconds since the epoch. */
  window: number;
  /** The count every instance had written when this one last synced (its own included). */
  shared: number;
  /** When `shared` was read (ms). */
  learnedAt: number;
  /** Units counted here and being written now. */
  writing: number;
  /** Units counted here since. */
  pending: number;
}

/**
 * Fixed-window rate limits counted in memory, so a request waits for no database: each instance
 * adds its new units to `platform.rate_limit_windows` every `syncMs` in one statement and reads
 * back the totals of every instance. A key seen for the first time in a window, or not used here
 * for two sync intervals (at least STALE_AFTER_MS), reads the shared count first (one round trip, then none while it is in
 * use). A count seen here is never above the true one, so a refusal is always right; an admission
 * may exceed the limit by what the other instances admitted for the same key since this one last
 * synced: at most the key's traffic on them during one sync interval.
 */
export class RateLimiter {
  private readonly counters = new Map<string, Counter>();
  private readonly learning = new Map<string, Promise<Counter>>();
  private syncing: Promise<void> | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly syncMs = DEFAULT_SYNC_MS,
  ) {}

  /** Adds `units` to each key's current window (0 only reads it): the counts and the seconds until the window resets. */
  async count(keys: string[], units: number): Promise<{ counts: Map<string, number>; reset: number }> {
    const now = Date.now();
    const window = Math.floor(now / 1000 / WINDOW_SECONDS) * WINDOW_SECONDS;
    const counts = new Map<string, number>();
    for (const key of keys) {
      let counter = this.counters.get(key);
      if (!counter || counter.window !== window || now - counter.learnedAt > Math.max(2 * this.syncMs, STALE_AFTER_MS))
        counter = await this.learn(key, window);
      counter.pending += units;
      counts.set(key, counter.shared + counter.writing + counter.pending);
    }
    return { counts, reset: Math.max(1, Math.ceil(window + WINDOW_SECONDS - now / 1000)) };
  }

  /** The key's counter in `window`, its shared count read from the table (one read for concurrent callers). */
  private learn(key: string, window: number): Promise<Counter> {
    const name = `${key}@${window}`;
    let learning = this.learning.get(name);
    if (!learning) {
      learning = this.pool
        .query<{ count: number }>(`select count from platform.rate_limit_windows where key = $1 and window_start = to_timestamp($2)`, [
          key,
          window,
        ])
        .then(({ rows }) => {
          let counter = this.counters.get(key);
          if (counter && counter.window !== window) {
            // a past window's units not yet written are written by the next sync, under their window
            if (counter.pending + counter.writing > 0) this.counters.set(`${key}@${counter.window}`, counter);
            counter = undefined;
          }
          counter ??= { window, shared: 0, learnedAt: 0, writing: 0, pending: 0 };
          // units written meanwhile are in both: keep the larger
          counter.shared = Math.max(counter.shared, rows[0]?.count ?? 0);
          counter.learnedAt = Date.now();
          this.counters.set(key, counter);
          return counter;
        })
        .finally(() => this.learning.delete(name));
      this.learning.set(name, learning);
    }
    return learning;
  }

  /** Writes the units counted here and learns every instance's totals (one at a time; a call during one waits for it). */
  sync(): Promise<void> {
    this.syncing ??= this.write().finally(() => (this.syncing = null));
    return this.syncing;
  }

  private async write(): Promise<void> {
    const current = Math.floor(Date.now() / 1000 / WINDOW_SECONDS) * WINDOW_SECONDS;
    const due = [...this.counters].filter(([, c]) => c.pending > 0);
    // windows that are over and written have nothing more to say
    for (const [name, c] of this.counters) if (c.window < current && c.pending === 0 && c.writing === 0) this.counters.delete(name);
    if (!due.length) return;
    for (const [, c] of due) [c.writing, c.pending] = [c.pending, 0];
    try {
      const { rows } = await this.pool.query<{ key: string; window: number; count: number }>(
        `insert into platform.rate_limit_windows (key, window_start, count)
           select k, to_timestamp(w), n from unnest($1::text[], $2::bigint[], $3::int[]) as t(k, w, n)
         on conflict (key, window_start) do update set count = platform.rate_limit_windows.count + excluded.count
         returning key, extract(epoch from window_start)::bigint as window, count`,
        [due.map(([name]) => name.split('@')[0]), due.map(([, c]) => c.window), due.map(([, c]) => c.writing)],
      );
      const totals = new Map(rows.map((r) => [`${r.key}@${Number(r.window)}`, r.count]));
      const learnedAt = Date.now();
      for (const [name, c] of due) {
        c.shared = totals.get(`${name.split('@')[0]}@${c.window}`) ?? c.shared + c.writing;
        c.writing = 0;
        c.learnedAt = learnedAt;
        if (name.includes('@') && c.pending === 0) this.counters.delete(name);
      }
    } catch (err) {
      // written next time
      for (const [, c] of due) [c.pending, c.writing] = [c.pending + c.writing, 0];
      throw err;
    }
  }
}

/** Old windows are useless after a minute; the gateway prunes them now and then. */
export async function pruneRateLimitWindows(pool: pg.Pool): Promise<void> {
  await pool.query(`delete from platform.rate_limit_windows where window_start < now() - interval '10 minutes'`);
}
