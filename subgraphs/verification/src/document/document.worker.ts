import { isErasedUserId } from '../../../../platform/privacy/personal-data.js';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../../../platform/db/orm.js';
import { jobDb, type PgBoss, workQueue, ensureQueue } from '../../../../platform/jobs.js';
import { inJobSpan, withTrace } from '../../../../platform/tracing.js';
import type { Logger } from '../../../../platform/logger.js';
import type { FileService } from '../../../../platform/storage/file-store.js';
import type { VisionPool } from '../vision/vision.pool.js';
import type { DocumentOutcome } from './document-check.js';
import { decideReadings, DocumentReader } from './document-reader.js';
import { DocumentVerification } from './document.entity.js';
import { recordDocumentEvent } from './document.events.js';
import { DOCUMENT_LIFECYCLE, type DocumentTrigger } from './document.lifecycle.js';
import type { DocumentJobs } from './document.service.js';

export const DOCUMENT_CHECK_QUEUE = 'document-check';

const TRIGGER_OF: Record<DocumentOutcome['decision'], DocumentTrigger> = {
  VERIFIED: 'check.verified',
  REJECTED: 'check.rejected',
  MANUAL_REVIEW: 'check.flagged',
};

export interface DocumentWorkerOptions {
  orm: Orm;
  boss: PgBoss;
  /** How often the idle worker asks for work (JOB_POLL_SECONDS); `wake()` after a commit fetches at once. */
  pollSeconds: number;
  files: FileService;
  /** Faces, text and machine-readable zones: read in the vision worker processes. */
  vision: VisionPool;
  logger: Logger;
}

/**
 * Document checks as pg-boss jobs (queued in the transaction that accepted the document, so an
 * accepted document is always checked; retried with backoff when a model or the database fails).
 * A check reads the images out of the API process (faces, text and zone in the vision workers)
 * and records the decision in one transaction with its event.
 */
export class DocumentWorker implements DocumentJobs {
  private wakeWorker: () => void = () => undefined;
  private readonly reader: DocumentReader;

  constructor(private readonly opts: DocumentWorkerOptions) {
    this.reader = new DocumentReader(opts.vision);
  }

  async start(): Promise<void> {
    const { boss } = this.opts;
    const queue = { expireInSeconds: 300, retryLimit: 10, retryDelay: 5, retryBackoff: true, retryDelayMax: 300 };
    await ensureQueue(boss, DOCUMENT_CHECK_QUEUE, queue);
    this.wakeWorker = await workQueue<{ documentId: string }>(boss, DOCUMENT_CHECK_QUEUE, this.opts.pollSeconds, (job) =>
      inJobSpan(DOCUMENT_CHECK_QUEUE, job.data, () => this.check(job.data.documentId)),
    );
  }

  /** A job was committed here: fetch it now, not at the next poll. */
  wake(): void {
    this.wakeWorker();
  }

  async stop(): Promise<void> {
    await this.opts.boss.offWork(DOCUMENT_CHECK_QUEUE, { wait: true }).catch(() => undefined);
  }

  async enqueueCheck(em: EntityManager, documentId: string): Promise<void> {
    await this.opts.boss.send(DOCUMENT_CHECK_QUEUE, withTrace({ documentId }), { db: jobDb(em) });
  }

  /** Checks one document; idempotent (a decided document is left alone). */
  async check(documentId: string, today = new Date()): Promise<void> {
    const started = await this.move(documentId, 'check.started', () => undefined, true);
    if (!started) return;
    const tenant = { organizationId: started.organizationId, environment: started.environment };
    const [front, back] = await Promise.all([
      this.opts.files.read(tenant, started.frontFileId),
      started.backFileId ? this.opts.files.read(tenant, started.backFileId) : Promise.resolve(null),
    ]);
    if (!front || (started.backFileId && !back)) {
      // the images were deleted before the check ran: nothing to judge
      await this.move(documentId, 'check.flagged', (d) =>
        Object.assign(d, { reasons: ['IMAGES_DELETED_BEFORE_CHECK'], checkedAt: new Date() }),
      );
      return;
    }
    const frontReading = await this.reader.read(front.bytes, today);
    const backReading = back ? await this.reader.read(back.bytes, today) : null;
    const { documentType, documentCountry } = started;
    const outcome = decideReadings({ documentType, documentCountry, front: frontReading, back: backReading, today });
    await this.move(documentId, TRIGGER_OF[outcome.decision], (d, now) => {
      Object.assign(d, {
        // the user was erased while the check ran: the decision is kept, what was read is not
        ...(!isErasedUserId(d.userId) && { extractedData: outcome.extractedData, faceEmbedding: frontReading.embedding }),
        confidence: outcome.confidence,
        reasons: outcome.reasons,
        checks: outcome.checks,
        checkedAt: now,
        ...(outcome.decision === 'VERIFIED' && { verifiedAt: now }),
      });
    });
    this.opts.logger.info({ documentId, decision: outcome.decision, reasons: outcome.reasons }, 'document checked');
  }

  /**
   * One move of the lifecycle in its own transaction, with its event; null when the document is
   * gone or the move no longer applies (decided already). `resume`: a PROCESSING document is
   * returned as it is (a retried job checks it again, without a second `processing` event).
   */
  private async move(
    id: string,
    trigger: DocumentTrigger,
    change: (d: DocumentVerification, now: Date) => void,
    resume = false,
  ): Promise<DocumentVerification | null> {
    return this.opts.orm.em.fork().transactional(async (em) => {
      const d = await em.findOne(DocumentVerification, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!d) return null;
      if (resume && d.status === 'PROCESSING') return d;
      if (!DOCUMENT_LIFECYCLE.allows(d.status, trigger)) return null;
      const { status, event } = DOCUMENT_LIFECYCLE.fire(d.status, trigger);
      change(d, new Date());
      d.status = status;
      await em.flush();
      recordDocumentEvent(em, event, d);
      return d;
    });
  }
}
