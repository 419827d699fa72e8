import type pg from 'pg';
import type { EventStream } from '../events/event-stream.js';
import type { Logger } from '../logger.js';
import { PeriodicSweep } from '../sweep.js';
import { sqlOf, type Sql } from '../db/transaction.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  claimErasurePart,
  completeErasurePart,
  failErasurePart,
  USER_ERASURE_RESOURCE,
  type ErasureRequest,
  type ErasureService,
} from './erasure.js';

/** A transaction of the service's own kind: a pg client, or an EntityManager for MikroORM services. */
export type ErasureTx = Sql | EntityManager;

export interface ErasureWorkerOptions<Tx extends ErasureTx> {
  service: ErasureService;
  pool: pg.Pool;
  events: EventStream;
  logger: Logger;
  /** How often pending parts are looked for (besides every erasure event): retries and missed notices. */
  sweepMs: number;
  /** Runs `work` in one transaction of the service's kind. */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Erases or anonymises what this service holds of the user, in `tx`; idempotent (a repeated run
   * finds nothing left). Returns the records changed, by kind.
   */
  erase(tx: Tx, request: ErasureRequest): Promise<Record<string, number>>;
}

/**
 * One service's side of erasures: claims each pending request's part of this service, erases in
 * the transaction that reports it, and retries a failure later. A service that was down when the
 * request was made does its part when it starts (the sweep runs at start), so every request
 * completes once every service has run.
 */
export class ErasureWorker<Tx extends ErasureTx> {
  private readonly sweep: PeriodicSweep;
  private unwake: (() => void) | null = null;

  constructor(private readonly opts: ErasureWorkerOptions<Tx>) {
    this.sweep = new PeriodicSweep({
      sweepMs: opts.sweepMs,
      logger: opts.logger,
      what: `${opts.service} erasures`,
      sweep: () => this.eraseDue(),
    });
  }

  start(): void {
    // a new request, or another service's report, may make a part due at once
    this.unwake = this.opts.events.onNotice((n) => {
      if (n.resourceType === USER_ERASURE_RESOURCE) this.sweep.wake();
    });
    this.sweep.start();
  }

  async stop(): Promise<void> {
    this.unwake?.();
    await this.sweep.stop();
  }

  /** Erases every due part of this service, one request per transaction; returns how many. */
  async eraseDue(): Promise<number> {
    let done = 0;
    for (;;) {
      let claimed: ErasureRequest | null = null;
      try {
        const erased = await this.opts.transaction(async (tx) => {
          claimed = await claimErasurePart(sqlOf(tx), this.opts.service);
          if (!claimed) return false;
          const counts = await this.opts.erase(tx, claimed);
          await completeErasurePart(sqlOf(tx), claimed, this.opts.service, counts);
          return true;
        });
        if (!erased) return done;
        done += 1;
      } catch (err) {
        const failed = claimed as ErasureRequest | null;
        if (!failed) throw err;
        this.opts.logger.error({ err, erasureId: failed.id }, `${this.opts.service} erasure failed; retried later`);
        await failErasurePart(this.opts.pool, failed.id, this.opts.service, err instanceof Error ? err.message : String(err));
      }
    }
  }
}
