import { isErasedUserId } from '../../../../platform/privacy/personal-data.js';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../../../platform/db/orm.js';
import { jobDb, type PgBoss, workQueue, ensureQueue } from '../../../../platform/jobs.js';
import { inJobSpan, withTrace } from '../../../../platform/tracing.js';
import type { Logger } from '../../../../platform/logger.js';
import { BusinessPerson, BusinessVerification } from './business.entity.js';
import { applyProgress } from './business.progress.js';
import type { BusinessJobs } from './business.service.js';
import type { BusinessRegistries } from './registries.js';

export const BUSINESS_REGISTRY_QUEUE = 'business-registry-lookup';

export interface BusinessWorkerOptions {
  orm: Orm;
  boss: PgBoss;
  /** How often the idle worker asks for work (JOB_POLL_SECONDS); `wake()` after a commit fetches at once. */
  pollSeconds: number;
  registries: BusinessRegistries;
  /** Seconds before each retry of a lookup that found the registry unavailable; after the last, a reviewer decides. */
  retryDelays: readonly number[];
  /** One lookup's budget (the registry adapter's timeout); a job lives longer than this. */
  timeoutMs: number;
  logger: Logger;
}

/**
 * Registry lookups as pg-boss jobs, queued in the transaction that created the business (so an
 * accepted business is always looked up). A lookup whose registry is unavailable (down, slow,
 * refused, unreadable) records so on the registration step and queues the next attempt in the same
 * transaction, after BUSINESS_REGISTRY_RETRY_DELAYS; a job that dies (a crash) is retried by
 * pg-boss. Handlers are idempotent: a business whose lookup is settled is left alone.
 */
export class BusinessWorker implements BusinessJobs {
  private wakeWorker: () => void = () => undefined;
  constructor(private readonly opts: BusinessWorkerOptions) {}

  async start(): Promise<void> {
    const { boss } = this.opts;
    const expireInSeconds = Math.ceil(this.opts.timeoutMs / 1000) + 60;
    const queue = { expireInSeconds, retryLimit: 10, retryDelay: 5, retryBackoff: true, retryDelayMax: 300 };
    await ensureQueue(boss, BUSINESS_REGISTRY_QUEUE, queue);
    this.wakeWorker = await workQueue<{ businessId: string }>(boss, BUSINESS_REGISTRY_QUEUE, this.opts.pollSeconds, (job) =>
      inJobSpan(BUSINESS_REGISTRY_QUEUE, job.data, () => this.lookup(job.data.businessId)),
    );
  }

  /** A job was committed here: fetch it now, not at the next poll. */
  wake(): void {
    this.wakeWorker();
  }

  async stop(): Promise<void> {
    await this.opts.boss.offWork(BUSINESS_REGISTRY_QUEUE, { wait: true }).catch(() => undefined);
  }

  async enqueueLookup(em: EntityManager, businessId: string, startAfterSeconds = 0): Promise<void> {
    await this.opts.boss.send(BUSINESS_REGISTRY_QUEUE, withTrace({ businessId }), {
      db: jobDb(em),
      ...(startAfterSeconds > 0 && { startAfter: startAfterSeconds }),
    });
  }

  /** One lookup of one business; its answer, the steps and the status are recorded in one transaction. */
  async lookup(businessId: string): Promise<void> {
    const business = await this.opts.orm.em.fork().findOne(BusinessVerification, { id: businessId });
    if (!business || !this.due(business)) return;
    // the user was erased before the registry was asked: there is nothing left to look up
    if (!business.registrationNumber || !business.businessName) return;
    const attempt = business.registryAttempts + 1;
    const registry = this.opts.registries.get(business.registryProvider);
    const answer = await registry.lookup({
      registrationNumber: business.registrationNumber,
      country: business.country,
      businessName: business.businessName,
      attempt,
    });
    await this.opts.orm.em.fork().transactional(async (em) => {
      const b = await em.findOne(BusinessVerification, { id: businessId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      // settled meanwhile, or another process recorded this attempt
      if (!b || !this.due(b) || b.registryAttempts !== attempt - 1) return;
      const now = new Date();
      b.registryAttempts = attempt;
      b.registryCheckedAt = now;
      b.registryOutcome = answer.outcome;
      b.registryRetryAt = null;
      b.registryError = null;
      // the user was erased while the registry answered: the outcome is kept, the company's data is not
      if (answer.outcome === 'FOUND' && !isErasedUserId(b.userId)) b.registryData = answer.company;
      if (answer.outcome === 'UNAVAILABLE') {
        b.registryError = answer.reason;
        const delay = this.opts.retryDelays[attempt - 1];
        if (delay !== undefined) {
          b.registryRetryAt = new Date(now.getTime() + delay * 1000);
          await this.enqueueLookup(em, b.id, delay);
        }
      }
      const tenant = { organizationId: b.organizationId, environment: b.environment };
      const people = await em.find(BusinessPerson, { businessId, ...tenant }, { orderBy: { kind: 'asc', position: 'asc' } });
      await applyProgress(em, { business: b, people }, true);
      this.opts.logger.info(
        { businessVerificationId: b.id, registry: registry.name, attempt, outcome: answer.outcome, status: b.status, steps: b.steps },
        answer.outcome === 'UNAVAILABLE' ? `business registry unavailable: ${answer.reason}` : 'business registry looked up',
      );
    });
  }

  /** A lookup is due while none answered, or the last found the registry unavailable and a retry is scheduled. */
  private due(b: BusinessVerification): boolean {
    if (b.status !== 'PENDING' && b.status !== 'PROCESSING') return false;
    return b.registryOutcome === 'PENDING' || (b.registryOutcome === 'UNAVAILABLE' && b.registryRetryAt != null);
  }
}
