import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../../../platform/errors.js';
import type { Orm } from '../../../../platform/db/orm.js';
import type { PgBoss } from '../../../../platform/jobs.js';
import { inJobSpan, withTrace } from '../../../../platform/tracing.js';
import type { Logger } from '../../../../platform/logger.js';
import { sqlOf, type Sql } from '../../../../platform/db/transaction.js';
import { insertEvents } from '../../../../platform/events/outbox.js';
import { scheduleDelivery, type DeliveryOutcome, type DeliveryWorker } from '../../../../platform/delivery/delivery.worker.js';
import { AmlBatch, AmlBatchSubject } from './aml.entity.js';
import { AML_BATCH_RESOURCE, batchCompleteData, batchEvent, recordBatchEvent, withCallback } from './aml.events.js';
import { AmlService, type AmlJobs, type ListCatalog, type ScreeningSearch } from './aml.service.js';
import { AML_BATCH_LIFECYCLE, AML_SUBJECT_LIFECYCLE } from './aml.lifecycle.js';
import { jobDb, workQueue, ensureQueue } from '../../../../platform/jobs.js';

export const AML_BATCH_QUEUE = 'aml-batch';
/** A running batch job touches its pg-boss job this often ÷ 2; pg-boss's minimum is 10. */
const BATCH_HEARTBEAT_SECONDS = 10;

export interface AmlWorkerOptions {
  orm: Orm;
  boss: PgBoss;
  /** How often the idle worker asks for work (JOB_POLL_SECONDS); `wake()` after a commit fetches at once. */
  pollSeconds: number;
  /** The process's delivery worker: it POSTs the callbacks, retried on the webhook schedule. */
  deliveries: DeliveryWorker;
  logger: Logger;
  screening: ScreeningSearch;
  catalog: ListCatalog;
}

/**
 * Batches and their callbacks as pg-boss jobs. A batch job screens the pending subjects one
 * transaction each (a subject's screening, its counters and the batch's completion commit
 * together), so a process killed mid-batch resumes where it stopped when pg-boss retries the job
 * (its heartbeat stops: the job is retried ~10 s, plus a supervision interval, after the crash).
 * The callback is a delivery scheduled in the completing transaction: the platform's delivery
 * worker POSTs it signed like webhooks and retries it on the webhook schedule; every attempt's
 * outcome is an `aml.batch_callback` event of the batch.
 */
export class AmlWorker implements AmlJobs {
  private wakeWorker: () => void = () => undefined;
  constructor(private readonly opts: AmlWorkerOptions) {}

  async start(): Promise<void> {
    const { boss } = this.opts;
    // the worker heartbeats while it screens: a process killed mid-batch stops heartbeating and its
    // job is retried (where it stopped) after BATCH_HEARTBEAT_SECONDS plus one supervision, not
    // after the whole 300 s expiry
    const queue = {
      expireInSeconds: 300,
      heartbeatSeconds: BATCH_HEARTBEAT_SECONDS,
      retryLimit: 20,
      retryDelay: 5,
      retryBackoff: true,
      retryDelayMax: 300,
    };
    await ensureQueue(boss, AML_BATCH_QUEUE, queue);
    this.wakeWorker = await workQueue<{ batchId: string }>(boss, AML_BATCH_QUEUE, this.opts.pollSeconds, (job) =>
      inJobSpan(AML_BATCH_QUEUE, job.data, () => this.processBatch(job.data.batchId)),
    );
    this.opts.deliveries.onOutcome(AML_BATCH_RESOURCE, (tx, outcome) => this.callbackAttempted(tx, outcome));
  }

  /** A job was committed here: fetch it now, not at the next poll. */
  wake(): void {
    this.wakeWorker();
  }

  /** Waits for running jobs (they use the worker's EntityManager, closed right after). */
  async stop(): Promise<void> {
    await this.opts.boss.offWork(AML_BATCH_QUEUE, { wait: true }).catch(() => undefined);
  }

  async enqueueBatch(em: EntityManager, batchId: string): Promise<void> {
    await this.opts.boss.send(AML_BATCH_QUEUE, withTrace({ batchId }), { db: jobDb(em) });
  }

