import { Field, ID, Int, ObjectType } from 'type-graphql';
import { ConnectionType } from '../../../../platform/graphql/connection.js';
import { JSON as JSONScalar } from '../../../../platform/graphql/scalars.js';
import { UserError } from '../../../../platform/graphql/user-errors.js';
import { storedEnum } from '../enums.js';
import { RULE_ACTIONS, RULE_CHANGES, RULE_SEVERITIES, type RuleAction, type RuleChange, type RuleSeverity } from './rule.entity.js';

export const RiskRuleActionEnum = storedEnum('RiskRuleAction', RULE_ACTIONS, 'What a transaction gets when a rule fires', {
  review: 'Hold the transaction for a person to review',
  block: 'Stop the transaction',
});

export const RiskRuleSeverityEnum = storedEnum(
  'RiskRuleSeverity',
  RULE_SEVERITIES,
  'How much a rule that fires adds to the rules layer score (weights 10, 30, 55 and 80 out of 100)',
  {
    low: 'A weak signal on its own (weight 10)',
    medium: 'A signal worth attention (weight 30)',
    high: 'A strong signal (weight 55)',
    critical: 'A signal that is almost decisive on its own (weight 80)',
  },
);

export const RiskRuleAuditChangeEnum = storedEnum('RiskRuleAuditChange', RULE_CHANGES, 'What a change did to a rule', {
  seeded: 'The rule came with the default rule set',
  created: 'The rule was created',
  updated: 'The rule’s condition, action, severity, name or description changed',
  enabled: 'The rule was switched on',
  disabled: 'The rule was switched off',
});

@ObjectType('RiskRule', {
  description: 'A condition checked on every transaction of the organization: when it holds, the rule fires and asks for its action',
})
export class RiskRuleType {
  @Field(() => ID, { description: 'Identifier of the rule in the organization (e.g. velocity_burst)' })
  id!: string;

  @Field({ description: 'Short name for people' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'What the rule looks for; shown in the reasons of the evaluations it fires in' })
  description?: string | null;

  @Field({ description: 'CEL expression over the documented environment (riskRuleEnvironment); the rule fires when it yields true' })
  condition!: string;

  @Field(() => RiskRuleActionEnum, { description: 'What a transaction gets when the rule fires' })
  action!: RuleAction;

  @Field(() => RiskRuleSeverityEnum, { description: 'How much a firing adds to the rules layer score' })
  severity!: RuleSeverity;

  @Field({ description: 'Whether evaluations check the rule' })
  enabled!: boolean;

  @Field(() => Int, { description: 'Version number: 1 when created, one more with every change' })
  version!: number;

  @Field({ description: 'The rule came with the default mobile-money rule set' })
  isDefault!: boolean;

  @Field({ description: 'When the rule was created' })
  createdAt!: Date;

  @Field({ description: 'When its current version was made' })
  updatedAt!: Date;
}

@ObjectType('RiskRuleVersion', { description: 'One version of a rule as it was saved; versions never change' })
export class RiskRuleVersionType {
  /** The rule's id: `rule` is resolved from it (rule.resolver.ts). */
  ruleId!: string;

  @Field(() => Int, { description: 'Version number' })
  version!: number;

  @Field({ description: 'The rule’s name in this version' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'The rule’s description in this version' })
  description?: string | null;

  @Field({ description: 'The condition in this version' })
  condition!: string;

  @Field(() => RiskRuleActionEnum, { description: 'The action in this version' })
  action!: RuleAction;

  @Field(() => RiskRuleSeverityEnum, { description: 'The severity in this version' })
  severity!: RuleSeverity;

  @Field({ description: 'Whether the rule was enabled in this version' })
  enabled!: boolean;

  @Field({ description: 'Who saved it: `client:<API client id>`, or `system` for the default rule set' })
  createdBy!: string;

  @Field({ description: 'When this version took effect' })
  createdAt!: Date;
}

@ObjectType('RiskRuleAuditEntry', { description: 'One change of a rule: who made it, when, and what it changed' })
export class RiskRuleAuditEntryType {
  /** The rule's id: `rule` is resolved from it (rule.resolver.ts). */
  ruleId!: string;

  @Field(() => Int, { description: 'The rule’s version after the change' })
  version!: number;

  @Field(() => RiskRuleAuditChangeEnum, { description: 'What the change did' })
  change!: RuleChange;

  @Field({ description: 'Who made it: `client:<API client id>`, or `system` for the default rule set' })
  actor!: string;

  @Field(() => JSONScalar, {
    description: 'Each field that changed, with its value before and after: `{ "action": { "from": "REVIEW", "to": "BLOCK" } }`',
  })
  changes!: Record<string, unknown>;

