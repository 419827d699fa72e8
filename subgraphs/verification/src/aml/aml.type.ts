import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { ScreenedPersonFields } from '../screened-person/screened-person.js';
import { IsNotEmpty, IsOptional, MaxLength, ValidateNested } from 'class-validator';
import { MATCH_RULES, type ListKind, type MatchExplanation, type MatchRule } from '../../../../screening/index.js';
import { ScreeningHitType, ScreeningListKindEnum } from '../../../../screening/screening-hit.type.js';
import { DeliveryStatusEnum } from '../../../../platform/graphql/delivery-status.js';
import { ConnectionType } from '../../../../platform/graphql/connection.js';
import { EventEnvelopeType } from '../../../../platform/graphql/event-envelope.js';
import { UserError } from '../../../../platform/graphql/user-errors.js';
import { CountryCode, LocalDate, URL as UrlScalar } from '../../../../platform/graphql/scalars.js';
import { AML_BATCH_STATUSES, AML_RISK_LEVELS, AML_STATUSES, HIT_RESOLUTIONS } from './aml.lifecycle.js';

const enumOf = <T extends string>(values: readonly T[]) => Object.fromEntries(values.map((v) => [v, v])) as { [K in T]: K };

export const AmlStatusEnum = enumOf(AML_STATUSES);
export const AmlRiskLevelEnum = enumOf(AML_RISK_LEVELS);
export const AmlMatchResolutionEnum = enumOf(HIT_RESOLUTIONS);
export const AmlMatchDecisionEnum = enumOf(['TRUE_POSITIVE', 'FALSE_POSITIVE'] as const);
export const AmlBatchStatusEnum = enumOf(AML_BATCH_STATUSES);
export const AmlBatchSubjectStatusEnum = enumOf(['PENDING', 'FAILED', ...AML_STATUSES] as const);
export const AML_NAME_PART_MATCHES = ['EXACT', 'EQUIVALENT', 'PHONETIC', 'FUZZY', 'INITIAL', 'MISSING'] as const;
export const AmlNamePartMatchEnum = enumOf(AML_NAME_PART_MATCHES);
export const AmlQualifierKindEnum = enumOf(['DATE_OF_BIRTH', 'NATIONALITY', 'DOCUMENT_NUMBER'] as const);
/** The matcher's rule names (camelCase in the engine) as the graph's enum values: legalFormDiffers → LEGAL_FORM_DIFFERS. */
const ruleValue = (rule: MatchRule) => rule.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase();
export const AmlMatchRuleNameEnum = Object.fromEntries(MATCH_RULES.map((r) => [ruleValue(r), ruleValue(r)])) as Record<string, string>;

