import { randomUUID } from 'node:crypto';
import { ReviewColumns } from '../review/review.entity.js';
import { sealedEntity } from '../../../../platform/crypto/sealed-columns.js';
import type { Opt } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { BusinessSteps, PersonScreening } from './business-rules.js';
import type { BusinessStatus } from './business.lifecycle.js';
import type { RegistryCompany } from './registry.js';
import { ScreenedPersonColumns } from '../screened-person/screened-person.js';

export const BUSINESS_TYPES = ['SOLE_PROPRIETORSHIP', 'PARTNERSHIP', 'LLC', 'CORPORATION', 'NGO'] as const;
export type BusinessType = (typeof BUSINESS_TYPES)[number];

export const CONTROL_TYPES = ['DIRECT', 'INDIRECT', 'BOTH'] as const;
export type ControlType = (typeof CONTROL_TYPES)[number];

/** Where the registry lookup stands: PENDING until the first answer. */
export type RegistryOutcome = 'PENDING' | 'FOUND' | 'NOT_FOUND' | 'UNAVAILABLE';

/** One business verification (KYB): the declared business, its registry lookup and its steps. */
@Entity({ schema: 'verification', tableName: 'business_verifications' })
export class BusinessVerification extends ReviewColumns {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  environment!: string;

  @Property({ type: 'text' })
  userId!: string;

  /** Null once the user was erased (eraseUser), as the registration number. */
  @Property({ type: 'text', nullable: true })
  businessName?: string | null;

  @Property({ type: 'text', nullable: true })
  registrationNumber?: string | null;

  @Property({ type: 'text' })
  country!: string;

  @Property({ type: 'text', nullable: true })
  businessType?: BusinessType | null;

  @Property({ type: 'text', nullable: true })
  taxId?: string | null;

  /** Written only through BUSINESS_LIFECYCLE (business.progress.ts, review). */
  @Property({ type: 'text' })
  status!: BusinessStatus;

  @Property({ type: 'json' })
  steps!: BusinessSteps;

  /** Why it was rejected or needs a reviewer (codes, business-rules.ts). */
  @Property({ type: 'json' })
  reasons: string[] & Opt = [];

  /** The registry chosen at creation (sandbox for test keys). */
  @Property({ type: 'text' })
  registryProvider!: string;

  @Property({ type: 'text' })
  registryOutcome: RegistryOutcome & Opt = 'PENDING';

  /** What the registry said (FOUND). */
  @Property({ type: 'json', nullable: true })
  registryData?: RegistryCompany | null;

  @Property({ type: 'integer' })
  registryAttempts: number & Opt = 0;

  @Property({ type: 'datetime', nullable: true })
  registryCheckedAt?: Date | null;

  /** When the next lookup runs (the registry was unavailable); null when none is scheduled. */
  @Property({ type: 'datetime', nullable: true })
  registryRetryAt?: Date | null;

  /** Why the last lookup could not answer (never a credential). */
  @Property({ type: 'text', nullable: true })
  registryError?: string | null;

  /** When it became VERIFIED or REJECTED. */
  @Property({ type: 'datetime', nullable: true })
  completedAt?: Date | null;

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}

/** A director or an ultimate beneficial owner declared for a business, and their screening. */
@Entity({ schema: 'verification', tableName: 'business_people' })
export class BusinessPerson extends ScreenedPersonColumns {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  environment!: string;

  @Property({ type: 'uuid' })
  businessId!: string;

  @Property({ type: 'text' })
  kind!: 'DIRECTOR' | 'UBO';

  /** Declaration order within its kind. */
  @Property({ type: 'integer' })
  position!: number;

  /** A director's role (Form B: position). */
  @Property({ type: 'text', nullable: true })
  role?: string | null;

  @Property({ type: 'text', nullable: true })
  controlType?: ControlType | null;

  @Property({ type: 'double', nullable: true })
  ownershipPercentage?: number | null;

  @Property({ type: 'text', nullable: true, persist: false })
  idNumber?: string | null;

  /** idNumber, sealed with the organization's data key (platform/crypto). */
  @Property({ type: 'text', nullable: true, hidden: true })
  idNumberSealed?: string | null;

  /** The AML screening made when the person was declared; null when no list was loaded. */
  @Property({ type: 'uuid', nullable: true })
  amlScreeningId?: string | null;

  @Property({ type: 'text' })
  screeningStatus!: PersonScreening;

  @Property({ type: 'integer' })
  matchCount: number & Opt = 0;

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();
}

sealedEntity(BusinessPerson, {
  table: 'verification.business_people',
  fields: [
    { plain: 'dateOfBirth', sealed: 'dateOfBirthSealed', column: 'date_of_birth_sealed', legacyColumn: 'date_of_birth_plaintext' },
    { plain: 'idNumber', sealed: 'idNumberSealed', column: 'id_number_sealed', legacyColumn: 'id_number_plaintext' },
  ],
});
