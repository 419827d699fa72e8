import type { Orm } from '../../../../platform/db/orm.js';
import type { Logger } from '../../../../platform/logger.js';
import type { ScreeningEngine } from '../../../../screening/index.js';
import type { ListCatalog } from '../aml/aml.service.js';
import { WatchlistSubscription } from './watchlist.entity.js';
import { scanSubscription, type WatchlistDeps } from './watchlist.service.js';

export interface WatchlistWorkerOptions {
  orm: Orm;
  screening: Pick<ScreeningEngine, 'search' | 'versions' | 'onReload'>;
  catalog: Pick<ListCatalog, 'inStep'>;
  logger: Logger;
  deps: WatchlistDeps;
  /** How often each process looks for due subscriptions. */
  pollMs: number;
}

const CLAIM = 20;

/**
 * Rescans ACTIVE subscriptions that are due (`nextScanAt`, daily by default) or were last scanned
 * against other list versions (a new snapshot landed: every process's engine calls `onReload`).
 * Every process polls; `FOR UPDATE SKIP LOCKED` shares the work, and a scan commits with its
 * alerts and events, so a crash only delays the subscriptions it held (their versions and
 * `nextScanAt` are unchanged, the next poll takes them).
 */
export class WatchlistWorker {
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private scanning: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(private readonly opts: WatchlistWorkerOptions) {}

  start(): void {
    this.stopped = false;
    this.unsubscribe = this.opts.screening.onReload(() => this.scanSoon());
    this.timer = setInterval(() => this.scanSoon(), this.opts.pollMs);
    this.timer.unref();
    this.scanSoon();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    if (this.timer) clearInterval(this.timer);
    await this.scanning;
  }

  scanSoon(): void {
    if (this.stopped) return;
    if (this.scanning) {
      this.again = true;
      return;
    }
    this.scanning = (async () => {
      do {
        this.again = false;
        await this.scanDue().catch((err) => this.opts.logger.error({ err }, 'watchlist scan failed'));
      } while (this.again && !this.stopped);
    })().finally(() => (this.scanning = null));
  }

  /** Scans every due subscription; returns how many were scanned. */
  async scanDue(): Promise<number> {
    if (!(await this.opts.catalog.inStep())) return 0;
    const versions = JSON.stringify(this.opts.screening.versions());
    let total = 0;
    for (;;) {
      if (this.stopped) return total;
      const scanned = await this.opts.orm.em.fork().transactional(async (em) => {
        const rows = await em.execute<Array<{ id: string }>>(
          `select id from verification.watchlist_subscriptions
            where status = 'ACTIVE' and (next_scan_at <= now() or scanned_versions is null or scanned_versions <> ?::jsonb)
            order by next_scan_at nulls first limit ${CLAIM} for update skip locked`,
          [versions],
        );
        if (!rows.length) return 0;
        const subs = await em.find(WatchlistSubscription, { id: { $in: rows.map((r) => r.id) } });
        let alerts = 0;
        let cleared = 0;
        for (const sub of subs) {
          const result = await scanSubscription(em, sub, this.opts.deps);
          alerts += result.added.length;
          cleared += result.cleared.length;
        }
        if (alerts || cleared) this.opts.logger.info({ subscriptions: subs.length, alerts, cleared }, 'watchlist scan');
        return rows.length;
      });
      total += scanned;
      if (scanned < CLAIM) return total;
    }
  }
}
