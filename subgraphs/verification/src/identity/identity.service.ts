import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import { findOneBy } from '../../../../platform/db/find-one-by.js';
import { auditReview, stampReview } from '../review/review.js';
import type { AuditActor } from '../../../../platform/audit/audit.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { conflict, notFound } from '../../../../platform/errors.js';
import { paginate, type Connection, type ConnectionArgs } from '../../../../platform/graphql/connection.js';
import { isUuid } from '../../../../platform/ids.js';
import type { Tenant } from '../../../../platform/auth/tenant.js';
import { IdentityVerification, type IdentityTier } from './identity.entity.js';
import { ACTIVE_STATUSES, IDENTITY_LIFECYCLE, type IdentityStatus, type IdentityTrigger } from './identity.lifecycle.js';
import { identitySnapshot, recordIdentityEvent } from './identity.events.js';
import type { ErasedUser, PersonalDataHolder } from '../../../../platform/privacy/personal-data.js';

export interface ReviewCommand {
  decision: 'VERIFIED' | 'REJECTED';
  reviewedBy: string;
  reviewNotes: string;
}

export class IdentityService implements PersonalDataHolder {
  constructor(
    private readonly em: EntityManager,
    private readonly tenant: Tenant,
  ) {}

  /** Returns the user's active verification when there is one, else starts a new PENDING one. */
  async create(userId: string, tier: IdentityTier = 'BASIC'): Promise<{ created: boolean; verification: IdentityVerification }> {
    const active = await this.findActive(userId);
    if (active) return { created: false, verification: active };
    try {
      const verification = await this.em.transactional(async (em) => {
        return this.start(em, { userId, tier });
      });
      return { created: true, verification };
    } catch (err) {
      // a concurrent create won the unique "one active per user" index: return its record
      if (!(err instanceof UniqueConstraintViolationException)) throw err;
      this.em.clear();
      const winner = await this.findActive(userId);
      if (!winner) throw err;
      return { created: false, verification: winner };
    }
  }

  /** The caller's verification with this id, or null. */
  find(id: string): Promise<IdentityVerification | null> {
    return isUuid(id) ? findOneBy(this.em, IdentityVerification, { id, ...this.tenant }) : Promise.resolve(null);
  }

  async get(id: string): Promise<IdentityVerification> {
    const v = await this.find(id);
    if (!v) throw notFound('Identity verification', id);
    return v;
  }

  /** The user's newest verification that no restart replaced. */
  current(userId: string): Promise<IdentityVerification | null> {
    return this.em.findOne(
      IdentityVerification,
      { userId, invalidatedAt: null, ...this.tenant },
      { orderBy: { createdAt: 'desc', id: 'desc' } },
    );
  }

  /** The organization's verifications (of one user, in one status), newest first. */
  list(
    filter: { userId?: string | null; status?: IdentityStatus | null },
    page: ConnectionArgs,
  ): Promise<Connection<IdentityVerification>> {
    return paginate(
      this.em,
      IdentityVerification,
      {
        ...(filter.userId != null && { userId: filter.userId }),
        ...(filter.status != null && { overallStatus: filter.status }),
        // last: a session's user wins over the filter's
        ...this.tenant,
      },
      page,
    );
  }

  async exportUser(userId: string): Promise<unknown[]> {
    const all = await this.em.find(IdentityVerification, { userId, ...this.tenant }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    return all.map(identitySnapshot);
  }

  /** Decisions, steps and scores stay; the user id becomes the pseudonym, a reviewer's notes (free text) go. */
  eraseUser({ userId, pseudonym }: ErasedUser): Promise<number> {
    return this.em.nativeUpdate(IdentityVerification, { userId, ...this.tenant }, { userId: pseudonym, reviewNotes: null });
  }

  /** A reviewer's decision, recorded in the audit trail with it (`actor`: the key or session that sent it). */
  review(id: string, cmd: ReviewCommand, actor: AuditActor): Promise<IdentityVerification> {
    const trigger: IdentityTrigger = cmd.decision === 'VERIFIED' ? 'review.verified' : 'review.rejected';
    return this.apply(
      id,
      trigger,
      (v, now) => {
        stampReview(v, cmd, now);
        if (cmd.decision === 'VERIFIED') v.verifiedAt = now;
      },
      (em, v) =>
        auditReview(em, {
          tenant: this.tenant,
          actor,
          review: cmd,
          record: v,
          resourceType: 'identity_verification',
          status: v.overallStatus,
        }),
    );
  }

  /** Invalidates the verification and starts a new PENDING one for the same user and tier. */
  async restart(id: string): Promise<IdentityVerification> {
    await this.get(id);
    return this.em.transactional(async (em) => {
      const current = await em.findOneOrFail(
        IdentityVerification,
        { id, ...this.tenant },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      if (current.invalidatedAt) {
        throw conflict(`Identity verification ${id} was already restarted; its replacement is ${current.replacedById}`);
      }
      const restart = IDENTITY_LIFECYCLE.fire(current.overallStatus, 'restarted');
      current.invalidatedAt = new Date();
      // release the "one active per user" slot before the replacement takes it
      await em.flush();
      const next = this.start(em, { userId: current.userId, tier: current.tier, restartedFromId: current.id });
      current.replacedById = next.id;
      await em.flush(); // as in apply: the snapshot carries the stored updatedAt
      recordIdentityEvent(em, restart.event, current);
      return next;
    });
  }

  /** A new verification, as the lifecycle creates it. */
  private start(em: EntityManager, init: { userId: string; tier: IdentityTier; restartedFromId?: string }): IdentityVerification {
    const created = IDENTITY_LIFECYCLE.fire(null, 'created');
    const v = em.create(IdentityVerification, { ...this.tenant, ...init, overallStatus: created.status });
    recordIdentityEvent(em, created.event, v);
    return v;
  }

  private async findActive(userId: string): Promise<IdentityVerification | null> {
    return this.em.findOne(IdentityVerification, {
      userId,
      ...this.tenant,
      overallStatus: { $in: [...ACTIVE_STATUSES] },
      invalidatedAt: null,
    });
  }

  /** Every status change: lock, check the lifecycle table, change, record the event — one transaction. */
  private async apply(
    id: string,
    trigger: IdentityTrigger,
    change: (v: IdentityVerification, now: Date) => void,
    audit?: (em: EntityManager, v: IdentityVerification) => Promise<void>,
  ): Promise<IdentityVerification> {
    await this.get(id);
    return this.em.transactional(async (em) => {
      const v = await em.findOneOrFail(
        IdentityVerification,
        { id, ...this.tenant },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      const { status, event } = IDENTITY_LIFECYCLE.fire(v.overallStatus, trigger);
      change(v, new Date());
      v.overallStatus = status;
      // the flush sets updatedAt (onUpdate): the event's snapshot must show the row as stored
      await em.flush();
      recordIdentityEvent(em, event, v);
      await audit?.(em, v);
      return v;
    });
  }
}
