import { randomUUID } from 'node:crypto';
import { sealedEntity } from '../../../../platform/crypto/sealed-columns.js';
import type { Opt } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { AccountStatus } from './adapters/adapter.js';
import type { NameMatchExplanation } from './mobile-money.decision.js';
import type { MobileMoneyStatus } from './mobile-money.lifecycle.js';
import type { MobileMoneyProvider } from './mobile-money.providers.js';

/** One mobile money account verification: the number, what the operator answered, the name comparison. */
@Entity({ schema: 'verification', tableName: 'mobile_money_verifications' })
export class MobileMoneyVerification {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  environment!: string;

  @Property({ type: 'text' })
  userId!: string;

  /** E.164; null once the user was erased */
  @Property({ type: 'text', nullable: true, persist: false })
  phoneNumber?: string | null;

  /** phoneNumber, sealed with the organization's data key (platform/crypto). */
  @Property({ type: 'text', nullable: true, hidden: true })
  phoneNumberSealed?: string | null;

  @Property({ type: 'text' })
  provider!: MobileMoneyProvider;

  /** ISO 3166-1 alpha-2 */
  @Property({ type: 'text' })
  country!: string;

  @Property({ type: 'text', nullable: true })
  expectedName?: string | null;

  /** Written only through MOBILE_MONEY_LIFECYCLE. */
  @Property({ type: 'text' })
  status!: MobileMoneyStatus;

  /** The holder's name in capitals, as the operator gave it. */
  @Property({ type: 'text', nullable: true })
  accountHolder?: string | null;

  @Property({ type: 'text', nullable: true })
  accountStatus?: AccountStatus | null;

  @Property({ type: 'boolean', nullable: true })
  nameMatch?: boolean | null;

  @Property({ type: 'double', nullable: true })
  nameMatchScore?: number | null;

  @Property({ type: 'json', nullable: true })
  nameMatchExplanation?: NameMatchExplanation | null;

  @Property({ type: 'text', nullable: true })
  failureReason?: string | null;

  /** The implementation that answered (`sandbox`, `mtn_momo`, `sandbox (no live … configured)`). */
  @Property({ type: 'text' })
  adapter!: string;

  /** Lookups made (1, more after retries). */
  @Property({ type: 'integer' })
  attempts: number & Opt = 1;

  /** When the operator last answered (or failed to). */
  @Property({ type: 'datetime', nullable: true })
  checkedAt?: Date | null;

  @Property({ type: 'datetime', nullable: true })
  verifiedAt?: Date | null;

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}

sealedEntity(MobileMoneyVerification, {
  table: 'verification.mobile_money_verifications',
  fields: [{ plain: 'phoneNumber', sealed: 'phoneNumberSealed', column: 'phone_number_sealed', legacyColumn: 'phone_number_plaintext' }],
});
