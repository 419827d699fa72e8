import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '../../../../platform/events/outbox.js';
import type { BusinessPerson, BusinessVerification } from './business.entity.js';

export const BUSINESS_RESOURCE = 'business_verification';

/** A business verification with its directors and UBOs (declaration order). */
export interface BusinessView {
  business: BusinessVerification;
  people: BusinessPerson[];
}

const personSnapshot = (p: BusinessPerson) => {
  const { organizationId: _o, environment: _e, businessId: _b, ...visible } = p;
  return visible;
};

/** The record as subscribers get it: the business with its directors and UBOs. */
export function businessSnapshot({ business, people }: BusinessView): Record<string, unknown> {
  const { organizationId: _o, environment: _e, registryError: _r, ...visible } = business;
  const ordered = [...people].sort((a, b) => a.position - b.position);
  return JSON.parse(
    JSON.stringify({
      ...visible,
      directors: ordered.filter((p) => p.kind === 'DIRECTOR').map(personSnapshot),
      ubos: ordered.filter((p) => p.kind === 'UBO').map(personSnapshot),
    }),
  ) as Record<string, unknown>;
}

/** Webhook `data`: the resource id, the user, the status and the fields it rests on (the published events' pattern). */
function businessData({ business: b, people }: BusinessView): Record<string, unknown> {
  return {
    businessVerificationId: b.id,
    userId: b.userId,
    businessName: b.businessName,
    registrationNumber: b.registrationNumber,
    country: b.country,
    status: b.status,
    steps: b.steps,
    reasons: b.reasons,
    legalName: b.registryData?.legalName ?? null,
    directors: people.filter((p) => p.kind === 'DIRECTOR').length,
    ubos: people.filter((p) => p.kind === 'UBO').length,
    ...(b.completedAt ? { completedAt: b.completedAt.toISOString() } : {}),
    ...(b.reviewedBy ? { reviewedBy: b.reviewedBy, reviewedAt: b.reviewedAt?.toISOString() } : {}),
  };
}

export function recordBusinessEvent(em: EntityManager, event: string, view: BusinessView): void {
  const b = view.business;
  recordEvent(em, {
    organizationId: b.organizationId,
    environment: b.environment,
    event,
    resourceType: BUSINESS_RESOURCE,
    resourceId: b.id,
    userId: b.userId,
    data: businessData(view),
    snapshot: businessSnapshot(view),
  });
}
