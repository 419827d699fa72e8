import { Directive, Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { ConnectionType } from '../../../../platform/graphql/connection.js';
import { EventEnvelopeType } from '../../../../platform/graphql/event-envelope.js';
import { Currency, JSON as JSONScalar } from '../../../../platform/graphql/scalars.js';
import { UserError } from '../../../../platform/graphql/user-errors.js';
import { ScreeningHitType } from '../../../../screening/screening-hit.type.js';
import { storedEnum } from '../enums.js';
import { RiskAccountType } from '../accounts/account.type.js';
import { PATTERN_TYPES, type PatternType } from '../graph/graph.patterns.js';
import type { RuleAction, RuleSeverity } from '../rules/rule.entity.js';
import { RiskRuleActionEnum, RiskRuleSeverityEnum } from '../rules/rule.type.js';
import { ACTIONS, type Action } from './evaluation.scoring.js';
import { RISK_EVENT_DESCRIPTIONS } from './evaluation.events.js';

export const RiskActionEnum = storedEnum(
  'RiskAction',
  ACTIONS,
  'What to do with a transaction; ALLOW < REVIEW < BLOCK (the most severe signal wins)',
  {
    allow: 'Let the transaction through',
    review: 'Hold the transaction for a person to review',
    block: 'Stop the transaction',
  },
);

export const RiskPartyEnum = storedEnum('RiskParty', ['sender', 'receiver'] as const, 'A side of a transaction', {
  sender: 'The account the money leaves',
  receiver: 'The account the money goes to',
});

export const RiskGraphPatternTypeEnum = storedEnum(
  'RiskGraphPatternType',
  PATTERN_TYPES,
  'A shape of money movement the graph layer detects',
  {
    cycle: 'Money that comes back to where it started within the cycle window (round tripping)',
    fan_in: 'Many distinct senders paying one account within 24 hours (a collection or mule account)',
    fan_out: 'One account paying many distinct receivers within 24 hours',
    shared_device: 'One device used by many accounts within 24 hours',
    rapid_pass_through: 'An account sending on about what it received in the last hour',
  },
);

@ObjectType('RiskRulesLayer', { description: 'What the rules found' })
export class RiskRulesLayer {
  @Field(() => Int, { description: 'Rules that fired' })
  fired!: number;

  @Field(() => Int, { description: 'Enabled rules checked' })
  checked!: number;

  @Field(() => Float, { description: 'Layer score 0–100: noisy-OR of the fired rules’ severity weights' })
  score!: number;
}

@ObjectType('RiskGraphLayer', { description: 'What the transaction graph showed' })
export class RiskGraphLayer {
  @Field(() => Int, { description: 'Patterns detected' })
  patternsFound!: number;

  @Field(() => Int, { description: 'Graph nodes the detectors visited (bounded by the degree caps)' })
  nodesTraversed!: number;

  @Field(() => Float, { description: 'Layer score 0–100: noisy-OR of the patterns’ weights' })
  score!: number;
}

@ObjectType('RiskSanctionsLayer', { description: 'What screening the parties’ names found' })
export class RiskSanctionsLayer {
  @Field(() => Int, { description: 'List entries the names matched' })
  hits!: number;

  @Field(() => Int, { description: 'Lists consulted; 0 when no name was available or no screening list is loaded' })
  listsChecked!: number;

  @Field(() => Float, { description: 'Layer score 0–100: the strongest hit’s score × its list kind’s weight' })
  score!: number;
}

@ObjectType('RiskLayers', { description: 'The three layers an evaluation combines' })
export class RiskLayers {
  @Field(() => RiskRulesLayer, { description: 'The organization’s rules' })
  rules!: RiskRulesLayer;

  @Field(() => RiskGraphLayer, { description: 'The transaction graph' })
  graph!: RiskGraphLayer;

  @Field(() => RiskSanctionsLayer, { description: 'Sanctions and watch-list screening of the parties' })
  sanctions!: RiskSanctionsLayer;
}

@ObjectType('RiskFiredRule', { description: 'A rule that fired, as it was in the version the evaluation used' })
export class RiskFiredRule {
  // the rule's id, not a reference: the fired rule is the evaluation's record (scope evaluations:read); the rule
  // itself (its condition) is read with rules:read
  @Field(() => ID, { description: 'The rule’s identifier (riskRule reads the rule, with the rules:read scope)' })
  id!: string;

  @Field({ description: 'Its name then' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'Its description then' })
  description?: string | null;

  @Field(() => Int, { description: 'The version that fired' })
  version!: number;

  @Field(() => RiskRuleActionEnum, { description: 'The action it asked for' })
  action!: RuleAction;

  @Field(() => RiskRuleSeverityEnum, { description: 'Its severity then' })
  severity!: RuleSeverity;
}

@ObjectType('RiskRuleError', { description: 'A rule that could not be checked (it did not fire)' })
export class RiskRuleError {
  @Field(() => ID, { description: 'The rule’s identifier (riskRule reads the rule, with the rules:read scope)' })
  id!: string;

  @Field(() => Int, { description: 'The version that failed' })
  version!: number;

  @Field({ description: 'What went wrong (an error of the condition, or the time budget running out)' })
  message!: string;
}

@ObjectType('RiskGraphPattern', { description: 'A pattern of money movement found around the transaction' })
export class RiskGraphPattern {
  @Field(() => RiskGraphPatternTypeEnum, { description: 'Which pattern' })
  type!: PatternType;

  @Field(() => Float, { description: 'What it adds to the graph layer score (0–100)' })
  weight!: number;

  @Field(() => [ID], { description: 'The accounts involved: the cycle’s path (first = last), or the account at its centre' })
  accounts!: string[];

  @Field(() => Int, { nullable: true, description: 'CYCLE: transfers in the cycle' })
  length?: number | null;

  @Field(() => Int, { nullable: true, description: 'FAN_IN, FAN_OUT: distinct counterparties; SHARED_DEVICE: accounts on the device' })
  count?: number | null;

  @Field(() => Float, { nullable: true, description: 'RAPID_PASS_THROUGH: sent ÷ received in the last hour' })
  ratio?: number | null;

  @Field(() => String, { nullable: true, description: 'SHARED_DEVICE: the device' })
  device?: string | null;
}

@ObjectType('RiskSanctionsHit', { description: 'A party’s name that matched a screening list entry' })
export class RiskSanctionsHit {
  @Field(() => RiskPartyEnum, { description: 'Which side of the transaction' })
  party!: 'sender' | 'receiver';

  @Field(() => RiskAccountType, { description: 'That party’s account' })
  account!: RiskAccountType;

  @Field(() => String, {
    nullable: true,
    description: 'The name screened (from the transaction’s metadata, else the account’s profile); null once its holder was erased',
  })
  name?: string | null;

  @Field(() => ScreeningHitType, { description: 'The list entry it matched' })
  hit!: ScreeningHitType;
}

@ObjectType('RiskTransaction', { description: 'The transaction as it was evaluated' })
export class RiskTransaction {
  @Field(() => Float, { description: 'Amount in the currency’s unit' })
  amount!: number;

  @Field(() => Currency, { description: 'ISO 4217 currency' })
  currency!: string;

  @Field(() => RiskAccountType, { description: 'The account the money leaves' })
  sender!: RiskAccountType;

  @Field(() => RiskAccountType, { description: 'The account the money goes to' })
  receiver!: RiskAccountType;

  @Field(() => String, { nullable: true, description: 'How it was made (mobile_money, ussd, app, agent, card…)' })
  channel?: string | null;

  @Field(() => JSONScalar, { description: 'The metadata sent with it, as sent' })
  metadata!: Record<string, unknown>;
}

@ObjectType('RiskEvaluation', { description: 'The risk decision on one transaction: a score, an action and why' })
@Directive('@key(fields: "id")')
export class RiskEvaluationType {
  @Field(() => ID, { description: 'Identifier of the evaluation' })
  id!: string;

  @Field({ description: 'Your identifier of the transaction (unique in the organization)' })
  transactionId!: string;

  @Field(() => Float, { description: 'Risk score 0–100: the noisy-OR of the three layer scores, rounded' })
  score!: number;

  @Field(() => RiskActionEnum, { description: 'What to do with the transaction' })
  action!: Action;

  @Field({ description: 'A sandbox (test key) evaluation: a deterministic mock score, no rules, graph or sanctions data used' })
  mock!: boolean;

  @Field(() => Float, { description: 'Milliseconds from receipt to decision' })
  latencyMs!: number;

  @Field(() => RiskLayers, { description: 'What each layer found and scored' })
  layers!: RiskLayers;

  @Field(() => [String], { description: 'Why, in words: each hit, fired rule, pattern and threshold crossed' })
  reasons!: string[];

  @Field(() => [RiskFiredRule], { description: 'The rules that fired' })
  rulesFired!: RiskFiredRule[];

  @Field(() => [RiskRuleError], { description: 'Rules that could not be checked (they did not fire)' })
  ruleErrors!: RiskRuleError[];

  @Field(() => [RiskGraphPattern], { description: 'Patterns the graph layer found' })
  graphPatterns!: RiskGraphPattern[];

  @Field(() => [RiskSanctionsHit], { description: 'Names of the parties that matched screening lists' })
  sanctionsHits!: RiskSanctionsHit[];

  @Field(() => RiskTransaction, { description: 'The transaction evaluated' })
  transaction!: RiskTransaction;

  @Field(() => JSONScalar, { description: 'The values the rules saw (their CEL environment)' })
  facts!: Record<string, unknown>;

  @Field({ description: 'Revision of the organization’s rule set the evaluation used' })
  rulesRevision!: string;

  @Field({ description: 'When the transaction was evaluated' })
  createdAt!: Date;
}

export const RiskEvaluationConnection = ConnectionType('RiskEvaluation', RiskEvaluationType, 'risk evaluation');

export const RiskEvaluationEvent = EventEnvelopeType('RiskEvaluation', RiskEvaluationType, RISK_EVENT_DESCRIPTIONS, 'risk evaluation');

@ObjectType('EvaluateTransactionPayload', { description: 'The result of evaluateTransaction' })
export class EvaluateTransactionPayload {
  @Field(() => RiskEvaluationType, { nullable: true, description: 'The evaluation of the transaction' })
  riskEvaluation?: RiskEvaluationType | null;

  @Field(() => [UserError], { description: 'Mistakes in the transaction, or a transactionId used before; empty on success' })
  userErrors!: UserError[];
}
