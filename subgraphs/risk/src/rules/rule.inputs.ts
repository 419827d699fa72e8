import { Field, ID, InputType } from 'type-graphql';
import type { RuleAction, RuleChange, RuleSeverity } from './rule.entity.js';
import { RiskRuleActionEnum, RiskRuleAuditChangeEnum, RiskRuleSeverityEnum } from './rule.type.js';

/**
 * Rule changes. Text fields are validated by the rules store (rule.store.ts), so that every
 * problem of one change is reported at once, as the REST spec's 400 lists them.
 */
@InputType({ description: 'Create a rule, or change the given fields of an existing one (absent fields keep their value)' })
export class UpsertRiskRuleInput {
  @Field(() => ID, { description: 'The rule: 1–64 letters, digits, "_", "-" or ".", starting with a letter or digit' })
  id!: string;

  @Field(() => String, {
    nullable: true,
    description: 'CEL expression over the documented environment, yielding a bool; required to create the rule',
  })
  condition?: string | null;

  @Field(() => RiskRuleActionEnum, {
    nullable: true,
    description: 'What a transaction gets when the rule fires; required to create the rule',
  })
  action?: RuleAction | null;

  @Field(() => RiskRuleSeverityEnum, { nullable: true, description: 'How much a firing weighs; MEDIUM for a new rule when absent' })
  severity?: RuleSeverity | null;

  @Field(() => String, { nullable: true, description: 'Short name for people (up to 200 characters); the id for a new rule when absent' })
  name?: string | null;

  @Field(() => String, { nullable: true, description: 'What the rule looks for (up to 2,000 characters); null clears it' })
  description?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Whether evaluations check the rule; true for a new rule when absent' })
  enabled?: boolean | null;
}

@InputType({ description: 'A new rule' })
export class CreateRiskRuleInput {
  @Field(() => ID, {
    nullable: true,
    description: 'The rule’s identifier (1–64 letters, digits, "_", "-" or "."); derived from the name when absent',
  })
  id?: string | null;

  @Field({ description: 'Short name for people (up to 200 characters)' })
  name!: string;

  @Field({ description: 'CEL expression over the documented environment, yielding a bool' })
  condition!: string;

  @Field(() => RiskRuleActionEnum, { description: 'What a transaction gets when the rule fires' })
  action!: RuleAction;

  @Field(() => RiskRuleSeverityEnum, { nullable: true, description: 'How much a firing weighs; default MEDIUM' })
  severity?: RuleSeverity | null;

  @Field(() => String, { nullable: true, description: 'What the rule looks for (up to 2,000 characters)' })
  description?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Whether evaluations check the rule; default true' })
  enabled?: boolean | null;
}

@InputType({ description: 'Switch a rule on' })
export class EnableRiskRuleInput {
  @Field(() => ID, { description: 'The rule' })
  id!: string;
}

@InputType({ description: 'Switch a rule off: evaluations stop checking it at once' })
export class DisableRiskRuleInput {
  @Field(() => ID, { description: 'The rule' })
  id!: string;
}

@InputType({ description: 'Which rules to list (all of the organization when empty)' })
export class RiskRuleFilter {
  @Field(() => Boolean, { nullable: true, description: 'Only the enabled rules (true) or only the disabled ones (false)' })
  enabled?: boolean | null;
}

@InputType({ description: 'Which audit entries to list (every rule’s when empty)' })
export class RiskRuleAuditFilter {
  @Field(() => ID, { nullable: true, description: 'Only this rule’s' })
  ruleId?: string | null;

  @Field(() => RiskRuleAuditChangeEnum, { nullable: true, description: 'Only changes of this kind' })
  change?: RuleChange | null;
}
