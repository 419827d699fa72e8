import https from 'node:https';
import { rootCertificates } from 'node:tls';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../../../platform/errors.js';
import type { Orm } from '../../../../platform/db/orm.js';
import type { PgBoss } from '../../../../platform/jobs.js';
import type { Logger } from '../../../../platform/logger.js';
import { signedHeaders } from '../webhooks/webhook.signature.js';
import { resolveTarget } from '../webhooks/webhook.target.js';
import { AmlBatch, AmlBatchSubject } from './aml.entity.js';
import { batchCompleteData, recordBatchEvent } from './aml.events.js';
import { AmlService, type AmlJobs, type ListCatalog, type ScreeningSearch } from './aml.service.js';
import { jobDb } from '../../../../platform/jobs.js';

export const AML_BATCH_QUEUE = 'aml-batch';
export const AML_CALLBACK_QUEUE = 'aml-batch-callback';
/** A running batch job touches its pg-boss job this often ÷ 2; pg-boss's minimum is 10. */
const BATCH_HEARTBEAT_SECONDS = 10;

export interface AmlWorkerOptions {
  orm: Orm;
  boss: PgBoss;
  logger: Logger;
  screening: ScreeningSearch;
  catalog: ListCatalog;
  timeoutMs: number;
  /** Seconds before each callback retry (the webhook schedule). */
  retryDelays: number[];
  allowPrivateTargets: boolean;
  ca?: string;
}

/**
 * Batches and their callbacks as pg-boss jobs. A batch job screens the pending subjects one
 * transaction each (a subject's screening, its counters and the batch's completion commit
 * together), so a process killed mid-batch resumes where it stopped when pg-boss retries the job
 * (its heartbeat stops: the job is retried ~10 s, plus a supervision interval, after the crash).
 * The callback is a job created in the completing transaction; it is POSTed signed like webhooks
 * and retried on the webhook schedule.
 */
export class AmlWorker implements AmlJobs {
  constructor(private readonly opts: AmlWorkerOptions) {}

  async start(): Promise<void> {
    const { boss } = this.opts;
    const callbackExpiry = Math.ceil(this.opts.timeoutMs / 1000) + 5;
    const queues: Array<[string, Parameters<PgBoss['createQueue']>[1]]> = [
      // the worker heartbeats while it screens: a process killed mid-batch stops heartbeating and
      // its job is retried (where it stopped) after BATCH_HEARTBEAT_SECONDS plus one supervision,
      // not after the whole 300 s expiry
      [
        AML_BATCH_QUEUE,
        {
          expireInSeconds: 300,
          heartbeatSeconds: BATCH_HEARTBEAT_SECONDS,
          retryLimit: 20,
          retryDelay: 5,
          retryBackoff: true,
          retryDelayMax: 300,
        },
      ],
      [AML_CALLBACK_QUEUE, { expireInSeconds: callbackExpiry, retryLimit: 10, retryDelay: 1 }],
    ];
    for (const [name, options] of queues) {
      await boss.createQueue(name, options).catch(() => undefined);
      await boss.updateQueue(name, options);
    }
    await boss.work<{ batchId: string }>(AML_BATCH_QUEUE, { pollingIntervalSeconds: 0.5, batchSize: 1 }, async ([job]) => {
      await this.processBatch(job.data.batchId);
    });
    await boss.work<{ batchId: string }>(AML_CALLBACK_QUEUE, { pollingIntervalSeconds: 0.5, batchSize: 1 }, async ([job]) => {
      await this.deliverCallback(job.data.batchId);
    });
  }

  /** Waits for running jobs (they use the worker's EntityManager, closed right after). */
  async stop(): Promise<void> {
    for (const name of [AML_BATCH_QUEUE, AML_CALLBACK_QUEUE]) await this.opts.boss.offWork(name, { wait: true }).catch(() => undefined);
  }

  async enqueueBatch(em: EntityManager, batchId: string): Promise<void> {
    await this.opts.boss.send(AML_BATCH_QUEUE, { batchId }, { db: jobDb(em) });
  }

  private async enqueueCallback(em: EntityManager, batchId: string, afterSeconds: number): Promise<void> {
    await this.opts.boss.send(AML_CALLBACK_QUEUE, { batchId }, { startAfter: afterSeconds, db: jobDb(em) });
  }

