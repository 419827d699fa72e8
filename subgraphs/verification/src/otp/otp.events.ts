import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '../../../../platform/events/outbox.js';
import type { OtpVerification } from './otp.entity.js';
import { otpRecord } from './otp.record.js';

export const OTP_RESOURCE: Record<OtpVerification['kind'], string> = { phone: 'phone_verification', email: 'email_verification' };

/** Webhook `data`: the resource id, user, status and the decisive fields; never the code or a link token. */
function otpData(v: OtpVerification): Record<string, unknown> {
  const address = v.kind === 'phone' ? { phoneNumber: v.address, channel: v.channel } : { email: v.address, method: v.method };
  return {
    verificationId: v.id,
    userId: v.userId,
    ...address,
    status: v.status,
    attemptsRemaining: v.attemptsRemaining,
    failureReason: v.failureReason ?? null,
    verifiedAt: v.verifiedAt?.toISOString() ?? null,
  };
}

export function recordOtpEvent(em: EntityManager, event: string, v: OtpVerification): void {
  recordEvent(em, {
    organizationId: v.organizationId,
    environment: v.environment,
    event,
    resourceType: OTP_RESOURCE[v.kind],
    resourceId: v.id,
    userId: v.userId,
    data: otpData(v),
    snapshot: JSON.parse(JSON.stringify(otpRecord(v))) as Record<string, unknown>,
  });
}