  /** Screens every pending subject; idempotent (done subjects are skipped, a completed batch is left alone). */
  async processBatch(batchId: string): Promise<void> {
    for (;;) {
      const finished = await this.opts.orm.em.fork().transactional(async (em) => {
        const batch = await em.findOne(AmlBatch, { id: batchId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        if (!batch || !AML_BATCH_LIFECYCLE.allows(batch.status, 'subject.screened')) return true;
        const subject = await em.findOne(
          AmlBatchSubject,
          { batchId, status: { $in: AML_SUBJECT_LIFECYCLE.sources('screened') } },
          { orderBy: { position: 'asc' } },
        );
        if (subject) {
          const tenant = { organizationId: batch.organizationId, environment: batch.environment };
          const service = new AmlService(em, tenant, { screening: this.opts.screening, catalog: this.opts.catalog });
          try {
            const { screening } = await service.screenIn(em, subject.input, batch.id);
            Object.assign(subject, { status: AML_SUBJECT_LIFECYCLE.next(subject.status, 'screened'), screeningId: screening.id });
            if (screening.status === 'CLEAR') batch.clearCount++;
            else batch.flaggedCount++;
          } catch (err) {
            // an invalid subject (validated at submission, so only after a rules change) fails alone;
            // anything else (lists unavailable, database) retries the job
            if (!(err instanceof AppError) || err.code !== 'VALIDATION_FAILED') throw err;
            Object.assign(subject, { status: AML_SUBJECT_LIFECYCLE.next(subject.status, 'failed'), error: err.messages.join('; ') });
            batch.failedCount++;
          }
          batch.processed++;
          batch.status = AML_BATCH_LIFECYCLE.next(batch.status, 'subject.screened');
        }
        if (subject && batch.processed < batch.total) {
          recordBatchEvent(em, AML_BATCH_LIFECYCLE.fire(batch.status, 'subject.screened').event, withCallback(batch, null), {
            batchId: batch.id,
            status: batch.status,
            total: batch.total,
            processed: batch.processed,
          });
          return false;
        }
        await this.complete(em, batch);
        return true;
      });
      if (finished) {
        // its callback (if any) was scheduled in the last transaction
        this.opts.deliveries.wake();
        return;
      }
    }
  }

  private async complete(em: EntityManager, batch: AmlBatch): Promise<void> {
    const now = new Date();
    const completed = AML_BATCH_LIFECYCLE.fire(batch.status, 'completed');
    Object.assign(batch, { status: completed.status, completedAt: now });
    await em.flush();
    const tenant = { organizationId: batch.organizationId, environment: batch.environment };
    const results = (
      await new AmlService(em, tenant, { screening: this.opts.screening, catalog: this.opts.catalog }).batchResults(batch.id)
    ).map(({ screening: _s, fullName: _f, ...line }) => line);
    const data = batchCompleteData(batch, results);
    if (batch.callbackUrl && batch.callbackSecret) {
      batch.callbackDeliveryId = await scheduleDelivery(sqlOf(em), {
        ...tenant,
        ownerType: AML_BATCH_RESOURCE,
        ownerId: batch.id,
        event: completed.event,
        url: batch.callbackUrl,
        body: JSON.stringify({ event: completed.event, timestamp: now.toISOString(), data }),
        // the secret now lives with the delivery that signs with it
        secret: batch.callbackSecret,
        messageId: `msg_${batch.id}`,
      });
      batch.callbackSecret = null;
    }
    const pending = batch.callbackDeliveryId ? { status: 'PENDING' as const, attemptCount: 0, nextAttemptAt: now } : null;
    recordBatchEvent(em, completed.event, withCallback(batch, pending), data);
    this.opts.logger.info({ batchId: batch.id, total: batch.total, flagged: batch.flaggedCount }, 'AML batch completed');
  }

  /** After each callback attempt, in its transaction: the batch's subscribers see the callback's progress. */
  private async callbackAttempted(tx: Sql, outcome: DeliveryOutcome): Promise<void> {
    const { rows } = await tx.query('select * from verification.aml_batches where id = $1', [outcome.ownerId]);
    if (!rows[0]) return;
    const batch = withCallback(this.opts.orm.em.fork().map(AmlBatch, rows[0]), outcome);
    await insertEvents(tx, [
      batchEvent(AML_BATCH_LIFECYCLE.fire(batch.status, 'callback.attempted').event, batch, {
        batchId: batch.id,
        callbackStatus: outcome.status,
        attempts: outcome.attemptCount,
        statusCode: outcome.lastStatusCode,
      }),
    ]);
  }
}