  /** Screens every pending subject; idempotent (done subjects are skipped, a completed batch is left alone). */
  async processBatch(batchId: string): Promise<void> {
    for (;;) {
      const finished = await this.opts.orm.em.fork().transactional(async (em) => {
        const batch = await em.findOne(AmlBatch, { id: batchId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        if (!batch || batch.status === 'COMPLETED') return true;
        const subject = await em.findOne(AmlBatchSubject, { batchId, status: 'PENDING' }, { orderBy: { position: 'asc' } });
        if (subject) {
          const tenant = { organizationId: batch.organizationId, environment: batch.environment };
          const service = new AmlService(em, tenant, { screening: this.opts.screening, catalog: this.opts.catalog });
          try {
            const { screening } = await service.screenIn(em, subject.input, batch.id);
            Object.assign(subject, { status: 'DONE', screeningId: screening.id });
            if (screening.status === 'CLEAR') batch.clearCount++;
            else batch.flaggedCount++;
          } catch (err) {
            // an invalid subject (validated at submission, so only after a rules change) fails alone;
            // anything else (lists unavailable, database) retries the job
            if (!(err instanceof AppError) || err.code !== 'VALIDATION_FAILED') throw err;
            Object.assign(subject, { status: 'FAILED', error: err.messages.join('; ') });
            batch.failedCount++;
          }
          batch.processed++;
          if (batch.status === 'PENDING') batch.status = 'PROCESSING';
        }
        if (subject && batch.processed < batch.total) {
          recordBatchEvent(em, 'aml.batch_progress', batch, {
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
      if (finished) return;
    }
  }

  private async complete(em: EntityManager, batch: AmlBatch): Promise<void> {
    const now = new Date();
    Object.assign(batch, { status: 'COMPLETED', completedAt: now });
    await em.flush();
    const tenant = { organizationId: batch.organizationId, environment: batch.environment };
    const results = (
      await new AmlService(em, tenant, { screening: this.opts.screening, catalog: this.opts.catalog }).batchResults(batch.id)
    ).map(({ screening: _s, fullName: _f, ...line }) => line);
    const data = batchCompleteData(batch, results);
    recordBatchEvent(em, 'aml.batch_complete', batch, data);
    if (batch.callbackUrl) {
      Object.assign(batch, {
        callbackBody: JSON.stringify({ event: 'aml.batch_complete', timestamp: now.toISOString(), data }),
        callbackStatus: 'PENDING',
        callbackNextAttemptAt: now,
      });
      await em.flush();
      await this.enqueueCallback(em, batch.id, 0);
    }
    this.opts.logger.info({ batchId: batch.id, total: batch.total, flagged: batch.flaggedCount }, 'AML batch completed');
  }

  /** One callback attempt; the next one is scheduled in the same transaction as this one's outcome. */
  async deliverCallback(batchId: string): Promise<void> {
    const em = this.opts.orm.em.fork();
    const batch = await em.findOne(AmlBatch, { id: batchId });
    if (!batch || batch.callbackStatus !== 'PENDING' || !batch.callbackUrl || !batch.callbackBody || !batch.callbackSecret) return;
    const outcome = await this.post(batch.callbackUrl, batch.callbackBody, batch.callbackSecret, `msg_${batch.id}`).catch((err: Error) => ({
      statusCode: null as number | null,
      error: err.message,
    }));
    const ok = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
    await em.transactional(async (tx) => {
      const b = await tx.findOneOrFail(AmlBatch, { id: batchId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (b.callbackStatus !== 'PENDING') return;
      b.callbackAttempts++;
      b.callbackLastStatusCode = outcome.statusCode;
      b.callbackLastError = outcome.error;
      const retryIn = this.opts.retryDelays[b.callbackAttempts - 1];
      if (ok) Object.assign(b, { callbackStatus: 'DELIVERED', callbackDeliveredAt: new Date(), callbackNextAttemptAt: null });
      else if (retryIn === undefined) Object.assign(b, { callbackStatus: 'FAILED', callbackNextAttemptAt: null });
      else {
        b.callbackNextAttemptAt = new Date(Date.now() + retryIn * 1000);
        await tx.flush();
        await this.enqueueCallback(tx, b.id, retryIn);
      }
      recordBatchEvent(tx, 'aml.batch_callback', b, {
        batchId: b.id,
        callbackStatus: b.callbackStatus,
        attempts: b.callbackAttempts,
        statusCode: outcome.statusCode,
      });
    });
  }

  private async post(
    callbackUrl: string,
    body: string,
    secret: string,
    messageId: string,
  ): Promise<{ statusCode: number | null; error: string | null }> {
    const target = await resolveTarget(callbackUrl, this.opts.allowPrivateTargets);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'afri-platform-webhooks/1',
      ...signedHeaders(secret, messageId, body),
    };
    return new Promise((resolve, reject) => {
      const req = https.request(
        target.url,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': Buffer.byteLength(body) },
          timeout: this.opts.timeoutMs,
          ca: this.opts.ca ? [...rootCertificates, this.opts.ca] : undefined,
          lookup: (_host, _o, cb) => cb(null, target.address, target.family),
        },
        (res) => {
          res.resume();
          res.on('end', () =>
            resolve({
              statusCode: res.statusCode ?? null,
              error: res.statusCode && res.statusCode < 300 ? null : `HTTP ${res.statusCode}`,
            }),
          );
        },
      );
      req.on('timeout', () => req.destroy(new Error(`timed out after ${this.opts.timeoutMs} ms`)));
      req.on('error', reject);
      req.end(body);
    });
  }
}
