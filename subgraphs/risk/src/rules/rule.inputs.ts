import { Field, InputType } from 'type-graphql';

/**
 * PUT /v1/rules/{id}: absent fields keep their value (a new rule needs condition and action).
 * Strings, validated by the rules store so that every problem is a 400 (Part A's table).
 */
@InputType()
export class RiskRuleInput {
  @Field(() => String, { nullable: true, description: 'CEL; type-checked (400 with the parser’s message)' }) condition?: string | null;
  @Field(() => String, { nullable: true, description: 'review or block' }) action?: string | null;
  @Field(() => String, { nullable: true, description: 'low, medium (default), high, critical' }) severity?: string | null;
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true, description: 'null clears it' }) description?: string | null;
  @Field(() => Boolean, { nullable: true }) enabled?: boolean | null;
}

@InputType()
export class CreateRiskRuleInput {
  @Field(() => String, { nullable: true, description: 'Default: derived from the name' }) id?: string | null;
  @Field() name!: string;
  @Field() condition!: string;
  @Field() action!: string;
  @Field(() => String, { nullable: true }) severity?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => Boolean, { nullable: true }) enabled?: boolean | null;
}
