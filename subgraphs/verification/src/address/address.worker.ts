import { isErasedUserId } from '../../../../platform/privacy/personal-data.js';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../../../platform/db/orm.js';
import { jobDb, type PgBoss, workQueue, ensureQueue } from '../../../../platform/jobs.js';
import { inJobSpan, withTrace } from '../../../../platform/tracing.js';
import type { Logger } from '../../../../platform/logger.js';
import type { FileService } from '../../../../platform/storage/file-store.js';
import type { VisionPool } from '../vision/vision.pool.js';
import { decideAddress, type AddressDecision } from './address-decision.js';
import { AddressVerification } from './address.entity.js';
import { recordAddressEvent } from './address.events.js';
import { ADDRESS_LIFECYCLE, type AddressTrigger } from './address.lifecycle.js';
import type { AddressJobs } from './address.service.js';

export const ADDRESS_CHECK_QUEUE = 'address-check';

const TRIGGER_OF: Record<AddressDecision, AddressTrigger> = {
  VERIFIED: 'check.verified',
  REJECTED: 'check.rejected',
  MANUAL_REVIEW: 'check.flagged',
};

export interface AddressWorkerOptions {
  orm: Orm;
  boss: PgBoss;
  /** How often the idle worker asks for work (JOB_POLL_SECONDS); `wake()` after a commit fetches at once. */
  pollSeconds: number;
  files: FileService;
  /** Reads the document (OCR with the English and French models together) in a vision worker process. */
  vision: Pick<VisionPool, 'readAddress'>;
  logger: Logger;
}

/**
 * Address checks as pg-boss jobs (queued in the transaction that accepted the document, so an
 * accepted document is always checked; retried with backoff when OCR or the database fails). A
 * check reads the document out of the API process (`readAddressDocument` in a vision worker) and
 * records the decision in one transaction with its event.
 */
export class AddressWorker implements AddressJobs {
  private wakeWorker: () => void = () => undefined;
  constructor(private readonly opts: AddressWorkerOptions) {}

  async start(): Promise<void> {
    const { boss } = this.opts;
    const queue = { expireInSeconds: 300, retryLimit: 10, retryDelay: 5, retryBackoff: true, retryDelayMax: 300 };
    await ensureQueue(boss, ADDRESS_CHECK_QUEUE, queue);
    this.wakeWorker = await workQueue<{ addressId: string }>(boss, ADDRESS_CHECK_QUEUE, this.opts.pollSeconds, (job) =>
      inJobSpan(ADDRESS_CHECK_QUEUE, job.data, () => this.check(job.data.addressId)),
    );
  }

  /** A job was committed here: fetch it now, not at the next poll. */
  wake(): void {
    this.wakeWorker();
  }

  async stop(): Promise<void> {
    await this.opts.boss.offWork(ADDRESS_CHECK_QUEUE, { wait: true }).catch(() => undefined);
  }

  async enqueueCheck(em: EntityManager, addressId: string): Promise<void> {
    await this.opts.boss.send(ADDRESS_CHECK_QUEUE, withTrace({ addressId }), { db: jobDb(em) });
  }

  /** Checks one document; idempotent (a decided verification is left alone). */
  async check(addressId: string, today = new Date()): Promise<void> {
    const pending = await this.opts.orm.em.fork().findOne(AddressVerification, { id: addressId });
    if (!pending || pending.status !== 'PROCESSING') return;
    const tenant = { organizationId: pending.organizationId, environment: pending.environment };
    const file = await this.opts.files.read(tenant, pending.fileId);
    if (!file) {
      // the bytes are gone (deleted under it): nothing to judge, a reviewer decides
      await this.move(addressId, 'check.flagged', (a, now) => Object.assign(a, { reasons: ['DOCUMENT_MISSING'], checkedAt: now }));
      return;
    }
    const { fields, textConfidence } = await this.opts.vision.readAddress(file.bytes);
    const outcome = decideAddress({
      fields,
      textConfidence,
      expectedAddress: pending.expectedAddress ?? null,
      today: today.toISOString().slice(0, 10),
    });
    await this.move(addressId, TRIGGER_OF[outcome.decision], (a, now) =>
      Object.assign(a, {
        // the user was erased while the check ran: the outcome is kept, the address read is not
        extractedData: isErasedUserId(a.userId) ? null : fields,
        documentAgeDays: outcome.documentAgeDays,
        addressMatch: outcome.comparison?.match ?? null,
        addressMatchScore: outcome.comparison?.score ?? null,
        addressMatchExplanation: isErasedUserId(a.userId)
          ? null
          : (outcome.comparison?.explanation ??
            (!a.expectedAddress
              ? 'No address was declared: the address read from the document is the one it proves.'
              : 'No address could be read on the document to compare with the declared one.')),
        textConfidence: Math.round(textConfidence * 10) / 10,
        reasons: outcome.reasons,
        checkedAt: now,
        ...(outcome.decision !== 'MANUAL_REVIEW' && { completedAt: now }),
      }),
    );
    this.opts.logger.info({ addressId, decision: outcome.decision, reasons: outcome.reasons }, 'address document checked');
  }

  /** One move of the lifecycle in its own transaction, with its event; nothing when it no longer applies (decided already). */
  private async move(id: string, trigger: AddressTrigger, change: (a: AddressVerification, now: Date) => void): Promise<void> {
    await this.opts.orm.em.fork().transactional(async (em) => {
      const a = await em.findOne(AddressVerification, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!a || !ADDRESS_LIFECYCLE.allows(a.status, trigger)) return;
      const { status, event } = ADDRESS_LIFECYCLE.fire(a.status, trigger);
      change(a, new Date());
      a.status = status;
      await em.flush();
      recordAddressEvent(em, event, a);
    });
  }
}
