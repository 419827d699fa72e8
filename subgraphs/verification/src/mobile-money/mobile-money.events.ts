import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '../../../../platform/events/outbox.js';
import type { MobileMoneyVerification } from './mobile-money.entity.js';

export const MOBILE_MONEY_RESOURCE = 'mobile_money_verification';

/** The verification as subscribers see it (no tenant columns). */
export function mobileMoneySnapshot(v: MobileMoneyVerification): Record<string, unknown> {
  const { organizationId: _o, environment: _e, ...visible } = v;
  return JSON.parse(JSON.stringify(visible)) as Record<string, unknown>;
}

/** Webhook `data` (the published events' pattern): the resource id, the user, the status and the decisive fields. */
export function mobileMoneyData(v: MobileMoneyVerification): Record<string, unknown> {
  return {
    verificationId: v.id,
    userId: v.userId,
    status: v.status,
    phoneNumber: v.phoneNumber,
    provider: v.provider,
    country: v.country,
    accountHolder: v.accountHolder ?? null,
    accountStatus: v.accountStatus ?? null,
    nameMatch: v.nameMatch ?? null,
    nameMatchScore: v.nameMatchScore ?? null,
    ...(v.failureReason ? { failureReason: v.failureReason } : {}),
    verifiedAt: v.verifiedAt?.toISOString() ?? null,
    checkedAt: v.checkedAt?.toISOString() ?? null,
  };
}

export function recordMobileMoneyEvent(em: EntityManager, event: string, v: MobileMoneyVerification): void {
  recordEvent(em, {
    organizationId: v.organizationId,
    environment: v.environment,
    event,
    resourceType: MOBILE_MONEY_RESOURCE,
    resourceId: v.id,
    userId: v.userId,
    data: mobileMoneyData(v),
    snapshot: mobileMoneySnapshot(v),
  });
}