registerEnumType(AmlStatusEnum, {
  name: 'AmlStatus',
  description: 'The outcome of an AML screening',
  valuesConfig: {
    CLEAR: { description: 'No list entry matched at or above the threshold, or a reviewer found every match a false positive' },
    POTENTIAL_MATCH: { description: 'Entries matched: each match waits for a reviewer’s resolution' },
    CONFIRMED_MATCH: { description: 'A reviewer confirmed a match: the person is on a list' },
  },
});
registerEnumType(AmlRiskLevelEnum, {
  name: 'AmlRiskLevel',
  description: 'How much risk a screening shows',
  valuesConfig: {
    LOW: { description: 'The screening is CLEAR' },
    MEDIUM: { description: 'Open or confirmed matches on PEP or adverse-media lists only' },
    HIGH: { description: 'A match on a sanctions or law-enforcement list, or any confirmed match' },
  },
});
registerEnumType(AmlMatchResolutionEnum, {
  name: 'AmlMatchResolution',
  description: 'A reviewer’s resolution of one match',
  valuesConfig: {
    OPEN: { description: 'Not resolved yet' },
    TRUE_POSITIVE: { description: 'The person is the listed one' },
    FALSE_POSITIVE: { description: 'The person is not the listed one (a namesake)' },
  },
});
registerEnumType(AmlMatchDecisionEnum, {
  name: 'AmlMatchDecision',
  description: 'How a reviewer resolves a match',
  valuesConfig: {
    TRUE_POSITIVE: { description: 'The person is the listed one: the screening becomes CONFIRMED_MATCH' },
    FALSE_POSITIVE: { description: 'The person is not the listed one; once every match is, the screening is CLEAR again' },
  },
});
registerEnumType(AmlBatchStatusEnum, {
  name: 'AmlBatchStatus',
  description: 'Where a batch of screenings stands',
  valuesConfig: {
    PENDING: { description: 'Accepted; no subject screened yet' },
    PROCESSING: { description: 'Subjects are being screened' },
    COMPLETED: { description: 'Every subject was screened (or failed); the callback, if any, is on its way' },
  },
});
registerEnumType(AmlBatchSubjectStatusEnum, {
  name: 'AmlBatchSubjectStatus',
  description: 'Where one subject of a batch stands: waiting, failed, or the status of its screening',
  valuesConfig: {
    PENDING: { description: 'Not screened yet' },
    FAILED: { description: 'Could not be screened (see error)' },
    CLEAR: { description: 'Screened: CLEAR' },
    POTENTIAL_MATCH: { description: 'Screened: matches to review' },
    CONFIRMED_MATCH: { description: 'Screened, and a reviewer has since confirmed a match' },
  },
});
/** What each rule of the matcher does (screening/README.md, "Rules"). */
const MATCH_RULE_DESCRIPTIONS: Record<MatchRule, string> = {
  legalForm: 'A company legal form (ISO 20275 list and translations: AG, Aktiengesellschaft, LLC, OAO…) was set aside',
  legalFormDiffers: 'Both names carry legal forms and they differ (AG and GmbH): the score was lowered',
  entityQualifier: 'A country or branch word is in one entity name only (Banco Santander Mexico): the score was lowered',
  numberWords: 'Numbers written in words or as ordinals or Roman numerals were read as digits (Forty-Four and 44)',
  numberDiffers: 'A number is in one name only (Snow Storm 1 and Snow Storm 2): the score was lowered',
  lookalike: 'Look-alike characters were read as letters: digits in words, letters of another script, dotted acronyms',
  acronym: 'A word matched the initials of several words of the other name (PLA and People’s Liberation Army)',
  transliteration: 'A name in another script was transliterated, or a Korean syllable matched one of its romanisations',
  syllableDiffers: 'Two names in Chinese, Japanese or Korean script differ by a syllable: the score was lowered',
  nasab: 'An Arabic name has one more given name first (a son or daughter of the other): the score was lowered',
  nickname: 'A given name matched its nickname or short form (Ted and Theodore)',
  orderSwap: 'The given names are in another order with no family name to tell: the score was lowered',
};
registerEnumType(AmlMatchRuleNameEnum, {
  name: 'AmlMatchRuleName',
  description: 'A named rule of the name matcher',
  valuesConfig: Object.fromEntries(MATCH_RULES.map((r) => [ruleValue(r), { description: MATCH_RULE_DESCRIPTIONS[r] }])),
});
registerEnumType(AmlNamePartMatchEnum, {
  name: 'AmlNamePartMatch',
  description: 'How one part of the screened name matched a part of the listed name',
  valuesConfig: {
    EXACT: { description: 'The same name part' },
    EQUIVALENT: { description: 'A known equivalent or transliteration (Mohammed and Muhammad)' },
    PHONETIC: { description: 'A part that sounds the same' },
    FUZZY: { description: 'A part spelt a little differently' },
    INITIAL: { description: 'An initial standing for the part' },
    MISSING: { description: 'No counterpart in the listed name' },
  },
});
registerEnumType(AmlQualifierKindEnum, {
  name: 'AmlQualifierKind',
  description: 'A detail besides the name that raised or lowered a match’s score',
  valuesConfig: {
    DATE_OF_BIRTH: { description: 'The date of birth given against the listed ones' },
    NATIONALITY: { description: 'The nationality given against the listed ones' },
    DOCUMENT_NUMBER: { description: 'The document number given against the listed ones' },
  },
});

