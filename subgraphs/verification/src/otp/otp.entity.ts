import { randomUUID } from 'node:crypto';
import { sealedEntity } from '../../../../platform/crypto/sealed-columns.js';
import type { Opt } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { OtpKind, OtpStatus } from './otp.lifecycle.js';

/** A phone or email verification by one-time code (email: or magic link). The code is kept only as a hash. */
@Entity({ schema: 'verification', tableName: 'otp_verifications' })
export class OtpVerification {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  environment!: string;

  @Property({ type: 'text' })
  kind!: OtpKind;

  @Property({ type: 'text' })
  userId!: string;

  /** The E.164 number or the email address; null once the user was erased. */
  @Property({ type: 'text', nullable: true, persist: false })
  address?: string | null;

  /** address, sealed with the organization's data key (platform/crypto). */
  @Property({ type: 'text', nullable: true, hidden: true })
  addressSealed?: string | null;

  /** Blind index of the address (one across organizations): the per-address send limit counts by it. */
  @Property({ type: 'text', nullable: true, hidden: true })
  addressIndex?: string | null;

  /** phone: SMS, VOICE or WHATSAPP; email: EMAIL */
  @Property({ type: 'text' })
  channel!: string;

  /** email: OTP or MAGIC_LINK */
  @Property({ type: 'text' })
  method: string & Opt = 'OTP';

  @Property({ type: 'text' })
  locale: string & Opt = 'en';

  @Property({ type: 'text', nullable: true })
  redirectUrl?: string | null;

  @Property({ type: 'text', nullable: true })
  country?: string | null;

  @Property({ type: 'text', nullable: true })
  lineType?: string | null;

  @Property({ type: 'boolean', nullable: true })
  disposable?: boolean | null;

  /** Written only through OTP_LIFECYCLE. */
  @Property({ type: 'text' })
  status!: OtpStatus;

  /** HMAC of the code (otp.ts); never shown */
  @Property({ type: 'text' })
  codeHash!: string;

  /** HMAC of the magic link's nonce; cleared when the link is used (single use) */
  @Property({ type: 'text', nullable: true })
  linkNonceHash?: string | null;

  @Property({ type: 'integer' })
  attemptsRemaining!: number;

  @Property({ type: 'integer' })
  sends: number & Opt = 1;

  @Property({ type: 'datetime' })
  lastSentAt!: Date;

  /** The notify notification that carried the latest code */
  @Property({ type: 'text', nullable: true })
  notificationId?: string | null;

  @Property({ type: 'text', nullable: true })
  failureReason?: string | null;

  @Property({ type: 'datetime' })
  expiresAt!: Date;

  @Property({ type: 'datetime', nullable: true })
  verifiedAt?: Date | null;

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}

/** Blind index scope of OTP addresses: one for every organization, as the per-address limit is. */
export const OTP_ADDRESS_SCOPE = 'otp-address';

sealedEntity(OtpVerification, {
  table: 'verification.otp_verifications',
  fields: [
    {
      plain: 'address',
      sealed: 'addressSealed',
      column: 'address_sealed',
      legacyColumn: 'address_plaintext',
      indexes: [
        { property: 'addressIndex', column: 'address_index', scope: OTP_ADDRESS_SCOPE, global: true, of: (address: string) => address },
      ],
    },
  ],
});
