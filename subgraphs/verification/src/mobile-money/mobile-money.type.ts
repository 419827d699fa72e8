import { Directive, Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { ConnectionType } from '../../../../platform/graphql/connection.js';
import { EventEnvelopeType } from '../../../../platform/graphql/event-envelope.js';
import { CountryCode, PhoneNumber } from '../../../../platform/graphql/scalars.js';
import { UserError } from '../../../../platform/graphql/user-errors.js';
import { ACCOUNT_STATUSES } from './adapters/adapter.js';
import { MOBILE_MONEY_EVENTS, MOBILE_MONEY_STATUSES } from './mobile-money.lifecycle.js';
import { MOBILE_MONEY_PROVIDERS } from './mobile-money.providers.js';

const enumOf = <T extends string>(values: readonly T[]) => Object.fromEntries(values.map((v) => [v, v])) as { [K in T]: K };

export const MobileMoneyProviderEnum = enumOf(MOBILE_MONEY_PROVIDERS);
export const MobileMoneyStatusEnum = enumOf(MOBILE_MONEY_STATUSES);
export const MobileMoneyAccountStatusEnum = enumOf(ACCOUNT_STATUSES);
export const MobileMoneyNamePartMatchEnum = enumOf(['EXACT', 'EQUIVALENT', 'PHONETIC', 'FUZZY', 'INITIAL', 'MISSING'] as const);

registerEnumType(MobileMoneyProviderEnum, {
  name: 'MobileMoneyProvider',
  description: 'A mobile money operator',
  valuesConfig: {
    MTN_MOMO: { description: 'MTN Mobile Money (MoMo)' },
    ORANGE_MONEY: { description: 'Orange Money' },
    AIRTEL_MONEY: { description: 'Airtel Money' },
    MPESA: { description: 'M-Pesa (Safaricom, Vodacom)' },
    WAVE: { description: 'Wave' },
    FREE_MONEY: { description: 'Free Money (Senegal)' },
    MOOV_MONEY: { description: 'Moov Money (Moov Africa)' },
  },
});
registerEnumType(MobileMoneyStatusEnum, {
  name: 'MobileMoneyVerificationStatus',
  description: 'Where a mobile money account verification stands',
  valuesConfig: {
    PENDING: { description: 'The operator is being asked' },
    VERIFIED: {
      description: 'An active account exists on the number and its holder’s name matches the expected name (when one was given)',
    },
    NAME_MISMATCH: { description: 'An active account exists, held by someone whose name does not match the expected name' },
    NOT_FOUND: { description: 'No account on the number, or one that is not active' },
    PROVIDER_ERROR: { description: 'The operator could not answer (unavailable, too slow, an unreadable answer): retry later' },
  },
});
registerEnumType(MobileMoneyAccountStatusEnum, {
  name: 'MobileMoneyAccountStatus',
  description: 'What the operator says of the account',
  valuesConfig: {
    ACTIVE: { description: 'The account exists and can transact' },
    INACTIVE: { description: 'The operator knows the number but the account is not active' },
  },
});
registerEnumType(MobileMoneyNamePartMatchEnum, {
  name: 'MobileMoneyNamePartMatch',
  description: 'How one part of the expected name matched a part of the account holder’s name',
  valuesConfig: {
    EXACT: { description: 'The same name part' },
    EQUIVALENT: { description: 'A known equivalent or transliteration (Mohammed and Muhammad)' },
    PHONETIC: { description: 'A part that sounds the same' },
    FUZZY: { description: 'A part spelt a little differently' },
    INITIAL: { description: 'An initial standing for the part' },
    MISSING: { description: 'No counterpart in the account holder’s name' },
  },
});

@ObjectType('MobileMoneyNamePart', { description: 'How one part of the expected name compared with the account holder’s name' })
export class MobileMoneyNamePartType {
  @Field({ description: 'The part of the expected name (lower case, without accents)' })
  expected!: string;

  @Field(() => String, { nullable: true, description: 'The part of the holder’s name it matched; null when none did' })
  holder?: string | null;

  @Field(() => MobileMoneyNamePartMatchEnum, { description: 'How it matched' })
  how!: string;

  @Field(() => Float, { description: 'How close the two parts are, 0 to 1' })
  score!: number;
}

@ObjectType('MobileMoneyNameMatchExplanation', {
  description: 'Why the names matched or not: the screening engine’s comparison, part by part',
})
export class MobileMoneyNameMatchExplanationType {
  @Field({ description: 'The comparison in one sentence, with the score and the threshold' })
  summary!: string;

  @Field(() => Float, { description: 'The score from which the names match (0.85)' })
  threshold!: number;

  @Field(() => [MobileMoneyNamePartType], { description: 'Each part of the expected name and what it matched' })
  parts!: MobileMoneyNamePartType[];
}

@ObjectType('MobileMoneyVerification', {
  description: 'One mobile money account verification: does an active account exist on the number, and is it held by the expected person',
})
@Directive('@key(fields: "id")')
export class MobileMoneyVerificationType {
  @Field(() => ID, { description: 'Identifier of the verification' })
  id!: string;

  @Field({ description: 'Your identifier of the user' })
  userId!: string;

  @Field(() => PhoneNumber, { nullable: true, description: 'The account’s number, E.164; null once the user was erased (eraseUser)' })
  phoneNumber?: string | null;

  @Field(() => MobileMoneyProviderEnum, { description: 'The operator asked' })
  provider!: string;

  @Field(() => CountryCode, { description: 'The country of the account (ISO 3166-1 alpha-2)' })
  country!: string;

  @Field(() => MobileMoneyStatusEnum, { description: 'The outcome' })
  status!: string;

  @Field(() => String, {
    nullable: true,
    description: 'The account holder’s name in capitals, as the operator gives it; null when it gave none',
  })
  accountHolder?: string | null;

  @Field(() => Boolean, {
    nullable: true,
    description: 'The holder’s name matches expectedName; null when no name was expected or compared',
  })
  nameMatch?: boolean | null;

  @Field(() => Float, {
    nullable: true,
    description: 'How alike the two names are, 0 to 1 (0.85 or more: a match); null when not compared',
  })
  nameMatchScore?: number | null;

  /** Stored as the engine explains it; the resolver gives the graph's enum values. */
  nameMatchExplanation?: unknown;

  @Field(() => MobileMoneyAccountStatusEnum, {
    nullable: true,
    description: 'What the operator says of the account; null when it has none on the number or could not answer',
  })
  accountStatus?: string | null;

  @Field(() => String, { nullable: true, description: 'The name the account was expected to be held by' })
  expectedName?: string | null;

  @Field(() => String, { nullable: true, description: 'Why it is not VERIFIED, in words; null when it is' })
  failureReason?: string | null;

  @Field({
    description:
      'Which implementation answered: sandbox (test keys), mtn_momo (MTN’s Collection API), or sandbox (no live … adapter configured) for a live key without one',
  })
  adapter!: string;

  @Field(() => Int, { description: 'Lookups made: 1, more after retries of a PROVIDER_ERROR' })
  attempts!: number;

  @Field(() => Date, { nullable: true, description: 'When the operator last answered, or failed to' })
  checkedAt?: Date | null;

  @Field(() => Date, { nullable: true, description: 'When it was verified; null unless VERIFIED' })
  verifiedAt?: Date | null;

  @Field({ description: 'When it was submitted' })
  createdAt!: Date;

  @Field({ description: 'When it last changed' })
  updatedAt!: Date;
}

export const MobileMoneyVerificationConnection = ConnectionType(
  'MobileMoneyVerification',
  MobileMoneyVerificationType,
  'mobile money verification',
);

export const MobileMoneyVerificationEvent = EventEnvelopeType(
  'MobileMoneyVerification',
  MobileMoneyVerificationType,
  {
    [MOBILE_MONEY_EVENTS.pending]: 'The operator is being asked (a new verification, or a retry)',
    [MOBILE_MONEY_EVENTS.verified]: 'The account was verified',
    [MOBILE_MONEY_EVENTS.failed]: 'The account could not be verified: no such account, or a name mismatch',
    [MOBILE_MONEY_EVENTS.providerError]: 'The operator could not answer: retry later',
  },
  'mobile money verification',
);

@ObjectType('CreateMobileMoneyVerificationPayload', { description: 'The result of createMobileMoneyVerification' })
export class CreateMobileMoneyVerificationPayload {
  @Field(() => MobileMoneyVerificationType, { nullable: true, description: 'The verification with its outcome' })
  mobileMoneyVerification?: MobileMoneyVerificationType | null;

  @Field(() => [UserError], {
    description:
      'Mistakes in the input (a number that is not E.164, of another country, a provider absent from the country…); empty on success',
  })
  userErrors!: UserError[];
}

@ObjectType('RetryMobileMoneyVerificationPayload', { description: 'The result of retryMobileMoneyVerification' })
export class RetryMobileMoneyVerificationPayload {
  @Field(() => MobileMoneyVerificationType, { nullable: true, description: 'The verification with its new outcome' })
  mobileMoneyVerification?: MobileMoneyVerificationType | null;

  @Field(() => [UserError], { description: 'An unknown verification, or one that is not PROVIDER_ERROR; empty on success' })
  userErrors!: UserError[];
}
