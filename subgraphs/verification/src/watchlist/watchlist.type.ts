import { ArgsType, Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { IsNotEmpty, IsOptional, MaxLength } from 'class-validator';
import { PageArgs } from '../../../../platform/graphql/pagination.js';
import { AmlListEnum } from '../aml/aml.type.js';
import { ALERT_STATUSES, SUBSCRIPTION_STATUSES, WATCHLIST_LISTS } from './watchlist.lifecycle.js';

const enumOf = <T extends string>(values: readonly T[]) => Object.fromEntries(values.map((v) => [v, v])) as { [K in T]: K };

export const WatchlistListEnum = enumOf(WATCHLIST_LISTS);
export const WatchlistSubscriptionStatusEnum = enumOf(SUBSCRIPTION_STATUSES);
export const WatchlistAlertStatusEnum = enumOf(ALERT_STATUSES);
export const WatchlistAlertDecisionEnum = enumOf(['REVIEWED', 'DISMISSED'] as const);
registerEnumType(WatchlistListEnum, { name: 'WatchlistList' });
registerEnumType(WatchlistSubscriptionStatusEnum, { name: 'WatchlistSubscriptionStatus' });
registerEnumType(WatchlistAlertStatusEnum, { name: 'WatchlistAlertStatus' });
registerEnumType(WatchlistAlertDecisionEnum, { name: 'WatchlistAlertDecision' });

@ObjectType('WatchlistSubscription')
export class WatchlistSubscriptionType {
  @Field(() => ID) id!: string;
  @Field() userId!: string;
  @Field() fullName!: string;
  @Field(() => String, { nullable: true }) dateOfBirth?: string | null;
  @Field(() => String, { nullable: true }) nationality?: string | null;
  @Field(() => String, { nullable: true, description: 'Form B' }) country?: string | null;
  @Field(() => WatchlistSubscriptionStatusEnum) status!: string;
  @Field(() => [WatchlistListEnum]) lists!: string[];
  @Field(() => Float) matchThreshold!: number;
  @Field(() => Date, {
    nullable: true,
    description: 'Next scheduled re-screening (daily by default; every new list snapshot also triggers one)',
  })
  nextScanAt?: Date | null;
  @Field(() => Date, { nullable: true }) lastScanAt?: Date | null;
  @Field() createdAt!: Date;
  @Field(() => Date, { nullable: true }) cancelledAt?: Date | null;
}

@ObjectType('WatchlistAlertMatch')
export class WatchlistAlertMatchType {
  @Field() listName!: string;
  @Field(() => Float) matchScore!: number;
  @Field() matchedName!: string;
  @Field() source!: string;
  @Field(() => String, { nullable: true }) addedDate?: string | null;
  @Field(() => AmlListEnum) kind!: string;
  @Field() externalId!: string;
  @Field() primaryName!: string;
  @Field() listVersion!: string;
  @Field(() => [String]) programs!: string[];
}

@ObjectType('WatchlistAlert')
export class WatchlistAlertType {
  @Field(() => ID) id!: string;
  @Field(() => ID) subscriptionId!: string;
  @Field() userId!: string;
  @Field(() => WatchlistAlertStatusEnum) status!: string;
  @Field(() => WatchlistAlertMatchType) match!: WatchlistAlertMatchType;
  @Field() detectedAt!: Date;
  @Field(() => Date, { nullable: true, description: 'When the match left the lists (watchlist.clear)' }) clearedAt?: Date | null;
  @Field(() => String, { nullable: true }) reviewedBy?: string | null;
  @Field(() => String, { nullable: true }) reviewNote?: string | null;
  @Field(() => Date, { nullable: true }) reviewedAt?: Date | null;
}

@ObjectType('WatchlistPagination', { description: 'page, limit, total' })
export class PaginationType {
  @Field(() => Int) page!: number;
  @Field(() => Int) limit!: number;
  @Field(() => Int) total!: number;
}

@ObjectType('WatchlistSubscriptionList')
export class WatchlistSubscriptionList {
  @Field(() => [WatchlistSubscriptionType]) data!: WatchlistSubscriptionType[];
  @Field(() => PaginationType) pagination!: PaginationType;
}

@ObjectType('WatchlistAlertList')
export class WatchlistAlertList {
  @Field(() => [WatchlistAlertType]) data!: WatchlistAlertType[];
  @Field(() => PaginationType) pagination!: PaginationType;
}

@InputType()
export class WatchlistSubscribeInput {
  @Field()
  @MaxLength(255, { message: 'userId must be at most 255 characters' })
  userId!: string;

  @Field()
  @MaxLength(500, { message: 'fullName must be at most 500 characters' })
  fullName!: string;

  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD' })
  @IsOptional()
  dateOfBirth?: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-2; a matching qualifier' })
  @IsOptional()
  nationality?: string | null;

  @Field(() => String, { nullable: true, description: 'Form B: ISO 3166-1 alpha-2 (kept, not a matching qualifier)' })
  @IsOptional()
  country?: string | null;

  @Field(() => [WatchlistListEnum], { nullable: true, description: 'Form A; default all three' })
  @IsOptional()
  lists?: string[] | null;
}

@InputType()
export class ReviewWatchlistAlertInput {
  @Field(() => WatchlistAlertDecisionEnum)
  status!: 'REVIEWED' | 'DISMISSED';

  @Field()
  @IsNotEmpty({ message: 'reviewedBy must not be empty' })
  @MaxLength(255)
  reviewedBy!: string;

  @Field()
  @IsNotEmpty({ message: 'note must not be empty' })
  @MaxLength(5000)
  note!: string;
}

@ArgsType()
export class WatchlistAlertsArgs extends PageArgs {
  @Field(() => String, { nullable: true }) userId?: string | null;
  @Field(() => WatchlistAlertStatusEnum, { nullable: true }) status?: 'OPEN' | 'REVIEWED' | 'DISMISSED' | null;
  @Field(() => ID, { nullable: true }) subscriptionId?: string | null;
}

@ArgsType()
export class WatchlistSubscriptionsArgs extends PageArgs {
  @Field(() => WatchlistSubscriptionStatusEnum, { nullable: true }) status?: 'ACTIVE' | 'CANCELLED' | null;
  @Field(() => String, { nullable: true }) userId?: string | null;
}
