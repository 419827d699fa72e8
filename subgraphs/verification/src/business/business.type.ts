import { Directive, Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { ReviewedFields } from '../review/review.type.js';
import { ConnectionType } from '../../../../platform/graphql/connection.js';
import { EventEnvelopeType } from '../../../../platform/graphql/event-envelope.js';
import { UserError } from '../../../../platform/graphql/user-errors.js';
import { BUSINESS_STEP_STATUSES } from './business-rules.js';
import { BUSINESS_TYPES, CONTROL_TYPES } from './business.entity.js';
import { BUSINESS_STATUSES } from './business.lifecycle.js';

const enumOf = <T extends string>(values: readonly T[]) => Object.fromEntries(values.map((v) => [v, v])) as { [K in T]: K };

export const BusinessTypeEnum = enumOf(BUSINESS_TYPES);
export const ControlTypeEnum = enumOf(CONTROL_TYPES);
export const BusinessStatusEnum = enumOf(BUSINESS_STATUSES);
export const BusinessStepStatusEnum = enumOf(BUSINESS_STEP_STATUSES);
export const PersonScreeningStatusEnum = enumOf(['CLEAR', 'POTENTIAL_MATCH', 'UNAVAILABLE'] as const);

registerEnumType(BusinessTypeEnum, {
  name: 'BusinessType',
  description: 'The legal form of a business',
  valuesConfig: {
    SOLE_PROPRIETORSHIP: { description: 'One person trading in their own name' },
    PARTNERSHIP: { description: 'A partnership' },
    LLC: { description: 'A limited liability company' },
    CORPORATION: { description: 'A corporation (public or private company limited by shares)' },
    NGO: { description: 'A non-governmental or non-profit organisation' },
  },
});
registerEnumType(ControlTypeEnum, {
  name: 'UboControlType',
  description: 'How an ultimate beneficial owner controls the business',
  valuesConfig: {
    DIRECT: { description: 'Holds the shares or votes themselves' },
    INDIRECT: { description: 'Through other companies, trusts or nominees' },
    BOTH: { description: 'Directly and indirectly' },
  },
});
registerEnumType(BusinessStatusEnum, {
  name: 'BusinessVerificationStatus',
  description: 'Where a business verification stands',
  valuesConfig: {
    PENDING: { description: 'Created; waiting for its directors and UBOs (the registry lookup may already run)' },
    PROCESSING: { description: 'Everything declared; the registry lookup is still running or waiting for a retry' },
    MANUAL_REVIEW: { description: 'Needs the compliance team: a screening match, a name differing from the registry’s…' },
    VERIFIED: { description: 'Every check passed (or a reviewer accepted it)' },
    REJECTED: { description: 'The registration was not found, the company no longer trades (or a reviewer rejected it)' },
  },
});
registerEnumType(BusinessStepStatusEnum, {
  name: 'BusinessStepStatus',
  description: 'Where one step of a business verification stands',
  valuesConfig: {
    PENDING: { description: 'Waiting for data (no director or UBO declared yet)' },
    PROCESSING: { description: 'The registry lookup is running' },
    VERIFIED: { description: 'Done: the registry knows the company under its name, or the people are declared' },
    CLEAR: { description: 'Every declared director and UBO was screened without a match' },
    FLAGGED: { description: 'A director or UBO matched a sanctions or PEP list: a reviewer decides' },
    NOT_FOUND: { description: 'The registry does not know the registration number' },
    INACTIVE: { description: 'The registry lists the company as no longer trading (dissolved, struck off, in liquidation…)' },
    NAME_MISMATCH: { description: 'The registry knows the number under another name: a reviewer decides' },
    UNAVAILABLE: {
      description:
        'The source could not answer: the registry (retried later, see registryLookup; a reviewer decides after the last retry) or, for screening, no list is loaded',
    },
  },
});
registerEnumType(PersonScreeningStatusEnum, {
  name: 'BusinessPersonScreeningStatus',
  description: 'What the AML screening of a director or UBO found',
  valuesConfig: {
    CLEAR: { description: 'No match on the lists' },
    POTENTIAL_MATCH: { description: 'Potential matches: see the screening' },
    UNAVAILABLE: { description: 'Not screened: no screening list was loaded when the person was declared' },
  },
});

@ObjectType('BusinessVerificationSteps', { description: 'Per-step progress of a business verification; each step moves on its own' })
export class BusinessStepsType {
  @Field(() => BusinessStepStatusEnum, { description: 'The registry lookup of the registration number' })
  registration!: string;

  @Field(() => BusinessStepStatusEnum, { description: 'The directors: VERIFIED once at least one is declared' })
  directors!: string;

  @Field(() => BusinessStepStatusEnum, { description: 'The ultimate beneficial owners: VERIFIED once at least one is declared' })
  ubo!: string;

  @Field(() => BusinessStepStatusEnum, { description: 'AML screening of every declared director and UBO' })
  amlScreening!: string;
}

@ObjectType('BusinessRegistryOfficer', { description: 'An officer the company registry lists' })
export class RegistryOfficerType {
  @Field({ description: 'The officer’s name as the registry writes it' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'The office held (director, secretary…)' })
  position?: string | null;
}

@ObjectType('BusinessRegistryData', { description: 'What the company registry says about the registration number' })
export class RegistryDataType {
  @Field({ description: 'The company’s registered name' })
  legalName!: string;

  @Field({ description: 'The registration number as the registry writes it' })
  registrationNumber!: string;

  @Field(() => String, { nullable: true, description: 'Date of incorporation (YYYY-MM-DD)' })
  dateIncorporated?: string | null;

  @Field(() => String, { nullable: true, description: 'The registry’s status of the company, in its words (Active, Dissolved…)' })
  status?: string | null;

  @Field(() => String, { nullable: true, description: 'The registered office address' })
  registeredAddress?: string | null;

  @Field(() => String, { nullable: true, description: 'Share capital as the registry writes it; null when it publishes none' })
  capital?: string | null;

  @Field(() => String, { nullable: true, description: 'The legal form the registry records' })
  companyType?: string | null;

  @Field(() => [RegistryOfficerType], { description: 'Current officers the registry lists (empty when it lists none)' })
  officers!: RegistryOfficerType[];
}

@ObjectType('BusinessRegistryLookup', { description: 'How the registry lookup went' })
export class RegistryLookupType {
  @Field({ description: 'The registry asked: sandbox (test keys, or no live registry configured) or opencorporates' })
  provider!: string;

  @Field(() => Int, { description: 'Lookups made so far' })
  attempts!: number;

  @Field(() => Date, { nullable: true, description: 'When the registry last answered or failed to' })
  lastAttemptAt?: Date | null;

  @Field(() => Date, {
    nullable: true,
    description: 'When the next lookup runs (the registry was unavailable); null when none is scheduled',
  })
  nextAttemptAt?: Date | null;

  @Field(() => String, { nullable: true, description: 'Why the last lookup could not answer (timeout, HTTP status…); null otherwise' })
  lastError?: string | null;
}

@ObjectType('BusinessDirector', { description: 'A director declared for a business, and their screening' })
export class BusinessDirectorType {
  @Field(() => ID, { description: 'Identifier of the declaration' })
  id!: string;

  @Field(() => String, { nullable: true, description: 'Full name; null once the user who declared the business was erased (eraseUser)' })
  fullName?: string | null;

  @Field({ description: 'Role in the business (Form B calls it position)' })
  role!: string;

  @Field(() => String, { nullable: true, description: 'Date of birth (YYYY-MM-DD)' })
  dateOfBirth?: string | null;

  @Field(() => String, { nullable: true, description: 'Nationality, ISO 3166-1 alpha-2' })
  nationality?: string | null;

  @Field(() => String, { nullable: true, description: 'Identity document number' })
  idNumber?: string | null;

  @Field(() => PersonScreeningStatusEnum, { description: 'What the AML screening found' })
  screeningStatus!: string;

  @Field(() => Int, { description: 'Potential matches the screening found' })
  matchCount!: number;

  /** Resolved into the screening (business.resolver.ts). */
  amlScreeningId?: string | null;

  @Field({ description: 'When it was declared' })
  createdAt!: Date;
}

@ObjectType('BusinessUbo', { description: 'An ultimate beneficial owner declared for a business, and their screening' })
export class BusinessUboType {
  @Field(() => ID, { description: 'Identifier of the declaration' })
  id!: string;

  @Field(() => String, { nullable: true, description: 'Full name; null once the user who declared the business was erased (eraseUser)' })
  fullName?: string | null;

  @Field(() => Float, { description: 'Share of ownership, 0 to 100 (the owners of a business add up to 100 at most)' })
  ownershipPercentage!: number;

  @Field(() => ControlTypeEnum, { nullable: true, description: 'How they control the business (Form A)' })
  controlType?: string | null;

  @Field(() => String, { nullable: true, description: 'Date of birth (YYYY-MM-DD)' })
  dateOfBirth?: string | null;

  @Field(() => String, { nullable: true, description: 'Nationality, ISO 3166-1 alpha-2' })
  nationality?: string | null;

  @Field(() => PersonScreeningStatusEnum, { description: 'What the AML screening found' })
  screeningStatus!: string;

  @Field(() => Int, { description: 'Potential matches the screening found' })
  matchCount!: number;

  /** Resolved into the screening (business.resolver.ts). */
  amlScreeningId?: string | null;

  @Field({ description: 'When it was declared' })
  createdAt!: Date;
}

@ObjectType('BusinessVerification', {
  description: 'One business verification (KYB): the declared business, its registry lookup, directors, UBOs and their screening',
})
@Directive('@key(fields: "id")')
export class BusinessVerificationType extends ReviewedFields {
  @Field(() => ID, { description: 'Identifier of the business verification' })
  id!: string;

  @Field({ description: 'Your identifier of the user who declared the business' })
  userId!: string;

  @Field(() => String, { nullable: true, description: 'The business name as declared; null once the user was erased (eraseUser)' })
  businessName?: string | null;

  @Field(() => String, { nullable: true, description: 'The registration number as declared; null once the user was erased (eraseUser)' })
  registrationNumber?: string | null;

  @Field({ description: 'The country of registration, ISO 3166-1 alpha-2' })
  country!: string;

  @Field(() => BusinessTypeEnum, { nullable: true, description: 'The declared legal form' })
  businessType?: string | null;

  @Field(() => String, { nullable: true, description: 'The declared tax identifier (Form A)' })
  taxId?: string | null;

  @Field(() => BusinessStatusEnum, { description: 'Where it stands' })
  status!: string;

  @Field(() => BusinessStepsType, { description: 'Where each step stands' })
  steps!: BusinessStepsType;

  @Field(() => RegistryDataType, { nullable: true, description: 'What the registry says; null until it found the company' })
  registryData?: RegistryDataType | null;

  /** Grouped by the resolver (registryLookup). */
  registryProvider!: string;
  registryAttempts!: number;
  registryCheckedAt?: Date | null;
  registryRetryAt?: Date | null;
  registryError?: string | null;

  @Field(() => [BusinessDirectorType], { description: 'The directors declared, in declaration order' })
  directors!: BusinessDirectorType[];

  @Field(() => [BusinessUboType], { description: 'The ultimate beneficial owners declared, in declaration order' })
  ubos!: BusinessUboType[];

  @Field(() => [String], {
    description:
      'Why it was rejected or needs a reviewer, as codes: REGISTRATION_NOT_FOUND, REGISTRY_STATUS_INACTIVE, REGISTRY_NAME_MISMATCH, REGISTRY_UNAVAILABLE, AML_POTENTIAL_MATCH, AML_LISTS_NOT_LOADED',
  })
  reasons!: string[];

  @Field(() => Date, { nullable: true, description: 'When it became VERIFIED or REJECTED' })
  completedAt?: Date | null;

  @Field({ description: 'When it was created' })
  createdAt!: Date;

  @Field({ description: 'When it last changed' })
  updatedAt!: Date;
}

export const BusinessVerificationConnection = ConnectionType('BusinessVerification', BusinessVerificationType, 'business verification');

export const BusinessVerificationEvent = EventEnvelopeType(
  'BusinessVerification',
  BusinessVerificationType,
  {
    'business.created': 'The business verification was created (PENDING)',
    'business.updated': 'Directors or UBOs were declared, or a step moved',
    'business.processing': 'Everything is declared; the registry lookup is still running',
    'business.verified': 'The checks (or a reviewer) verified the business',
    'business.rejected': 'The checks (or a reviewer) rejected the business',
    'business.manual_review': 'The checks need a reviewer',
  },
  'business verification',
);

@ObjectType('CreateBusinessVerificationPayload', { description: 'The result of createBusinessVerification' })
export class CreateBusinessVerificationPayload {
  @Field(() => BusinessVerificationType, { nullable: true, description: 'The new business verification (PENDING)' })
  businessVerification?: BusinessVerificationType | null;

  @Field(() => [UserError], { description: 'Mistakes in the input; empty on success' })
  userErrors!: UserError[];
}

@ObjectType('AddBusinessDirectorsPayload', { description: 'The result of addBusinessDirectors' })
export class AddBusinessDirectorsPayload {
  @Field(() => BusinessVerificationType, { nullable: true, description: 'The business verification with its directors and steps' })
  businessVerification?: BusinessVerificationType | null;

  @Field(() => [UserError], {
    description:
      'Mistakes in the input, or a business no longer taking declarations (REJECTED, or decided by a reviewer); empty on success',
  })
  userErrors!: UserError[];
}

@ObjectType('AddBusinessUbosPayload', { description: 'The result of addBusinessUbos' })
export class AddBusinessUbosPayload {
  @Field(() => BusinessVerificationType, { nullable: true, description: 'The business verification with its UBOs and steps' })
  businessVerification?: BusinessVerificationType | null;

  @Field(() => [UserError], {
    description:
      'Mistakes in the input (ownership above 100 % in total…), or a business no longer taking declarations (REJECTED, or decided by a reviewer); empty on success',
  })
  userErrors!: UserError[];
}

@ObjectType('ReviewBusinessVerificationPayload', { description: 'The result of reviewBusinessVerification' })
export class ReviewBusinessVerificationPayload {
  @Field(() => BusinessVerificationType, { nullable: true, description: 'The business verification with the reviewer’s decision' })
  businessVerification?: BusinessVerificationType | null;

  @Field(() => [UserError], { description: 'Mistakes in the input, or a business that is not in MANUAL_REVIEW; empty on success' })
  userErrors!: UserError[];
}