@ObjectType('AmlMatchToken', { description: 'How one part of the screened name compared with the listed name' })
export class AmlMatchTokenType {
  @Field({ description: 'The part of the screened name' })
  query!: string;

  @Field(() => String, { nullable: true, description: 'The part of the listed name it matched; null when none did' })
  matched?: string | null;

  @Field(() => AmlNamePartMatchEnum, { description: 'How it matched' })
  how!: string;

  @Field(() => Float, { description: 'How close the two parts are, 0 to 1' })
  score!: number;

  @Field(() => Float, { description: 'How much this part counts in the name score (rare name parts count more)' })
  weight!: number;
}

@ObjectType('AmlMatchQualifier', { description: 'A detail besides the name that changed a match’s score' })
export class AmlMatchQualifierType {
  @Field(() => AmlQualifierKindEnum, { description: 'Which detail' })
  kind!: string;

  @Field(() => Float, { description: 'What it added to the name score (negative when it lowered it)' })
  effect!: number;

  @Field({ description: 'What was compared, in words' })
  detail!: string;
}

@ObjectType('AmlMatchRule', { description: 'A rule of the name matcher that applied to the two names' })
export class AmlMatchRuleType {
  @Field(() => AmlMatchRuleNameEnum, { description: 'Which rule' })
  rule!: string;

  @Field(() => Float, { description: 'What the name score was multiplied by (1 when the rule only made the names comparable)' })
  factor!: number;

  @Field({ description: 'What the rule saw, in words' })
  detail!: string;
}

@ObjectType('AmlMatchExplanation', { description: 'Why a list entry matched: the name parts and the other details compared' })
export class AmlMatchExplanationType {
  @Field(() => Float, { description: 'Similarity of the names alone, 0 to 1' })
  nameScore!: number;

  @Field(() => [AmlMatchTokenType], { description: 'Each part of the screened name and what it matched' })
  tokens!: AmlMatchTokenType[];

  @Field(() => [AmlMatchQualifierType], { description: 'Date of birth, nationality or document number, where given and listed' })
  qualifiers!: AmlMatchQualifierType[];

  @Field(() => [AmlMatchRuleType], {
    description: 'The rules of the name matcher that fired (empty for matches made before rules were recorded)',
  })
  rules!: AmlMatchRuleType[];
}

/** The engine's explanation with the graph's enum values. */
export function toExplanation(e: MatchExplanation): AmlMatchExplanationType {
  const qualifier = { dateOfBirth: 'DATE_OF_BIRTH', nationality: 'NATIONALITY', documentNumber: 'DOCUMENT_NUMBER' } as const;
  return {
    nameScore: e.nameScore,
    tokens: e.tokens.map((t) => ({ ...t, how: t.how.toUpperCase() })),
    qualifiers: e.qualifiers.map((q) => ({ ...q, kind: qualifier[q.kind] })),
    rules: (e.rules ?? []).map((r) => ({ ...r, rule: ruleValue(r.rule) })),
  };
}

@ObjectType('AmlMatch', { description: 'A list entry a screening matched, why, and a reviewer’s resolution of it' })
export class AmlMatchType {
  @Field(() => ID, { description: 'Identifier of the match (to resolve it)' })
  id!: string;

  @Field(() => ScreeningHitType, { description: 'The list entry that matched' })
  hit!: ScreeningHitType;

  @Field(() => AmlMatchExplanationType, { description: 'Why it matched' })
  explanation!: AmlMatchExplanationType;

  @Field(() => AmlMatchResolutionEnum, { description: 'The reviewer’s resolution; OPEN until resolved' })
  resolution!: string;

  @Field(() => String, { nullable: true, description: 'Who resolved it' })
  resolvedBy?: string | null;

