import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../../platform/graphql/subgraph.js';
import { authorize } from '../../../../platform/graphql/tenancy.js';
import type { RiskDeps } from '../deps.js';
import { RulesService } from './rule.service.js';
import type { SaveResult } from './rule.store.js';
import { FUNCTIONS, RULE_FACTS } from './rule.environment.js';
import { CreateRiskRuleInput, RiskRuleInput } from './rule.inputs.js';
import {
  RiskConditionCheckType,
  RiskRuleAuditEntryType,
  RiskRuleChangeType,
  RiskRuleEnvironmentType,
  RiskRuleType,
  RiskRuleVersionType,
} from './rule.type.js';

type Ctx = SubgraphContext<RiskDeps>;

function service(ctx: Ctx, permission: 'rules:read' | 'rules:write'): RulesService {
  const tenant = authorize(ctx, 'risk', permission);
  return new RulesService(ctx.em, ctx.deps.rules, tenant, `client:${ctx.principal!.clientId}`);
}

const change = (r: SaveResult): RiskRuleChangeType => ({
  id: r.rule.id,
  updated: r.updated,
  created: r.created,
  effectiveAt: r.effectiveAt,
  version: r.rule.version,
  revision: r.revision,
  rule: r.rule,
});

@Resolver()
export class RuleResolver {
  @Query(() => [RiskRuleType], { description: 'GET /v1/rules (scope rules:read); the default set is seeded on first use' })
  riskRules(@Arg('includeDisabled', () => Boolean, { nullable: true, defaultValue: true }) includeDisabled: boolean, @Ctx() ctx: Ctx) {
    return service(ctx, 'rules:read').list(includeDisabled);
  }

  @Query(() => RiskRuleType)
  riskRule(@Arg('id') id: string, @Ctx() ctx: Ctx) {
    return service(ctx, 'rules:read').get(id);
  }

  @Query(() => [RiskRuleVersionType], { description: 'Every version of a rule, newest first (immutable)' })
  riskRuleVersions(@Arg('id') id: string, @Ctx() ctx: Ctx) {
    return service(ctx, 'rules:read').versions(id);
  }

  @Query(() => [RiskRuleAuditEntryType], { description: 'Audit trail of one rule, or of all rules, newest first' })
  async riskRuleAudit(
    @Arg('id', () => String, { nullable: true }) id: string | null,
    @Arg('limit', () => Int, { nullable: true, defaultValue: 100 }) limit: number,
    @Ctx() ctx: Ctx,
  ) {
    const entries = await service(ctx, 'rules:read').audit(id, limit);
    return entries.map((e) => ({ ...e, revision: String(e.revision) }));
  }

  @Query(() => RiskRuleEnvironmentType, { description: 'The CEL variables and functions conditions may use' })
  riskRuleEnvironment(@Ctx() ctx: Ctx): RiskRuleEnvironmentType {
    authorize(ctx, 'risk', 'rules:read');
    return { variables: RULE_FACTS, functions: FUNCTIONS };
  }

  @Query(() => RiskConditionCheckType, { description: 'Type-checks a condition without saving it' })
  checkRiskRuleCondition(@Arg('condition') condition: string, @Ctx() ctx: Ctx) {
    return service(ctx, 'rules:read').check(condition);
  }

  @Mutation(() => RiskRuleChangeType, {
    description: 'PUT /v1/rules/{id} (scope rules:write): creates or updates; a new immutable version and an audit entry per change',
  })
  async putRiskRule(@Arg('id') id: string, @Arg('input') input: RiskRuleInput, @Ctx() ctx: Ctx) {
    return change(await service(ctx, 'rules:write').put(id, input));
  }

  @Mutation(() => RiskRuleChangeType, { description: 'Creates a rule (409 when the id exists)' })
  async createRiskRule(@Arg('input') input: CreateRiskRuleInput, @Ctx() ctx: Ctx) {
    return change(await service(ctx, 'rules:write').create(input));
  }

  @Mutation(() => RiskRuleChangeType)
  async enableRiskRule(@Arg('id') id: string, @Ctx() ctx: Ctx) {
    return change(await service(ctx, 'rules:write').setEnabled(id, true));
  }

  @Mutation(() => RiskRuleChangeType)
  async disableRiskRule(@Arg('id') id: string, @Ctx() ctx: Ctx) {
    return change(await service(ctx, 'rules:write').setEnabled(id, false));
  }
}
