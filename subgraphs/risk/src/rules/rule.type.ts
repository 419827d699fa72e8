import { Field, Int, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

@ObjectType('RiskRule')
export class RiskRuleType {
  @Field() id!: string;
  @Field() name!: string;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field({ description: 'CEL expression over the documented environment (riskRuleEnvironment)' }) condition!: string;
  @Field({ description: 'review or block' }) action!: string;
  @Field({ description: 'low, medium, high or critical (weights the rules layer score)' }) severity!: string;
  @Field() enabled!: boolean;
  @Field(() => Int) version!: number;
  @Field({ description: 'Seeded from the default rule set' }) isDefault!: boolean;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

@ObjectType('RiskRuleVersion')
export class RiskRuleVersionType {
  @Field() ruleId!: string;
  @Field(() => Int) version!: number;
  @Field() name!: string;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field() condition!: string;
  @Field() action!: string;
  @Field() severity!: string;
  @Field() enabled!: boolean;
  @Field({ description: '`client:<api client id>` or `system`' }) createdBy!: string;
  @Field() createdAt!: Date;
}

@ObjectType('RiskRuleAuditEntry')
export class RiskRuleAuditEntryType {
  @Field() ruleId!: string;
  @Field(() => Int) version!: number;
  @Field({ description: 'seeded, created, updated, enabled, disabled' }) change!: string;
  @Field() actor!: string;
  @Field(() => GraphQLJSONObject, { description: 'field → {from, to}' }) changes!: Record<string, unknown>;
  @Field({ description: 'Rule-set revision this change produced' }) revision!: string;
  @Field() createdAt!: Date;
}

@ObjectType('RiskRuleChange')
export class RiskRuleChangeType {
  @Field() id!: string;
  @Field({ description: 'false when nothing changed (no new version)' }) updated!: boolean;
  @Field() created!: boolean;
  @Field({ description: 'When the current version took effect; evaluations after it use it on every instance' }) effectiveAt!: Date;
  @Field(() => Int) version!: number;
  @Field() revision!: string;
  @Field(() => RiskRuleType) rule!: RiskRuleType;
}

@ObjectType('RiskRuleFact')
export class RiskRuleFactType {
  @Field() name!: string;
  @Field() type!: string;
  @Field() description!: string;
}

@ObjectType('RiskRuleEnvironment')
export class RiskRuleEnvironmentType {
  @Field(() => [RiskRuleFactType]) variables!: RiskRuleFactType[];
  @Field(() => [RiskRuleFactType]) functions!: RiskRuleFactType[];
}

@ObjectType('RiskConditionCheck')
export class RiskConditionCheckType {
  @Field() valid!: boolean;
  @Field(() => String, { nullable: true, description: "The parser's or type checker's message" }) message?: string | null;
}
