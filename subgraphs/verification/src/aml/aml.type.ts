import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { IsNotEmpty, IsOptional, MaxLength, ValidateNested } from 'class-validator';
import { LIST_KINDS, type ListKind } from '../../../../screening/index.js';
import { AML_BATCH_STATUSES, AML_RISK_LEVELS, AML_STATUSES, HIT_RESOLUTIONS } from './aml.lifecycle.js';
import { DELIVERY_STATUSES } from '../../../../platform/delivery/delivery.lifecycle.js';

const enumOf = <T extends string>(values: readonly T[]) => Object.fromEntries(values.map((v) => [v, v])) as { [K in T]: K };

export const AmlListEnum = enumOf(LIST_KINDS);
export const AmlStatusEnum = enumOf(AML_STATUSES);
export const AmlRiskLevelEnum = enumOf(AML_RISK_LEVELS);
export const AmlMatchResolutionEnum = enumOf(HIT_RESOLUTIONS);
export const AmlMatchDecisionEnum = enumOf(['TRUE_POSITIVE', 'FALSE_POSITIVE'] as const);
export const AmlBatchStatusEnum = enumOf(AML_BATCH_STATUSES);
export const AmlCallbackStatusEnum = enumOf(DELIVERY_STATUSES);
registerEnumType(AmlListEnum, { name: 'AmlList', description: 'Kinds of lists screened against' });
registerEnumType(AmlStatusEnum, {
  name: 'AmlStatus',
  description:
    'CLEAR: no match at or above matchThreshold (or every match a false positive); POTENTIAL_MATCH: matches to review; CONFIRMED_MATCH: a reviewer confirmed one',
});
registerEnumType(AmlRiskLevelEnum, {
  name: 'AmlRiskLevel',
  description: 'LOW when CLEAR; HIGH for sanctions/law-enforcement matches or a confirmed match; MEDIUM for PEP/adverse-media matches',
});
registerEnumType(AmlMatchResolutionEnum, { name: 'AmlMatchResolution' });
registerEnumType(AmlMatchDecisionEnum, { name: 'AmlMatchDecision' });
registerEnumType(AmlBatchStatusEnum, { name: 'AmlBatchStatus' });
registerEnumType(AmlCallbackStatusEnum, { name: 'AmlCallbackStatus' });

@ObjectType('AmlMatchToken')
export class AmlMatchTokenType {
  @Field({ description: 'Name part of the query' }) query!: string;
  @Field(() => String, { nullable: true, description: 'Name part of the list entry it matched' }) matched?: string | null;
  @Field({ description: 'exact, equivalent, phonetic, fuzzy, initial or missing' }) how!: string;
  @Field(() => Float) score!: number;
  @Field(() => Float) weight!: number;
}

@ObjectType('AmlMatchQualifier')
export class AmlMatchQualifierType {
  @Field({ description: 'dateOfBirth, nationality or documentNumber' }) kind!: string;
  @Field(() => Float, { description: 'Added to the name score (negative lowers it)' }) effect!: number;
  @Field() detail!: string;
}

@ObjectType('AmlMatchExplanation')
export class AmlMatchExplanationType {
  @Field(() => Float) nameScore!: number;
  @Field(() => [AmlMatchTokenType]) tokens!: AmlMatchTokenType[];
  @Field(() => [AmlMatchQualifierType]) qualifiers!: AmlMatchQualifierType[];
}

@ObjectType('AmlMatch')
export class AmlMatchType {
  @Field(() => ID) id!: string;
  @Field({ description: 'The list (source) matched, e.g. OFAC_SDN, UN_SC' }) listName!: string;
  @Field() source!: string;
  @Field(() => AmlListEnum) kind!: ListKind;
  @Field({ description: "The list's own id of the entry" }) externalId!: string;
  @Field() entityType!: string;
  @Field({ description: "The entry's primary name" }) primaryName!: string;
  @Field({ description: 'The name (primary or alias) that matched' }) matchedName!: string;
  @Field(() => Float, { description: '0–1' }) score!: number;
  @Field(() => AmlMatchExplanationType) explanation!: AmlMatchExplanationType;
  @Field(() => [String]) programs!: string[];
  @Field(() => String, { nullable: true }) addedDate?: string | null;
  @Field({ description: 'Snapshot version of the list' }) listVersion!: string;
  @Field(() => AmlMatchResolutionEnum) resolution!: string;
  @Field(() => String, { nullable: true }) resolvedBy?: string | null;
  @Field(() => String, { nullable: true }) resolutionReason?: string | null;
  @Field(() => Date, { nullable: true }) resolvedAt?: Date | null;
}

@ObjectType('AmlListVersion')
export class AmlListVersionType {
  @Field() source!: string;
  @Field() version!: string;
  @Field(() => AmlListEnum) kind!: ListKind;
}

