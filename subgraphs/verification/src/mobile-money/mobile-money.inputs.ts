import { Field, ID, InputType } from 'type-graphql';
import type { MobileMoneyStatus } from './mobile-money.lifecycle.js';
import type { MobileMoneyProvider } from './mobile-money.providers.js';
import { MobileMoneyProviderEnum, MobileMoneyStatusEnum } from './mobile-money.type.js';

@InputType({ description: 'A mobile money account to verify, and the name it should be held by' })
export class CreateMobileMoneyVerificationInput {
  @Field({ description: 'Your identifier of the user (any text up to 255 characters)' })
  userId!: string;

  @Field({ description: 'The account’s number, E.164 (e.g. +233241234567): a mobile number of `country`' })
  phoneNumber!: string;

  @Field(() => MobileMoneyProviderEnum, { description: 'The operator holding the account (it must run mobile money in `country`)' })
  provider!: MobileMoneyProvider;

  @Field({ description: 'The country of the account, uppercase ISO 3166-1 alpha-2' })
  country!: string;

  @Field(() => String, {
    nullable: true,
    description: 'The name the account should be held by, compared with the holder’s by the screening engine; absent: not compared',
  })
  expectedName?: string | null;
}

@InputType({ description: 'A verification whose operator could not answer, to ask again' })
export class RetryMobileMoneyVerificationInput {
  @Field(() => ID, { description: 'The verification (in PROVIDER_ERROR)' })
  id!: string;
}

@InputType({ description: 'Which mobile money verifications to list (all of the organization when empty)' })
export class MobileMoneyVerificationFilter {
  @Field(() => String, { nullable: true, description: 'Only this user’s' })
  userId?: string | null;

  @Field(() => MobileMoneyStatusEnum, { nullable: true, description: 'Only with this outcome (PROVIDER_ERROR: the ones to retry)' })
  status?: MobileMoneyStatus | null;

  @Field(() => MobileMoneyProviderEnum, { nullable: true, description: 'Only of this operator' })
  provider?: MobileMoneyProvider | null;
}
