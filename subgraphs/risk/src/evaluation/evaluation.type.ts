import { Directive, Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { ACTIONS } from './evaluation.scoring.js';

export const RiskActionEnum = Object.fromEntries(ACTIONS.map((a) => [a, a])) as { [K in (typeof ACTIONS)[number]]: K };
registerEnumType(RiskActionEnum, { name: 'RiskAction', description: 'allow < review < block (the most severe signal wins)' });

@ObjectType('RiskRulesLayer')
export class RiskRulesLayer {
  @Field(() => Int) fired!: number;
  @Field(() => Int, { description: 'Enabled rules evaluated' }) checked!: number;
  @Field(() => Float, { description: 'Layer score 0–100 (noisy-OR of the fired rules’ severity weights)' }) score!: number;
}

@ObjectType('RiskGraphLayer')
export class RiskGraphLayer {
  @Field(() => Int) patternsFound!: number;
  @Field(() => Int, { description: 'Nodes the detectors visited (bounded by the degree caps)' }) nodesTraversed!: number;
  @Field(() => Float, { description: 'Layer score 0–100 (noisy-OR of the patterns’ weights)' }) score!: number;
}

@ObjectType('RiskSanctionsLayer')
export class RiskSanctionsLayer {
  @Field(() => Int) hits!: number;
  @Field(() => Int, { description: 'Lists consulted; 0 when no name was available or no screening engine is loaded' })
  listsChecked!: number;
  @Field(() => Float, { description: 'Layer score 0–100 (strongest hit × list-kind weight)' }) score!: number;
}

@ObjectType('RiskLayers')
export class RiskLayers {
  @Field(() => RiskRulesLayer) rules!: RiskRulesLayer;
  @Field(() => RiskGraphLayer) graph!: RiskGraphLayer;
  @Field(() => RiskSanctionsLayer) sanctions!: RiskSanctionsLayer;
}

@ObjectType('RiskFiredRule')
export class RiskFiredRule {
  @Field() id!: string;
  @Field() name!: string;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => Int) version!: number;
  @Field() action!: string;
  @Field() severity!: string;
}

@ObjectType('RiskRuleError')
export class RiskRuleError {
  @Field() id!: string;
  @Field(() => Int) version!: number;
  @Field() message!: string;
}

@ObjectType('RiskGraphPattern')
export class RiskGraphPattern {
  @Field({ description: 'cycle, fan_in, fan_out, shared_device, rapid_pass_through' }) type!: string;
  @Field(() => Float) weight!: number;
  @Field(() => [String], { description: 'The cycle path (first = last) or the hub account' }) accounts!: string[];
  @Field(() => Int, { nullable: true }) length?: number | null;
  @Field(() => Int, { nullable: true }) count?: number | null;
  @Field(() => Float, { nullable: true }) ratio?: number | null;
  @Field(() => String, { nullable: true }) device?: string | null;
}

@ObjectType('RiskSanctionsHit')
export class RiskSanctionsHit {
  @Field({ description: 'sender or receiver' }) party!: string;
  @Field() account!: string;
  @Field({ description: 'The name screened' }) name!: string;
  @Field() source!: string;
  @Field() kind!: string;
  @Field() externalId!: string;
  @Field() primaryName!: string;
  @Field() matchedName!: string;
  @Field(() => Float) score!: number;
  @Field() listVersion!: string;
}

@ObjectType('RiskTransaction')
export class RiskTransaction {
  @Field(() => Float) amount!: number;
  @Field() currency!: string;
  @Field() sender!: string;
  @Field() receiver!: string;
  @Field(() => String, { nullable: true }) channel?: string | null;
  @Field(() => GraphQLJSONObject) metadata!: Record<string, unknown>;
}

@ObjectType('RiskEvaluation')
@Directive('@key(fields: "id")')
export class RiskEvaluationType {
  @Field(() => ID, { description: 'evaluation_id' }) id!: string;
  @Field() transactionId!: string;
  @Field(() => Float, { description: '0–100' }) score!: number;
  @Field(() => RiskActionEnum) action!: string;
  @Field({ description: 'true for sandbox (test key) evaluations: a deterministic mock score' }) mock!: boolean;
  @Field(() => Float) latencyMs!: number;
  @Field(() => RiskLayers) layers!: RiskLayers;
  @Field(() => [String]) reasons!: string[];
  @Field(() => [RiskFiredRule]) rulesFired!: RiskFiredRule[];
  @Field(() => [RiskRuleError], { description: 'Rules that failed at run time (they did not fire)' }) ruleErrors!: RiskRuleError[];
  @Field(() => [RiskGraphPattern]) graphPatterns!: RiskGraphPattern[];
  @Field(() => [RiskSanctionsHit]) sanctionsHits!: RiskSanctionsHit[];
  @Field(() => RiskTransaction) transaction!: RiskTransaction;
  @Field(() => GraphQLJSONObject, { description: 'The values the rules saw (CEL environment)' }) facts!: Record<string, unknown>;
  @Field({ description: 'Revision of the rule set used' }) rulesRevision!: string;
  @Field() createdAt!: Date;
}

@ObjectType('RiskEvaluationPage')
export class RiskEvaluationPage {
  @Field(() => [RiskEvaluationType]) data!: RiskEvaluationType[];
  @Field(() => Int) total!: number;
  @Field(() => Int) page!: number;
  @Field(() => Int) limit!: number;
}
