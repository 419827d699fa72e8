import type pg from 'pg';
import type { Logger } from '../platform/logger.js';
import type { ChannelOptions, EventStream } from '../platform/events/event-stream.js';
import { listen, type Listening } from '../platform/db/listen.js';
import { ScreeningIndex } from './matching/screening-index.js';
import { currentVersions, LISTS_CHANNEL, snapshotEntries } from './lists/store.js';
import type { ListEntry, ScreeningHit, ScreeningQuery } from './types.js';
import { screeningIndexMetrics, type ScreeningIndexStats } from '../platform/metrics/screening.js';

export interface ScreeningEngineOptions {
  pool: pg.Pool;
  logger: Logger;
  /** Safety poll for missed notifications (ms); 0 disables. Default 60 s. */
  pollMs?: number;
  /**
   * Where snapshot notices come from: the service's event stream (over NATS when `EVENT_BUS` says
   * so, else LISTEN); a LISTEN connection of the pool's own when absent.
   */
  events?: Pick<EventStream, 'listen'>;
}

/**
 * The process's screening engine: an in-memory ScreeningIndex over the newest snapshot of every
 * list source, rebuilt whenever a snapshot lands (`LISTEN screening_lists`, so every process of
 * every service reloads), plus a periodic version check in case a notification was missed.
 */
export class ScreeningEngine {
  readonly pool: pg.Pool;
  private readonly logger: Logger;
  private readonly pollMs: number;
  private index: ScreeningIndex = ScreeningIndex.build([], {});
  private loaded = new Map<string, { version: string; snapshotId: string; entries: ListEntry[] }>();
  private listening: Listening | null = null;
  private readonly events: Pick<EventStream, 'listen'> | undefined;
  private readonly callbacks = new Set<(versions: Record<string, string>) => void>();
  private reloading: Promise<void> | null = null;
  private reloadAgain = false;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private firstLoadDone = false;
  private built = { at: 0, seconds: 0 };
  /** The index's size and last build, read at scrape time (docs/metrics.md). */
  readonly metrics = screeningIndexMetrics(() => this.stats());

  constructor(opts: ScreeningEngineOptions) {
    this.pool = opts.pool;
    this.logger = opts.logger;
    this.pollMs = opts.pollMs ?? 60_000;
    this.events = opts.events;
  }

  /** Loads the current snapshots and listens for new ones. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.listen();
    await this.reload();
    if (this.pollMs > 0) {
      this.timer = setInterval(
        () => void this.reload().catch((err) => this.logger.warn({ err }, 'screening list poll failed')),
        this.pollMs,
      );
      this.timer.unref();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.listening?.stop();
    this.listening = null;
    await this.reloading?.catch(() => undefined);
  }

  search(q: ScreeningQuery): ScreeningHit[] {
    return this.index.search(q);
  }

  /** Current snapshot version per source. */
  versions(): Record<string, string> {
    return Object.fromEntries([...this.loaded].map(([s, v]) => [s, v.version]));
  }

  /**
   * Called after every reload that changed a version once the process has loaded (watchlist
   * monitoring rescans). It fires in every process: rescan once (a pg-boss singleton job or an
   * advisory lock keyed by the versions), not once per process.
   */
  onReload(cb: (versions: Record<string, string>) => void): () => void {
    this.callbacks.add(cb);
    return () => this.callbacks.delete(cb);
  }

  /** Number of entries indexed. */
  get size(): number {
    return this.index.size;
  }

  /** Entries per list, names, packed bytes and the last build. */
  stats(): ScreeningIndexStats {
    return {
      entries: Object.fromEntries([...this.loaded].map(([source, list]) => [source, list.entries.length])),
      names: this.index.nameCount,
      bytes: this.index.packedBytes,
      builtAt: this.built.at,
      buildSeconds: this.built.seconds,
    };
  }

  private async listen(): Promise<void> {
    const reload = (why: string) => void this.reload().catch((err) => this.logger.error({ err }, `screening list reload failed (${why})`));
    const notices: ChannelOptions = {
      channel: LISTS_CHANNEL,
      logger: this.logger,
      onNotification: (payload) => {
        this.logger.info({ notice: payload }, 'screening list snapshot landed; reloading');
        reload('notification');
      },
      // a snapshot may have landed while the connection was down
      onReconnect: () => reload('reconnect'),
    };
    this.listening = this.events
      ? await this.events.listen(notices)
      : // a connection of its own with the pool's settings (it is held for as long as the engine runs)
        await listen({ ...notices, connection: this.pool.options });
  }

  /** Reloads the sources whose newest snapshot changed; serialised, coalescing bursts. */
  reload(): Promise<void> {
    if (this.reloading) {
      this.reloadAgain = true;
      return this.reloading;
    }
    this.reloading = (async () => {
      try {
        do {
          this.reloadAgain = false;
          await this.reloadOnce();
        } while (this.reloadAgain && !this.stopped);
      } finally {
        this.reloading = null;
      }
    })();
    return this.reloading;
  }

  private async reloadOnce(): Promise<void> {
    const current = await currentVersions(this.pool);
    let changed = false;
    for (const [source, cur] of Object.entries(current)) {
      if (this.loaded.get(source)?.snapshotId === cur.snapshotId) continue;
      this.loaded.set(source, { ...cur, entries: await snapshotEntries(this.pool, cur.snapshotId) });
      changed = true;
    }
    for (const source of [...this.loaded.keys()]) {
      if (!current[source]) {
        this.loaded.delete(source);
        changed = true;
      }
    }
    if (!changed) return;
    const started = performance.now();
    const entries = [...this.loaded.values()].flatMap((s) => s.entries);
    const versions = this.versions();
    // built beside the current index, which keeps answering until the swap
    this.index = await ScreeningIndex.buildAsync(entries, versions);
    this.built = { at: Date.now() / 1000, seconds: (performance.now() - started) / 1000 };
    this.logger.info({ versions, entries: entries.length, ms: Math.round(performance.now() - started) }, 'screening index built');
    // the first load of a process is not news: callbacks fire for snapshots that land afterwards
    if (!this.firstLoadDone) {
      this.firstLoadDone = true;
      return;
    }
    for (const cb of this.callbacks) {
      try {
        cb(versions);
      } catch (err) {
        this.logger.error({ err }, 'screening onReload callback failed');
      }
    }
  }
}

const shared = new WeakMap<pg.Pool, { engine: ScreeningEngine; users: number; starting: Promise<void> }>();

/**
 * One started engine per connection pool, shared by the services of a process (`npm start` runs
 * verification and risk in one process: one index and one LISTEN instead of two). Each user calls
 * `release()` once; the last one stops the engine.
 */
export async function acquireScreeningEngine(opts: ScreeningEngineOptions): Promise<{ engine: ScreeningEngine; release(): Promise<void> }> {
  let slot = shared.get(opts.pool);
  if (!slot) {
    const engine = new ScreeningEngine(opts);
    slot = { engine, users: 0, starting: engine.start() };
    shared.set(opts.pool, slot);
    slot.starting.catch(() => shared.delete(opts.pool));
  }
  slot.users++;
  const current = slot;
  try {
    await current.starting;
  } catch (err) {
    current.users--;
    throw err;
  }
  let released = false;
  return {
    engine: current.engine,
    release: async () => {
      if (released) return;
      released = true;
      if (--current.users === 0) {
        shared.delete(opts.pool);
        await current.engine.stop();
      }
    },
  };
}