  @Field({ description: 'Revision of the organization’s rule set the change produced' })
  revision!: string;

  @Field({ description: 'When the change was made' })
  createdAt!: Date;
}

export const RiskRuleConnection = ConnectionType('RiskRule', RiskRuleType, 'risk rule');
export const RiskRuleVersionConnection = ConnectionType('RiskRuleVersion', RiskRuleVersionType, 'rule version');
export const RiskRuleAuditEntryConnection = ConnectionType(
  'RiskRuleAuditEntry',
  RiskRuleAuditEntryType,
  'rule audit entry',
  'rule audit entries',
);

/** What every rule change reports beside the rule. */
@ObjectType()
abstract class RiskRuleChangePayload {
  @Field(() => RiskRuleType, { nullable: true, description: 'The rule as it is after the change' })
  riskRule?: RiskRuleType | null;

  @Field(() => Date, {
    nullable: true,
    description: 'When the rule’s current version took effect: every evaluation after it, on every instance, uses it',
  })
  effectiveAt?: Date | null;

  @Field(() => String, { nullable: true, description: 'Revision of the organization’s rule set after the change' })
  revision?: string | null;

  @Field(() => [UserError], { description: 'Mistakes in the input, or a rule that cannot be changed so; empty on success' })
  userErrors!: UserError[];
}

@ObjectType('UpsertRiskRulePayload', { description: 'The result of upsertRiskRule' })
export class UpsertRiskRulePayload extends RiskRuleChangePayload {
  @Field(() => Boolean, { nullable: true, description: 'The rule did not exist and was created' })
  created?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: 'A new version was made; false when the input changed nothing' })
  updated?: boolean | null;
}

@ObjectType('CreateRiskRulePayload', { description: 'The result of createRiskRule' })
export class CreateRiskRulePayload extends RiskRuleChangePayload {}

@ObjectType('EnableRiskRulePayload', { description: 'The result of enableRiskRule' })
export class EnableRiskRulePayload extends RiskRuleChangePayload {
  @Field(() => Boolean, { nullable: true, description: 'A new version was made; false when the rule was enabled already' })
  updated?: boolean | null;
}

@ObjectType('DisableRiskRulePayload', { description: 'The result of disableRiskRule' })
export class DisableRiskRulePayload extends RiskRuleChangePayload {
  @Field(() => Boolean, { nullable: true, description: 'A new version was made; false when the rule was disabled already' })
  updated?: boolean | null;
}

@ObjectType('RiskRuleFact', { description: 'A variable or function rule conditions may use' })
export class RiskRuleFactType {
  @Field({ description: 'Its name in a condition (`sender.count_1h`, `reporting_threshold`)' })
  name!: string;

  @Field({ description: 'Its CEL type (`int`, `double`, `bool`, `string`, a map or list, or a function’s signature)' })
  type!: string;

  @Field({ description: 'What it holds or computes' })
  description!: string;
}

@ObjectType('RiskRuleEnvironment', { description: 'What rule conditions may use' })
export class RiskRuleEnvironmentType {
  @Field(() => [RiskRuleFactType], { description: 'Variables about the transaction, its parties, device, IP and graph' })
  variables!: RiskRuleFactType[];

  @Field(() => [RiskRuleFactType], { description: 'Functions beyond CEL’s standard ones' })
  functions!: RiskRuleFactType[];
}

@ObjectType('RiskConditionPosition', { description: 'Where in a condition the parser or type checker stopped' })
export class RiskConditionPositionType {
  @Field(() => Int, { description: 'Index of the first character at fault, from 0 (as JavaScript counts characters)' })
  offset!: number;

  @Field(() => Int, { description: 'How many characters are at fault (0: the error is between two characters)' })
  length!: number;

  @Field(() => Int, { description: 'Line of the first character at fault, from 1' })
  line!: number;

  @Field(() => Int, { description: 'Column of the first character at fault on its line, from 1' })
  column!: number;
}

@ObjectType('RiskConditionCheck', { description: 'Whether a condition would be accepted by a rule' })
export class RiskConditionCheckType {
  @Field({ description: 'It parses, type-checks and yields a bool' })
  valid!: boolean;

  @Field(() => String, { nullable: true, description: 'Why not: the parser’s or type checker’s message; null when valid' })
  message?: string | null;

  @Field(() => RiskConditionPositionType, {
    nullable: true,
    description:
      'Where the error is in the condition; null when valid, or when the error is about the whole condition (its type, a macro nesting)',
  })
  position?: RiskConditionPositionType | null;
}
