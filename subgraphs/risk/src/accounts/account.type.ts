import { Directive, Field, ID, ObjectType } from 'type-graphql';
import { CountryCode } from '../../../../platform/graphql/scalars.js';
import { ConnectionType } from '../../../../platform/graphql/connection.js';
import { UserError } from '../../../../platform/graphql/user-errors.js';
import type { AccountProfile } from './account.store.js';

@ObjectType('RiskAccountProfile', { description: 'What the organization told us about the person or business holding an account' })
export class RiskAccountProfileType {
  @Field({ description: 'Their full name: screened when a transaction carries no sender_name / receiver_name' })
  fullName!: string;

  @Field(() => String, { nullable: true, description: 'Their date of birth as precise as known: YYYY, YYYY-MM or YYYY-MM-DD' })
  dateOfBirth?: string | null;

  @Field(() => CountryCode, { nullable: true, description: 'Their nationality (ISO 3166-1 alpha-2)' })
  nationality?: string | null;

  @Field({ description: 'When the profile was last set' })
  updatedAt!: Date;
}

@ObjectType('RiskAccount', {
  description: 'An account of the organization’s customers, as transactions name it (sender or receiver), with its profile and evaluations',
})
@Directive('@key(fields: "id")')
export class RiskAccountType {
  @Field(() => ID, { description: 'The account’s identifier, as your transactions send it (e.g. a phone number or wallet id)' })
  id!: string;

  /** The profile when the account was read with it; `profile` and `userId` load it otherwise (account.resolver.ts). */
  loaded?: { profile: AccountProfile | null };
}

export const RiskAccountConnection = ConnectionType('RiskAccount', RiskAccountType, 'risk account', undefined, 'by account id');

@ObjectType('SetRiskAccountProfilePayload', { description: 'The result of setRiskAccountProfile' })
export class SetRiskAccountProfilePayload {
  @Field(() => RiskAccountType, { nullable: true, description: 'The account with its new profile' })
  riskAccount?: RiskAccountType | null;

  @Field(() => [UserError], { description: 'Mistakes in the input; empty on success' })
  userErrors!: UserError[];
}
