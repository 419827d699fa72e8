import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '../../../../platform/events/outbox.js';
import type { IdentityVerification } from './identity.entity.js';

export const IDENTITY_RESOURCE = 'identity_verification';

/** Events webhooks may subscribe to (the spec's); others (created, in_progress, restarted) feed subscriptions. */
export const IDENTITY_WEBHOOK_EVENTS = ['identity.verified', 'identity.rejected', 'identity.manual_review'] as const;

export function identitySnapshot(v: IdentityVerification): Record<string, unknown> {
  const { organizationId: _org, environment: _env, ...visible } = v;
  return JSON.parse(JSON.stringify(visible)) as Record<string, unknown>;
}

/** Webhook `data`: the spec's fields for identity.verified; the same pattern for the others. */
function identityData(v: IdentityVerification): Record<string, unknown> {
  const data: Record<string, unknown> = {
    identityVerificationId: v.id,
    userId: v.userId,
    status: v.overallStatus,
    tier: v.tier,
  };
  if (v.overallStatus === 'VERIFIED') data.verifiedAt = v.verifiedAt?.toISOString();
  if (v.reviewedBy) Object.assign(data, { reviewedBy: v.reviewedBy, reviewedAt: v.reviewedAt?.toISOString() });
  if (v.replacedById) data.replacedById = v.replacedById;
  return data;
}

export function recordIdentityEvent(em: EntityManager, event: string, v: IdentityVerification): void {
  recordEvent(em, {
    organizationId: v.organizationId,
    environment: v.environment,
    event,
    resourceType: IDENTITY_RESOURCE,
    resourceId: v.id,
    userId: v.userId,
    data: identityData(v),
    snapshot: identitySnapshot(v),
  });
}
