import { Field, Float, ID, InputType } from 'type-graphql';
import { JSON as JSONScalar } from '../../../../platform/graphql/scalars.js';
import type { Action } from './evaluation.scoring.js';
import { RiskActionEnum, RiskPartyEnum } from './evaluation.type.js';

/**
 * The transaction to evaluate. Validated by the engine (evaluation.validation.ts), so that every
 * invalid transaction is one answer listing every problem, as the REST spec's 400 does.
 */
@InputType({ description: 'A transaction to evaluate' })
export class EvaluateTransactionInput {
  @Field({ description: 'Your identifier of the transaction: unique in the organization (a CONFLICT user error when reused)' })
  transactionId!: string;

  @Field(() => Float, { description: 'Amount in the currency’s unit, greater than 0' })
  amount!: number;

  @Field({ description: 'ISO 4217 currency in upper case (e.g. KES)' })
  currency!: string;

  @Field({ description: 'The account the money leaves (1–128 printable characters)' })
  sender!: string;

  @Field({ description: 'The account the money goes to; not the sender' })
  receiver!: string;

  @Field(() => String, { nullable: true, description: 'How it is made: mobile_money, ussd, app, agent, card…' })
  channel?: string | null;

  @Field(() => JSONScalar, {
    nullable: true,
    description:
      'An object of free-form details; known keys: device_id, ip, location {lat, lng}, sender_name and receiver_name (screened), mock_score (sandbox only)',
  })
  metadata?: unknown;
}

@InputType({ description: 'Which evaluations to list (all of the organization when empty)' })
export class RiskEvaluationFilter {
  @Field(() => RiskActionEnum, { nullable: true, description: 'Only with this action (REVIEW or BLOCK: the review queue)' })
  action?: Action | null;

  @Field(() => String, { nullable: true, description: 'Only of this transaction' })
  transactionId?: string | null;

  @Field(() => ID, { nullable: true, description: 'Only sent by this account' })
  sender?: string | null;

  @Field(() => ID, { nullable: true, description: 'Only received by this account' })
  receiver?: string | null;

  @Field(() => Float, { nullable: true, description: 'Only scoring at least this (0–100)' })
  minScore?: number | null;

  @Field(() => Float, { nullable: true, description: 'Only scoring at most this (0–100)' })
  maxScore?: number | null;

  @Field(() => Date, { nullable: true, description: 'Only evaluated at or after this instant' })
  from?: Date | null;

  @Field(() => Date, { nullable: true, description: 'Only evaluated before this instant' })
  to?: Date | null;

  @Field(() => Boolean, { nullable: true, description: 'Only sandbox evaluations (true) or only live ones (false)' })
  mock?: boolean | null;
}

@InputType({ description: 'Which evaluations of an account to list (all when empty)' })
export class RiskAccountEvaluationFilter {
  @Field(() => RiskPartyEnum, { nullable: true, description: 'Only those where the account is this side' })
  party?: 'sender' | 'receiver' | null;

  @Field(() => RiskActionEnum, { nullable: true, description: 'Only with this action' })
  action?: Action | null;

  @Field(() => Date, { nullable: true, description: 'Only evaluated at or after this instant' })
  from?: Date | null;

  @Field(() => Date, { nullable: true, description: 'Only evaluated before this instant' })
  to?: Date | null;
}

@InputType({ description: 'Which new evaluations to receive (all when empty)' })
export class RiskEvaluationCreatedFilter {
  @Field(() => RiskActionEnum, { nullable: true, description: 'Only with this action (REVIEW or BLOCK: what needs a person)' })
  action?: Action | null;
}
