import { Ctx, Field, ObjectType, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../../platform/graphql/subgraph.js';
import { authorize } from '../../../../platform/graphql/tenancy.js';
import type { RiskShared } from '../risk.shared.js';

type Ctx = SubgraphContext<RiskShared>;

@ObjectType('RiskSanctionsStatus', { description: 'Whether evaluations can screen names, and against which lists' })
export class RiskSanctionsStatusType {
  @Field({ description: 'Screening lists are loaded: the sanctions layer screens the parties’ names' })
  available!: boolean;

  @Field(() => [String], { description: 'The lists loaded, as `source@version` (OFAC_SDN@2026-11-20…)' })
  lists!: string[];
}

@Resolver()
export class SanctionsResolver {
  @Query(() => RiskSanctionsStatusType, { description: 'Whether evaluations can screen names, and against which lists' })
  riskSanctionsStatus(@Ctx() ctx: Ctx): RiskSanctionsStatusType {
    authorize(ctx, 'risk', 'evaluations:read');
    return { available: ctx.deps.sanctions.available, lists: ctx.deps.sanctions.lists() };
  }
}
