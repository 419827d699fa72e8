import { Field, Float, InputType } from 'type-graphql';
import { RiskJsonScalar } from '../json.scalar.js';
import { RiskActionEnum } from './evaluation.type.js';

/**
 * The transaction to evaluate. Validated by the engine (evaluation.validation.ts), so that every
 * invalid body is one 400 listing every problem, as Part A's error table says.
 */
@InputType()
export class EvaluateTransactionInput {
  @Field({ description: 'Unique per organization (409 when reused)' })
  transactionId!: string;

  @Field(() => Float, { description: '> 0, in the currency unit' })
  amount!: number;

  @Field({ description: 'ISO 4217, upper case' })
  currency!: string;

  @Field()
  sender!: string;

  @Field()
  receiver!: string;

  @Field(() => String, { nullable: true, description: 'e.g. mobile_money, ussd, app, agent, card' })
  channel?: string | null;

  @Field(() => RiskJsonScalar, {
    nullable: true,
    description:
      'Free-form; known keys: device_id, ip, location {lat, lng}, sender_name, receiver_name (screened), mock_score (sandbox only)',
  })
  metadata?: unknown;
}

@InputType()
export class RiskEvaluationFilter {
  @Field(() => RiskActionEnum, { nullable: true }) action?: string | null;
  @Field(() => String, { nullable: true }) transactionId?: string | null;
  @Field(() => String, { nullable: true }) sender?: string | null;
  @Field(() => String, { nullable: true }) receiver?: string | null;
  @Field(() => Float, { nullable: true }) minScore?: number | null;
  @Field(() => Float, { nullable: true }) maxScore?: number | null;
  @Field(() => Date, { nullable: true, description: 'created at or after' }) from?: Date | null;
  @Field(() => Date, { nullable: true, description: 'created before' }) to?: Date | null;
  @Field(() => Boolean, { nullable: true }) mock?: boolean | null;
}