  @Field(() => String, { nullable: true, description: 'Why, in the reviewer’s words' })
  resolutionReason?: string | null;

  @Field(() => Date, { nullable: true, description: 'When it was resolved' })
  resolvedAt?: Date | null;
}

@ObjectType('AmlListVersion', { description: 'A list screened against, at the version used' })
export class AmlListVersionType {
  @Field({ description: 'The list (OFAC_SDN, UN_SC, a custom list…)' })
  source!: string;

  @Field({ description: 'Its version at the time (v1, v2…)' })
  version!: string;

  @Field(() => ScreeningListKindEnum, { description: 'What the list holds' })
  kind!: ListKind;
}

@ObjectType('AmlScreening', { description: 'One screening of a person against sanctions, PEP, adverse-media and law-enforcement lists' })
export class AmlScreeningType {
  @Field(() => ID, { description: 'Identifier of the screening' })
  id!: string;

  @Field({ description: 'Your identifier of the person screened' })
  userId!: string;

  @Field(() => String, { nullable: true, description: 'The name screened; null once the person was erased (eraseUser)' })
  fullName?: string | null;

  @Field(() => LocalDate, { nullable: true, description: 'The date of birth given, compared with the listed ones' })
  dateOfBirth?: string | null;

  @Field(() => CountryCode, { nullable: true, description: 'The nationality given, compared with the listed ones' })
  nationality?: string | null;

  @Field(() => String, { nullable: true, description: 'The identity document number given, compared with the listed ones' })
  documentNumber?: string | null;

  @Field(() => Float, { description: 'The score from which an entry counts as a match, 0 to 1' })
  matchThreshold!: number;

  @Field(() => [ScreeningListKindEnum], { description: 'The kinds of lists asked for' })
  lists!: ListKind[];

  @Field(() => AmlStatusEnum, { description: 'The outcome' })
  status!: string;

  @Field(() => AmlRiskLevelEnum, { description: 'The risk the outcome shows' })
  riskLevel!: string;

  @Field(() => Int, { description: 'How many entries matched' })
  matchCount!: number;

  @Field(() => [AmlMatchType], { description: 'The entries that matched, best first (at most 25)' })
  matches!: AmlMatchType[];

  @Field(() => [String], { description: 'The lists screened against (OFAC_SDN, UN_SC…)' })
  listsChecked!: string[];

  @Field(() => [AmlListVersionType], { description: 'The lists screened against, with the version of each' })
  listVersions!: AmlListVersionType[];

  /** Loaded by a field resolver (aml.resolver.ts). */
  batchId?: string | null;

  @Field({ description: 'When the person was screened' })
  checkedAt!: Date;

  @Field(() => Date, { nullable: true, description: 'When the last open match was resolved' })
  resolvedAt?: Date | null;

  @Field({ description: 'When the screening was made' })
  createdAt!: Date;

  @Field({ description: 'When it last changed (a match resolved)' })
  updatedAt!: Date;
}

export const AmlScreeningConnection = ConnectionType('AmlScreening', AmlScreeningType, 'AML screening');

export const AML_SCREENING_EVENT_DESCRIPTIONS: Record<string, string> = {
  'aml.clear': 'The screening is CLEAR (screened without a match, or every match resolved as a false positive)',
  'aml.flagged': 'The screening found matches, or a reviewer confirmed one',
  'aml.match_resolved': 'A reviewer resolved a match without changing the screening’s status',
};
export const AmlScreeningEvent = EventEnvelopeType('AmlScreening', AmlScreeningType, AML_SCREENING_EVENT_DESCRIPTIONS, 'an AML screening');

@ObjectType('AmlBatchSubject', { description: 'One person of a batch, with the outcome of its screening' })
export class AmlBatchSubjectType {
  @Field(() => Int, { description: 'Position in the batch as submitted, from 0' })
  position!: number;

  @Field({ description: 'Your identifier of the person' })
  userId!: string;

