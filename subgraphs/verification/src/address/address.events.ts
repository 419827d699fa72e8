import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '../../../../platform/events/outbox.js';
import { ageText } from './address-decision.js';
import type { AddressVerification } from './address.entity.js';

export const ADDRESS_RESOURCE = 'address_verification';

export function addressSnapshot(a: AddressVerification): Record<string, unknown> {
  const { organizationId: _o, environment: _e, ...visible } = a;
  return JSON.parse(JSON.stringify(visible)) as Record<string, unknown>;
}

/** Webhook `data`: the resource id, userId, status and the decisive fields (the published pattern). */
function addressData(a: AddressVerification): Record<string, unknown> {
  return {
    verificationId: a.id,
    userId: a.userId,
    documentType: a.documentType,
    status: a.status,
    addressMatch: a.addressMatch ?? null,
    addressMatchScore: a.addressMatchScore ?? null,
    documentAge: ageText(a.documentAgeDays ?? null),
    extractedData: a.extractedData ?? null,
    ...(a.reasons.length ? { reasons: a.reasons } : {}),
    ...(a.completedAt ? { completedAt: a.completedAt.toISOString() } : {}),
    ...(a.reviewedBy ? { reviewedBy: a.reviewedBy, reviewedAt: a.reviewedAt?.toISOString() } : {}),
  };
}

export function recordAddressEvent(em: EntityManager, event: string, a: AddressVerification): void {
  recordEvent(em, {
    organizationId: a.organizationId,
    environment: a.environment,
    event,
    resourceType: ADDRESS_RESOURCE,
    resourceId: a.id,
    userId: a.userId,
    data: addressData(a),
    snapshot: addressSnapshot(a),
  });
}
