import type { EntityManager } from '@mikro-orm/postgresql';
import { recordAudit, type AuditAction, type AuditActor } from '../../../../platform/audit/audit.js';
import { tenantColumns, type Tenant } from '../../../../platform/auth/tenant.js';

/** A reviewer's decision as every review input carries it. */
export interface ReviewDecision<D extends string = string> {
  decision: D;
  reviewedBy: string;
  reviewNotes: string;
}

/** The reviewer's columns of a record a person may decide. */
export interface Reviewable {
  id: string;
  userId?: string | null;
  reviewedBy?: string | null;
  reviewNotes?: string | null;
  reviewedAt?: Date | null;
}

/** The reviewer on the record, before it is flushed with its new status. */
export function stampReview(record: Reviewable, review: ReviewDecision, at: Date): void {
  Object.assign(record, { reviewedBy: review.reviewedBy, reviewNotes: review.reviewNotes, reviewedAt: at });
}

/** The decision in the audit trail (`<resource>.reviewed`), in the decision's transaction, with the status it led to. */
export function auditReview(
  em: EntityManager,
  opts: { tenant: Tenant; actor: AuditActor; review: ReviewDecision; record: Reviewable; resourceType: string; status: string },
): Promise<void> {
  return recordAudit(em, {
    ...tenantColumns(opts.tenant),
    action: `${opts.resourceType}.reviewed` as AuditAction,
    actor: opts.actor,
    reviewer: opts.review.reviewedBy,
    resourceType: opts.resourceType,
    resourceId: opts.record.id,
    userId: opts.record.userId,
    details: { decision: opts.review.decision, status: opts.status },
  });
}