  @Field({ description: 'The name submitted' })
  fullName!: string;

  @Field(() => AmlBatchSubjectStatusEnum, { description: 'Waiting, failed, or the status of its screening' })
  status!: string;

  @Field(() => AmlScreeningType, { nullable: true, description: 'Its screening, once screened' })
  screening?: AmlScreeningType | null;

  @Field(() => AmlRiskLevelEnum, { nullable: true, description: 'The risk level of its screening, once screened' })
  riskLevel?: string | null;

  @Field(() => Int, { nullable: true, description: 'How many entries its screening matched, once screened' })
  matchCount?: number | null;

  @Field(() => String, { nullable: true, description: 'Why it could not be screened' })
  error?: string | null;
}

export const AmlBatchSubjectConnection = ConnectionType(
  'AmlBatchSubject',
  AmlBatchSubjectType,
  'batch subject',
  undefined,
  'in submission order',
);

@ObjectType('AmlBatch', { description: 'Up to 100 people screened in the background, with a signed callback when done' })
export class AmlBatchType {
  @Field(() => ID, { description: 'Identifier of the batch' })
  id!: string;

  @Field(() => AmlBatchStatusEnum, { description: 'Where it stands' })
  status!: string;

  @Field(() => Int, { description: 'How many subjects it holds' })
  total!: number;

  @Field(() => Int, { description: 'How many subjects are done (screened or failed)' })
  processed!: number;

  @Field(() => Int, { description: 'How many subjects were screened CLEAR' })
  clearCount!: number;

  @Field(() => Int, { description: 'How many subjects were screened with matches' })
  flaggedCount!: number;

  @Field(() => Int, { description: 'How many subjects could not be screened' })
  failedCount!: number;

  @Field(() => UrlScalar, { nullable: true, description: 'Your HTTPS endpoint called when the batch completes' })
  callbackUrl?: string | null;

  @Field(() => DeliveryStatusEnum, { nullable: true, description: 'Where the callback’s delivery stands; null before completion' })
  callbackStatus?: string | null;

  @Field(() => Int, { description: 'How many times the callback was attempted' })
  callbackAttempts!: number;

  @Field(() => Int, { nullable: true, description: 'The HTTP status your endpoint answered last' })
  callbackLastStatusCode?: number | null;

  @Field(() => Date, { nullable: true, description: 'When your endpoint accepted the callback' })
  callbackDeliveredAt?: Date | null;

  @Field(() => Date, { nullable: true, description: 'When the callback is tried next' })
  callbackNextAttemptAt?: Date | null;

  @Field({ description: 'When the batch was accepted' })
  createdAt!: Date;

  @Field(() => Date, { nullable: true, description: 'When the last subject was done' })
  completedAt?: Date | null;
}

export const AML_BATCH_EVENT_DESCRIPTIONS: Record<string, string> = {
  'aml.batch_created': 'The batch was accepted',
  'aml.batch_progress': 'One more subject is done',
  'aml.batch_complete': 'Every subject is done',
  'aml.batch_callback': 'The completion callback was attempted',
};
export const AmlBatchEvent = EventEnvelopeType('AmlBatch', AmlBatchType, AML_BATCH_EVENT_DESCRIPTIONS, 'an AML batch');

/** The person to screen: the fields of a screening and of each subject of a batch. */
@InputType('AmlSubjectInput', { description: 'A person to screen' })
export class AmlSubjectInput extends ScreenedPersonFields {
  @Field({ description: 'Your identifier of the person (any text up to 255 characters)' })
  @MaxLength(255, { message: 'userId must be at most 255 characters' })
  userId!: string;

  @Field(() => String, { nullable: true, description: 'Identity document number: raises or lowers a match’s score' })
  @IsOptional()
  @MaxLength(100, { message: 'documentNumber must be at most 100 characters' })
  documentNumber?: string | null;

  @Field(() => Float, { nullable: true, description: 'The score from which an entry counts as a match, 0 to 1; default 0.85' })
  @IsOptional()
  matchThreshold?: number | null;

