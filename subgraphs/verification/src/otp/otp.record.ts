import type { OtpVerification } from './otp.entity.js';

/** A verification as clients read it: no code hash, no link nonce. */
export interface OtpRecord {
  id: string;
  kind: OtpVerification['kind'];
  userId: string;
  phoneNumber: string | null;
  email: string | null;
  channel: string;
  method: string;
  locale: string;
  redirectUrl: string | null;
  country: string | null;
  lineType: string | null;
  disposable: boolean | null;
  status: OtpVerification['status'];
  attemptsRemaining: number;
  sends: number;
  failureReason: string | null;
  expiresAt: Date;
  verifiedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export function otpRecord(v: OtpVerification): OtpRecord {
  return {
    id: v.id,
    kind: v.kind,
    userId: v.userId,
    phoneNumber: v.kind === 'phone' ? (v.address ?? null) : null,
    email: v.kind === 'email' ? (v.address ?? null) : null,
    channel: v.channel,
    method: v.method,
    locale: v.locale,
    redirectUrl: v.redirectUrl ?? null,
    country: v.country ?? null,
    lineType: v.lineType ?? null,
    disposable: v.disposable ?? null,
    status: v.status,
    attemptsRemaining: v.attemptsRemaining,
    sends: v.sends,
    failureReason: v.failureReason ?? null,
    expiresAt: v.expiresAt,
    verifiedAt: v.verifiedAt ?? null,
    createdAt: v.createdAt,
    updatedAt: v.updatedAt,
  };
}
