import { recordAudit, type AuditActor, type AuditDetails } from '../../../../platform/audit/audit.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { tenantColumns, type Tenant } from '../../../../platform/auth/tenant.js';
import { sqlOf } from '../../../../platform/db/transaction.js';
import { invalid } from '../../../../platform/errors.js';
import type { Connection, ConnectionArgs } from '../../../../platform/graphql/connection.js';
import {
  findErasure,
  listErasures,
  requestErasure,
  type ErasureRequest,
  type ErasureStatus,
  type UserErasureView,
} from '../../../../platform/privacy/erasure.js';
import type { ErasedUser } from '../../../../platform/privacy/personal-data.js';
import {
  readRetentionPolicy,
  RETENTION_KINDS,
  RETENTION_MAX_DAYS,
  updateRetentionPolicy,
  type RetentionKind,
  type RetentionPolicy,
} from '../../../../platform/privacy/retention.js';
import { scrubEvents } from '../../../../platform/privacy/scrub.js';
import type { CapabilityDeps } from '../../../../platform/capability.js';
import { OtpService, type OtpDeps } from '../otp/otp.service.js';

/** What privacy reads of the other capabilities: their records of a user, and how to reach the user (otp). */
export type PrivacyDeps = Pick<CapabilityDeps, 'personalData'> & { otp: OtpDeps };

function validUserId(userId: string): string {
  const trimmed = userId.trim();
  if (!trimmed) throw invalid('userId must not be empty');
  if (trimmed.length > 255) throw invalid('userId must be at most 255 characters');
  return trimmed;
}

/** Erasure, access and retention for one tenant (issue 16). */
export class PrivacyService {
  constructor(
    private readonly em: EntityManager,
    private readonly tenant: Tenant,
    private readonly deps: PrivacyDeps,
  ) {}

  /**
   * Records the erasure of a user (or returns their pending one) with its event, in one
   * transaction: every service's worker then erases its part. What verification knows of how to
   * reach the user (numbers, addresses, the notifications that carried their codes) goes with the
   * request so notify finds those messages; it is forgotten when the erasure completes.
   */
  /** Requests the erasure; a new request lands in the audit trail with it (`actor`: who asked). */
  async erase(userId: string, actor: AuditActor): Promise<{ created: boolean; erasure: UserErasureView }> {
    const user = validUserId(userId);
    return this.em.transactional(async (em) => {
      const contacts = await Promise.all(
        (['phone', 'email'] as const).map((kind) => new OtpService(em, this.tenant, kind, this.deps.otp).contactsOf(user)),
      );
      const subject = {
        addresses: contacts.flatMap((c) => c.addresses),
        notificationIds: contacts.flatMap((c) => c.notificationIds),
      };
      const requested = await requestErasure(sqlOf(em), this.tenant, { userId: user, requestedBy: actor.clientId, subject });
      if (requested.created) await this.audit(em, 'user.erased', user, actor, { erasureId: requested.erasure.id });
      return requested;
    });
  }

  /** A subject access export, in the audit trail (its parts are read as the client asks for them). */
  async exported(userId: string, actor: AuditActor): Promise<{ id: string; exportedAt: Date }> {
    const user = validUserId(userId);
    await this.audit(this.em, 'user.exported', user, actor, {});
    return this.exportOf(user);
  }

  private audit(em: EntityManager, action: 'user.erased' | 'user.exported', userId: string, actor: AuditActor, details: AuditDetails) {
    return recordAudit(em, { ...tenantColumns(this.tenant), action, actor, resourceType: 'user', resourceId: userId, userId, details });
  }

  find(id: string): Promise<UserErasureView | null> {
    return findErasure(sqlOf(this.em), this.tenant, id);
  }

  list(filter: { userId?: string | null; status?: ErasureStatus | null }, page: ConnectionArgs): Promise<Connection<UserErasureView>> {
    return listErasures(sqlOf(this.em), this.tenant, filter, page);
  }

  /** The export of a user (its parts are read as the client asks for them). */
  exportOf(userId: string): { id: string; exportedAt: Date } {
    return { id: validUserId(userId), exportedAt: new Date() };
  }

  /** Everything this service holds about the user, by capability. */
  async exportUser(userId: string): Promise<Record<string, unknown[]>> {
    const user = validUserId(userId);
    const holders = this.deps.personalData(this.em, this.tenant);
    const parts = await Promise.all(Object.entries(holders).map(async ([kind, holder]) => [kind, await holder.exportUser(user)] as const));
    return Object.fromEntries(parts);
  }

  readRetention(): Promise<RetentionPolicy> {
    return readRetentionPolicy(sqlOf(this.em), this.tenant);
  }

  async updateRetention(changes: Partial<Record<RetentionKind, number | null>>): Promise<RetentionPolicy> {
    const errors = RETENTION_KINDS.filter((k) => {
      const days = changes[k];
      return days != null && !(Number.isInteger(days) && days >= 1 && days <= RETENTION_MAX_DAYS);
    }).map((k) => `${k}Days must be a whole number of days from 1 to ${RETENTION_MAX_DAYS}`);
    if (errors.length) throw invalid(errors);
    await updateRetentionPolicy(sqlOf(this.em), this.tenant, changes);
    return this.readRetention();
  }
}

/**
 * Verification's part of an erasure, in the worker's transaction: every capability erases its
 * records, then the events and webhook deliveries naming the user are scrubbed.
 */
export async function eraseVerificationPart(
  em: EntityManager,
  request: ErasureRequest,
  deps: PrivacyDeps,
): Promise<Record<string, number>> {
  const tenant = { organizationId: request.organizationId, environment: request.environment };
  const user: ErasedUser = { userId: request.userId, pseudonym: request.pseudonym };
  const erased: Record<string, number> = {};
  // one after the other: they share the transaction's connection
  for (const [kind, holder] of Object.entries(deps.personalData(em, tenant))) {
    erased[kind] = await holder.eraseUser(user);
  }
  erased.events = await scrubEvents(sqlOf(em), tenant, { userId: request.userId });
  return erased;
}