@ObjectType('AmlScreening')
export class AmlScreeningType {
  @Field(() => ID) id!: string;
  @Field() userId!: string;
  @Field() fullName!: string;
  @Field(() => String, { nullable: true }) dateOfBirth?: string | null;
  @Field(() => String, { nullable: true }) nationality?: string | null;
  @Field(() => String, { nullable: true }) documentNumber?: string | null;
  @Field(() => Float) matchThreshold!: number;
  @Field(() => [AmlListEnum]) lists!: ListKind[];
  @Field(() => AmlStatusEnum) status!: string;
  @Field(() => AmlRiskLevelEnum) riskLevel!: string;
  @Field(() => Int) matchCount!: number;
  @Field(() => [AmlMatchType]) matches!: AmlMatchType[];
  @Field(() => [String], { description: 'Lists (sources) screened against' }) listsChecked!: string[];
  @Field(() => [AmlListVersionType]) listVersions!: AmlListVersionType[];
  @Field(() => ID, { nullable: true }) batchId?: string | null;
  @Field() checkedAt!: Date;
  @Field(() => Date, { nullable: true, description: 'When the last open match was resolved' }) resolvedAt?: Date | null;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

@ObjectType('AmlScreeningPage')
export class AmlScreeningPage {
  @Field(() => [AmlScreeningType]) data!: AmlScreeningType[];
  @Field(() => Int) total!: number;
  @Field(() => Int) page!: number;
  @Field(() => Int) limit!: number;
}

@ObjectType('AmlBatchResult')
export class AmlBatchResultType {
  @Field(() => Int) position!: number;
  @Field() userId!: string;
  @Field() fullName!: string;
  @Field({ description: 'PENDING, FAILED, or the screening status' }) status!: string;
  @Field(() => ID, { nullable: true }) screeningId?: string | null;
  @Field(() => AmlRiskLevelEnum, { nullable: true }) riskLevel?: string | null;
  @Field(() => Int, { nullable: true }) matchCount?: number | null;
  @Field(() => String, { nullable: true }) error?: string | null;
  @Field(() => AmlScreeningType, { nullable: true }) screening?: AmlScreeningType | null;
}

@ObjectType('AmlBatch')
export class AmlBatchType {
  @Field(() => ID) id!: string;
  @Field(() => AmlBatchStatusEnum) status!: string;
  @Field(() => Int) total!: number;
  @Field(() => Int) processed!: number;
  @Field(() => Int) clearCount!: number;
  @Field(() => Int) flaggedCount!: number;
  @Field(() => Int) failedCount!: number;
  @Field(() => String, { nullable: true }) callbackUrl?: string | null;
  @Field(() => AmlCallbackStatusEnum, { nullable: true }) callbackStatus?: string | null;
  @Field(() => Int) callbackAttempts!: number;
  @Field(() => Int, { nullable: true }) callbackLastStatusCode?: number | null;
  @Field(() => Date, { nullable: true }) callbackDeliveredAt?: Date | null;
  @Field(() => Date, { nullable: true }) callbackNextAttemptAt?: Date | null;
  @Field() createdAt!: Date;
  @Field(() => Date, { nullable: true }) completedAt?: Date | null;
}

@ObjectType('AmlBatchAccepted')
export class AmlBatchAcceptedType {
  @Field(() => ID) id!: string;
  @Field(() => ID, { description: 'Same as id' }) batchId!: string;
  @Field(() => AmlBatchStatusEnum) status!: string;
  @Field(() => Int) total!: number;
  @Field(() => String, { nullable: true }) callbackUrl?: string | null;
  @Field(() => String, { nullable: true, description: 'whsec_… secret signing the callback like webhooks; shown once' }) callbackSecret?:
    string | null;
  @Field() message!: string;
  @Field() createdAt!: Date;
}

@InputType()
export class AmlScreeningInput {
  @Field()
  @MaxLength(255, { message: 'userId must be at most 255 characters' })
  userId!: string;

  @Field()
  @MaxLength(500, { message: 'fullName must be at most 500 characters' })
  fullName!: string;

  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD' })
  @IsOptional()
  dateOfBirth?: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-2' })
  @IsOptional()
  nationality?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(100, { message: 'documentNumber must be at most 100 characters' })
  documentNumber?: string | null;

  @Field(() => Float, { nullable: true, description: '0–1, default 0.85' })
  @IsOptional()
  matchThreshold?: number | null;

  @Field(() => [AmlListEnum], { nullable: true, description: 'Default: all four' })
  @IsOptional()
  lists?: ListKind[] | null;
}

@InputType()
export class AmlBatchInput {
  @Field(() => [AmlScreeningInput], { description: 'At most 100' })
  @ValidateNested({ each: true })
  subjects!: AmlScreeningInput[];

  @Field(() => String, { nullable: true, description: 'HTTPS URL POSTed (signed like webhooks) when the batch completes' })
  @IsOptional()
  @MaxLength(2048)
  callbackUrl?: string | null;
}

@InputType()
export class ResolveAmlMatchInput {
  @Field(() => AmlMatchDecisionEnum)
  resolution!: 'TRUE_POSITIVE' | 'FALSE_POSITIVE';

  @Field()
  @IsNotEmpty({ message: 'resolvedBy must not be empty' })
  @MaxLength(255)
  resolvedBy!: string;

  @Field({ description: 'Why (kept with the decision)' })
  @IsNotEmpty({ message: 'reason must not be empty' })
  @MaxLength(5000)
  reason!: string;
}
