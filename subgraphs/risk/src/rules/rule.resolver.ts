import { Arg, Args, Ctx, Directive, FieldResolver, ID, Mutation, Query, Resolver } from 'type-graphql';
import { Root } from '../../../../platform/graphql/root.js';
import { actorOf } from '../../../../platform/audit/audit.js';
import type { SubgraphContext } from '../../../../platform/graphql/subgraph.js';
import { ConnectionArgs, LIST_SIZE, type Connection } from '../../../../platform/graphql/connection.js';
import { authorize } from '../../../../platform/graphql/tenancy.js';
import type { RiskShared } from '../risk.shared.js';
import type { RuleAudit } from './rule.entity.js';
import { RulesService } from './rule.service.js';
import type { SaveResult } from './rule.store.js';
import { FUNCTIONS, RULE_FACTS } from './rule.environment.js';
import {
  CreateRiskRuleInput,
  DisableRiskRuleInput,
  EnableRiskRuleInput,
  RiskRuleAuditFilter,
  RiskRuleFilter,
  UpsertRiskRuleInput,
} from './rule.inputs.js';
import {
  CreateRiskRulePayload,
  DisableRiskRulePayload,
  EnableRiskRulePayload,
  RiskConditionCheckType,
  RiskRuleAuditEntryConnection,
  RiskRuleAuditEntryType,
  RiskRuleConnection,
  RiskRuleEnvironmentType,
  RiskRuleType,
  RiskRuleVersionConnection,
  RiskRuleVersionType,
  UpsertRiskRulePayload,
} from './rule.type.js';

type Ctx = SubgraphContext<RiskShared>;

/** The rules of the caller's organization and environment, with the given scope. */
export function rulesService(ctx: Ctx, permission: 'rules:read' | 'rules:write'): RulesService {
  const tenant = authorize(ctx, 'risk', permission);
  return new RulesService(ctx.em, ctx.deps.rules, tenant, `client:${ctx.principal!.clientId}`, actorOf(ctx.principal));
}

/** What a rule change reports, as its payload's fields. */
const changed = (r: SaveResult) => ({
  riskRule: r.rule,
  effectiveAt: r.effectiveAt,
  revision: r.revision,
  created: r.created,
  updated: r.updated,
});

/** The enum fields' values as the graph names them (REVIEW, HIGH); other values as stored. */
const ENUM_FIELDS = new Set(['action', 'severity']);
const graphValue = (field: string, value: unknown) => (ENUM_FIELDS.has(field) && typeof value === 'string' ? value.toUpperCase() : value);

const auditEntry = (e: RuleAudit): RiskRuleAuditEntryType => ({
  ...e,
  changes: Object.fromEntries(
    Object.entries(e.changes).map(([field, { from, to }]) => [field, { from: graphValue(field, from), to: graphValue(field, to) }]),
  ),
  revision: String(e.revision),
});

@Resolver(() => RiskRuleType)
export class RuleResolver {
  @Query(() => RiskRuleType, { nullable: true, description: 'One rule of the organization; null when there is none with this id' })
  riskRule(@Arg('id', () => ID, { description: 'The rule’s identifier' }) id: string, @Ctx() ctx: Ctx) {
    return rulesService(ctx, 'rules:read').find(id);
  }

  @Directive(LIST_SIZE)
  @Query(() => RiskRuleConnection, {
    description: 'The organization’s rules, newest first; the default mobile-money rule set is added the first time rules are used',
  })
  riskRules(
    @Arg('filter', () => RiskRuleFilter, { nullable: true, description: 'Which ones; all when absent' }) filter: RiskRuleFilter | null,
    @Args() page: ConnectionArgs,
    @Ctx() ctx: Ctx,
  ) {
    return rulesService(ctx, 'rules:read').list(filter ?? {}, page);
  }

  @Directive(LIST_SIZE)
  @Query(() => RiskRuleVersionConnection, { description: 'Every version of one rule, newest first; versions never change' })
  riskRuleVersions(@Arg('ruleId', () => ID, { description: 'The rule' }) ruleId: string, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    return rulesService(ctx, 'rules:read').versions(ruleId, page);
  }