  @Field(() => [ScreeningListKindEnum], { nullable: true, description: 'The kinds of lists to screen against; default all' })
  @IsOptional()
  lists?: ListKind[] | null;
}

@InputType('ScreenAmlInput', { description: 'A person to screen now' })
export class ScreenAmlInput extends AmlSubjectInput {}

@InputType('CreateAmlBatchInput', { description: 'People to screen in the background' })
export class CreateAmlBatchInput {
  @Field(() => [AmlSubjectInput], { description: 'The people, 1 to 100' })
  @ValidateNested({ each: true })
  subjects!: AmlSubjectInput[];

  @Field(() => String, {
    nullable: true,
    description: 'Your HTTPS endpoint, POSTed (signed like webhooks, with the returned callbackSecret) when the batch completes',
  })
  @IsOptional()
  @MaxLength(2048)
  callbackUrl?: string | null;
}

@InputType('ResolveAmlMatchInput', { description: 'A reviewer’s resolution of one match of a screening' })
export class ResolveAmlMatchInput {
  @Field(() => ID, { description: 'The screening' })
  screeningId!: string;

  @Field(() => ID, { description: 'The match of that screening' })
  matchId!: string;

  @Field(() => AmlMatchDecisionEnum, { description: 'The resolution' })
  resolution!: 'TRUE_POSITIVE' | 'FALSE_POSITIVE';

  @Field({ description: 'Who resolves it (name or e-mail of the reviewer)' })
  @IsNotEmpty({ message: 'resolvedBy must not be empty' })
  @MaxLength(255)
  resolvedBy!: string;

  @Field({ description: 'Why: kept with the resolution' })
  @IsNotEmpty({ message: 'reason must not be empty' })
  @MaxLength(5000)
  reason!: string;
}

@InputType('AmlScreeningFilter', { description: 'Which screenings to list (all of the organization when empty)' })
export class AmlScreeningFilter {
  @Field(() => String, { nullable: true, description: 'Only this person’s' })
  userId?: string | null;

  @Field(() => AmlStatusEnum, { nullable: true, description: 'Only with this outcome' })
  status?: 'CLEAR' | 'POTENTIAL_MATCH' | 'CONFIRMED_MATCH' | null;

  @Field(() => Boolean, {
    nullable: true,
    description: 'true: only screenings with a match still OPEN (the review queue); false: only those without',
  })
  hasUnresolvedMatches?: boolean | null;
}

@ObjectType('ScreenAmlPayload', { description: 'The result of screenAml' })
export class ScreenAmlPayload {
  @Field(() => AmlScreeningType, { nullable: true, description: 'The screening' })
  amlScreening?: AmlScreeningType | null;

  @Field(() => [UserError], { description: 'Mistakes in the input; empty on success' })
  userErrors!: UserError[];
}

@ObjectType('ResolveAmlMatchPayload', { description: 'The result of resolveAmlMatch' })
export class ResolveAmlMatchPayload {
  @Field(() => AmlScreeningType, { nullable: true, description: 'The screening with the match resolved (and its status after it)' })
  amlScreening?: AmlScreeningType | null;

  @Field(() => [UserError], { description: 'Mistakes in the input, or a match resolved before; empty on success' })
  userErrors!: UserError[];
}

@ObjectType('CreateAmlBatchPayload', { description: 'The result of createAmlBatch' })
export class CreateAmlBatchPayload {
  @Field(() => AmlBatchType, { nullable: true, description: 'The accepted batch (PENDING)' })
  amlBatch?: AmlBatchType | null;

  @Field(() => String, {
    nullable: true,
    description: 'The whsec_… secret that signs the callback like webhooks; shown only here, once; null without a callbackUrl',
  })
  callbackSecret?: string | null;

  @Field(() => [UserError], { description: 'Mistakes in the input; empty on success' })
  userErrors!: UserError[];
}
