import { Arg, Ctx, Field, InputType, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../../platform/graphql/subgraph.js';
import { requirePermission } from '../../../../platform/auth/permissions.js';
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

const tenant = (ctx: Ctx) => ({ organizationId: ctx.principal!.organizationId!, environment: ctx.principal!.environment });

@Resolver()
export class ProfileResolver {
  @Mutation(() => RiskAccountProfileType, {
    description: 'Sets the name screened for an account when a transaction carries no metadata.sender_name/receiver_name (scope evaluate)',
  })
  setRiskAccountProfile(@Arg('accountId') accountId: string, @Arg('input') input: RiskAccountProfileInput, @Ctx() ctx: Ctx) {
    requirePermission(ctx.principal, 'risk', 'evaluate');
    return ctx.deps.profiles.set(tenant(ctx), accountId, input);
  }

  @Query(() => RiskAccountProfileType)
  riskAccountProfile(@Arg('accountId') accountId: string, @Ctx() ctx: Ctx) {
    requirePermission(ctx.principal, 'risk', 'evaluations:read');
    return ctx.deps.profiles.get(tenant(ctx), accountId);
  }

  @Query(() => RiskSanctionsStatusType, { description: 'Whether the sanctions layer can screen, and against which lists' })
  riskSanctionsStatus(@Ctx() ctx: Ctx): RiskSanctionsStatusType {
    requirePermission(ctx.principal, 'risk', 'evaluations:read');
    return { available: ctx.deps.sanctions.available, lists: ctx.deps.sanctions.lists() };
  }
}