  @Directive(LIST_SIZE)
  @Query(() => RiskRuleAuditEntryConnection, { description: 'Who changed which rule, when and how, newest first' })
  async riskRuleAudit(
    @Arg('filter', () => RiskRuleAuditFilter, { nullable: true, description: 'Which entries; every rule’s when absent' })
    filter: RiskRuleAuditFilter | null,
    @Args() page: ConnectionArgs,
    @Ctx() ctx: Ctx,
  ): Promise<Connection<RiskRuleAuditEntryType>> {
    const entries = await rulesService(ctx, 'rules:read').audit(filter ?? {}, page);
    return { ...entries, edges: entries.edges.map((e) => ({ ...e, node: auditEntry(e.node) })), nodes: entries.nodes.map(auditEntry) };
  }

  @Query(() => RiskRuleEnvironmentType, { description: 'The variables and functions rule conditions may use' })
  riskRuleEnvironment(@Ctx() ctx: Ctx): RiskRuleEnvironmentType {
    authorize(ctx, 'risk', 'rules:read');
    return { variables: RULE_FACTS, functions: FUNCTIONS };
  }

  @Query(() => RiskConditionCheckType, { description: 'Checks a condition as a rule would, without saving anything' })
  checkRiskRuleCondition(@Arg('condition', { description: 'The CEL expression to check' }) condition: string, @Ctx() ctx: Ctx) {
    return rulesService(ctx, 'rules:read').check(condition);
  }

  @Mutation(() => UpsertRiskRulePayload, {
    description:
      'Creates the rule, or changes the fields given: each change is a new version with an audit entry, used by the very next evaluation on every instance',
  })
  async upsertRiskRule(@Arg('input', { description: 'The rule and the fields to set' }) input: UpsertRiskRuleInput, @Ctx() ctx: Ctx) {
    const { id, ...patch } = input;
    return changed(await rulesService(ctx, 'rules:write').upsert(id, patch));
  }

  @Mutation(() => CreateRiskRulePayload, { description: 'Creates a rule; a CONFLICT user error when its id is taken' })
  async createRiskRule(@Arg('input', { description: 'The new rule' }) input: CreateRiskRuleInput, @Ctx() ctx: Ctx) {
    const { created: _created, updated: _updated, ...change } = changed(await rulesService(ctx, 'rules:write').create(input));
    return change;
  }

  @Mutation(() => EnableRiskRulePayload, { description: 'Switches a rule on: the next evaluation checks it' })
  async enableRiskRule(@Arg('input', { description: 'The rule to switch on' }) input: EnableRiskRuleInput, @Ctx() ctx: Ctx) {
    const { created: _created, ...change } = changed(await rulesService(ctx, 'rules:write').setEnabled(input.id, true));
    return change;
  }

  @Mutation(() => DisableRiskRulePayload, { description: 'Switches a rule off: the next evaluation no longer checks it' })
  async disableRiskRule(@Arg('input', { description: 'The rule to switch off' }) input: DisableRiskRuleInput, @Ctx() ctx: Ctx) {
    const { created: _created, ...change } = changed(await rulesService(ctx, 'rules:write').setEnabled(input.id, false));
    return change;
  }
}

/** The rule a version or an audit entry is of. */
@Resolver(() => RiskRuleVersionType)
export class RuleVersionResolver {
  @FieldResolver(() => RiskRuleType, { description: 'The rule, as it is now' })
  rule(@Root() version: RiskRuleVersionType, @Ctx() ctx: Ctx) {
    return rulesService(ctx, 'rules:read').get(version.ruleId);
  }
}

@Resolver(() => RiskRuleAuditEntryType)
export class RuleAuditResolver {
  @FieldResolver(() => RiskRuleType, { description: 'The rule, as it is now' })
  rule(@Root() entry: RiskRuleAuditEntryType, @Ctx() ctx: Ctx) {
    return rulesService(ctx, 'rules:read').get(entry.ruleId);
  }
}
