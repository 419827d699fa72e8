import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '../../../../platform/events/outbox.js';
import type { Tenant } from '../../../../platform/auth/tenant.js';
import type { BiometricDedupCheck } from './dedup.entity.js';
import type { Enrollment } from './enrollment.store.js';

export const DEDUP_RESOURCE = 'biometric_dedup_check';
export const ENROLLMENT_RESOURCE = 'biometric_enrollment';
/** An enrolled face erased on request (feeds the audit trail; no webhook). */
export const ENROLLMENT_DELETED = 'dedup.enrollment_deleted';

export function dedupSnapshot(check: BiometricDedupCheck): Record<string, unknown> {
  const { organizationId: _org, environment: _env, ...visible } = check;
  return JSON.parse(JSON.stringify(visible)) as Record<string, unknown>;
}

/** Webhook `data` (`dedup.unique`, `dedup.match`): the check's id, user, status and decisive fields. */
function dedupData(check: BiometricDedupCheck): Record<string, unknown> {
  return {
    dedupCheckId: check.id,
    userId: check.userId,
    status: check.status,
    matchFound: check.matchFound,
    enrolled: check.enrolled,
    ...(check.status === 'DUPLICATE' && { matches: check.matches }),
    ...(check.errorReason && { errorReason: check.errorReason }),
    checkedAt: check.checkedAt.toISOString(),
  };
}

export function recordDedupEvent(em: EntityManager, event: string, check: BiometricDedupCheck): void {
  recordEvent(em, {
    organizationId: check.organizationId,
    environment: check.environment,
    event,
    resourceType: DEDUP_RESOURCE,
    resourceId: check.id,
    userId: check.userId,
    data: dedupData(check),
    snapshot: dedupSnapshot(check),
  });
}

export function recordEnrollmentDeleted(em: EntityManager, tenant: Tenant, enrollment: Enrollment): void {
  const data = { userId: enrollment.userId, enrolledAt: enrollment.enrolledAt.toISOString(), sourceCheckId: enrollment.sourceCheckId };
  recordEvent(em, {
    organizationId: tenant.organizationId,
    environment: tenant.environment,
    event: ENROLLMENT_DELETED,
    resourceType: ENROLLMENT_RESOURCE,
    resourceId: enrollment.userId,
    userId: enrollment.userId,
    data,
    snapshot: { ...data, deletedAt: new Date().toISOString() },
  });
}
