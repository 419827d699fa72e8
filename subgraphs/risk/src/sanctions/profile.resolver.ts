import { Arg, Ctx, Field, InputType, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../../platform/graphql/subgraph.js';
import { authorize } from '../../../../platform/graphql/tenancy.js';
import type { RiskDeps } from '../deps.js';

type Ctx = SubgraphContext<RiskDeps>;

@ObjectType('RiskAccountProfile')
export class RiskAccountProfileType {
  @Field() accountId!: string;
  @Field() fullName!: string;
  @Field(() => String, { nullable: true }) dateOfBirth?: string | null;
  @Field(() => String, { nullable: true }) nationality?: string | null;
  @Field() updatedAt!: Date;
}

@InputType()
export class RiskAccountProfileInput {
  @Field() fullName!: string;
  @Field(() => String, { nullable: true, description: 'YYYY, YYYY-MM or YYYY-MM-DD' }) dateOfBirth?: string | null;
  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-2' }) nationality?: string | null;
}

@ObjectType('RiskSanctionsStatus')
export class RiskSanctionsStatusType {
  @Field({ description: 'A screening engine is loaded in this instance' }) available!: boolean;
  @Field(() => [String], { description: 'Lists loaded, as source@version' }) lists!: string[];
}

@Resolver()
export class ProfileResolver {
  @Mutation(() => RiskAccountProfileType, {
    description: 'Sets the name screened for an account when a transaction carries no metadata.sender_name/receiver_name (scope evaluate)',
  })
  setRiskAccountProfile(@Arg('accountId') accountId: string, @Arg('input') input: RiskAccountProfileInput, @Ctx() ctx: Ctx) {
    return ctx.deps.profiles.set(authorize(ctx, 'risk', 'evaluate'), accountId, input);
  }

  @Query(() => RiskAccountProfileType)
  riskAccountProfile(@Arg('accountId') accountId: string, @Ctx() ctx: Ctx) {
    return ctx.deps.profiles.get(authorize(ctx, 'risk', 'evaluations:read'), accountId);
  }

  @Query(() => RiskSanctionsStatusType, { description: 'Whether the sanctions layer can screen, and against which lists' })
  riskSanctionsStatus(@Ctx() ctx: Ctx): RiskSanctionsStatusType {
    authorize(ctx, 'risk', 'evaluations:read');
    return { available: ctx.deps.sanctions.available, lists: ctx.deps.sanctions.lists() };
  }
}
