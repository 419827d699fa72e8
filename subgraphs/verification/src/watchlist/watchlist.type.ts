import { Field, Float, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { ScreenedPersonFields } from '../screened-person/screened-person.js';
import { IsNotEmpty, IsOptional, MaxLength } from 'class-validator';
import type { ListKind } from '../../../../screening/index.js';
import { ScreeningHitType, ScreeningListKindEnum } from '../../../../screening/screening-hit.type.js';
import { ConnectionType } from '../../../../platform/graphql/connection.js';
import { EventEnvelopeType } from '../../../../platform/graphql/event-envelope.js';
import { UserError } from '../../../../platform/graphql/user-errors.js';
import { CountryCode, LocalDate } from '../../../../platform/graphql/scalars.js';
import {
  ALERT_STATUSES,
  SUBSCRIPTION_STATUSES,
  WATCHLIST_LISTS,
  type AlertStatus,
  type SubscriptionStatus,
} from './watchlist.lifecycle.js';

const enumOf = <T extends string>(values: readonly T[]) => Object.fromEntries(values.map((v) => [v, v])) as { [K in T]: K };

export const WatchlistSubscriptionStatusEnum = enumOf(SUBSCRIPTION_STATUSES);
export const WatchlistAlertStatusEnum = enumOf(ALERT_STATUSES);
export const WatchlistAlertDecisionEnum = enumOf(['REVIEWED', 'DISMISSED'] as const);
/** The ScreeningListKinds a subscription may watch (input only: outputs say ScreeningListKind). */
export const WatchlistListKindEnum = enumOf(WATCHLIST_LISTS);
registerEnumType(WatchlistSubscriptionStatusEnum, {
  name: 'WatchlistSubscriptionStatus',
  description: 'Whether a person is being monitored',
  valuesConfig: {
    ACTIVE: { description: 'Monitored: rescreened on schedule and on every new list version' },
    CANCELLED: { description: 'No longer monitored' },
  },
});
registerEnumType(WatchlistAlertStatusEnum, {
  name: 'WatchlistAlertStatus',
  description: 'Where an alert stands in review',
  valuesConfig: {
    OPEN: { description: 'Waiting for a reviewer (the review queue)' },
    REVIEWED: { description: 'A reviewer acted on it' },
    DISMISSED: { description: 'A reviewer dismissed it (e.g. a namesake)' },
  },
});
registerEnumType(WatchlistListKindEnum, {
  name: 'WatchlistListKind',
  description: 'The kinds of lists monitoring can watch: the ScreeningListKinds but LAW_ENFORCEMENT',
  valuesConfig: {
    SANCTIONS: { description: 'Sanctioned people and entities' },
    PEP: { description: 'Politically exposed persons' },
    ADVERSE_MEDIA: { description: 'People named in adverse media' },
  },
});
registerEnumType(WatchlistAlertDecisionEnum, {
  name: 'WatchlistAlertDecision',
  description: 'A reviewer’s decision on an OPEN alert',
  valuesConfig: {
    REVIEWED: { description: 'The alert was acted on' },
    DISMISSED: { description: 'The alert does not concern the person' },
  },
});

@ObjectType('WatchlistSubscription', { description: 'The monitoring of one person against the lists, rescreened over time' })
export class WatchlistSubscriptionType {
  @Field(() => ID, { description: 'Identifier of the subscription' })
  id!: string;

  @Field({ description: 'Your identifier of the person monitored' })
  userId!: string;

  @Field(() => String, { nullable: true, description: 'The name monitored; null once the person was erased (eraseUser)' })
  fullName?: string | null;

  @Field(() => LocalDate, { nullable: true, description: 'The date of birth given, compared with the listed ones' })
  dateOfBirth?: string | null;

  @Field(() => CountryCode, { nullable: true, description: 'The nationality given, compared with the listed ones' })
  nationality?: string | null;

  @Field(() => CountryCode, { nullable: true, description: 'The country of residence given (kept, not compared)' })
  country?: string | null;

  @Field(() => WatchlistSubscriptionStatusEnum, { description: 'Whether the person is still monitored' })
  status!: string;

  @Field(() => [ScreeningListKindEnum], { description: 'The kinds of lists watched' })
  lists!: ListKind[];

  @Field(() => Float, { description: 'The score from which an entry counts as a match, 0 to 1' })
  matchThreshold!: number;

  @Field(() => Date, {
    nullable: true,
    description: 'The next scheduled rescreening (every new list version also rescreens); null once cancelled',
  })
  nextScanAt?: Date | null;

  @Field(() => Date, { nullable: true, description: 'When the person was last screened' })
  lastScanAt?: Date | null;

  @Field({ description: 'When monitoring started' })
  createdAt!: Date;

  @Field(() => Date, { nullable: true, description: 'When monitoring was cancelled' })
  cancelledAt?: Date | null;
}

@ObjectType('WatchlistAlert', { description: 'A list entry that monitoring found for a person, and its review' })
export class WatchlistAlertType {
  @Field(() => ID, { description: 'Identifier of the alert' })
  id!: string;

  /** Loaded by a field resolver (watchlist.resolver.ts). */
  subscriptionId!: string;

  @Field({ description: 'Your identifier of the person' })
  userId!: string;

  @Field(() => WatchlistAlertStatusEnum, { description: 'Where it stands in review' })
  status!: string;

  @Field(() => ScreeningHitType, { description: 'The list entry found' })
  match!: ScreeningHitType;

  @Field({ description: 'When the entry was found' })
  detectedAt!: Date;

  @Field(() => Date, { nullable: true, description: 'When the entry left the lists (the alert keeps its review status)' })
  clearedAt?: Date | null;

  @Field(() => String, { nullable: true, description: 'Who reviewed it' })
  reviewedBy?: string | null;

  @Field(() => String, { nullable: true, description: 'The reviewer’s note' })
  reviewNote?: string | null;

  @Field(() => Date, { nullable: true, description: 'When it was reviewed' })
  reviewedAt?: Date | null;
}

export const WatchlistSubscriptionConnection = ConnectionType('WatchlistSubscription', WatchlistSubscriptionType, 'watchlist subscription');
export const WatchlistAlertConnection = ConnectionType('WatchlistAlert', WatchlistAlertType, 'watchlist alert');

export const WatchlistSubscriptionEvent = EventEnvelopeType(
  'WatchlistSubscription',
  WatchlistSubscriptionType,
  {
    'watchlist.subscribed': 'Monitoring started',
    'watchlist.unsubscribed': 'Monitoring was cancelled',
  },
  'a watchlist subscription',
);
export const WatchlistAlertEvent = EventEnvelopeType(
  'WatchlistAlert',
  WatchlistAlertType,
  {
    'watchlist.alert': 'Monitoring found a new list entry for the person',
    'watchlist.clear': 'The entry left the lists',
    'watchlist.alert_reviewed': 'A reviewer acted on the alert',
    'watchlist.alert_dismissed': 'A reviewer dismissed the alert',
  },
  'a watchlist alert',
);

@InputType('SubscribeWatchlistInput', { description: 'A person to monitor' })
export class SubscribeWatchlistInput extends ScreenedPersonFields {
  @Field({ description: 'Your identifier of the person (any text up to 255 characters); one ACTIVE subscription per person' })
  @MaxLength(255, { message: 'userId must be at most 255 characters' })
  userId!: string;

  @Field(() => String, { nullable: true, description: 'Country of residence, ISO 3166-1 alpha-2 (uppercase): kept, not compared' })
  @IsOptional()
  country?: string | null;

  @Field(() => [WatchlistListKindEnum], { nullable: true, description: 'The kinds of lists to watch; default all three' })
  @IsOptional()
  lists?: string[] | null;
}

@InputType('CancelWatchlistSubscriptionInput', { description: 'A subscription to cancel' })
export class CancelWatchlistSubscriptionInput {
  @Field(() => ID, { description: 'The ACTIVE subscription' })
  id!: string;
}

@InputType('ReviewWatchlistAlertInput', { description: 'A reviewer’s decision on an OPEN alert' })
export class ReviewWatchlistAlertInput {
  @Field(() => ID, { description: 'The alert' })
  id!: string;

  @Field(() => WatchlistAlertDecisionEnum, { description: 'The decision' })
  status!: 'REVIEWED' | 'DISMISSED';

  @Field({ description: 'Who decides (name or e-mail of the reviewer)' })
  @IsNotEmpty({ message: 'reviewedBy must not be empty' })
  @MaxLength(255)
  reviewedBy!: string;

  @Field({ description: 'Why: kept with the decision' })
  @IsNotEmpty({ message: 'note must not be empty' })
  @MaxLength(5000)
  note!: string;
}

@InputType('WatchlistSubscriptionFilter', { description: 'Which subscriptions to list (all of the organization when empty)' })
export class WatchlistSubscriptionFilter {
  @Field(() => String, { nullable: true, description: 'Only this person’s' })
  userId?: string | null;

  @Field(() => WatchlistSubscriptionStatusEnum, { nullable: true, description: 'Only in this status' })
  status?: SubscriptionStatus | null;
}

@InputType('WatchlistAlertFilter', { description: 'Which alerts to list (all of the organization when empty)' })
export class WatchlistAlertFilter {
  @Field(() => String, { nullable: true, description: 'Only this person’s' })
  userId?: string | null;

  @Field(() => WatchlistAlertStatusEnum, { nullable: true, description: 'Only in this status (OPEN: the review queue)' })
  status?: AlertStatus | null;

  @Field(() => ID, { nullable: true, description: 'Only this subscription’s' })
  subscriptionId?: string | null;
}

@ObjectType('SubscribeWatchlistPayload', { description: 'The result of subscribeWatchlist' })
export class SubscribeWatchlistPayload {
  @Field(() => WatchlistSubscriptionType, { nullable: true, description: 'The ACTIVE subscription, screened once already' })
  watchlistSubscription?: WatchlistSubscriptionType | null;

  @Field(() => [UserError], { description: 'Mistakes in the input, or a person already monitored; empty on success' })
  userErrors!: UserError[];
}

@ObjectType('CancelWatchlistSubscriptionPayload', { description: 'The result of cancelWatchlistSubscription' })
export class CancelWatchlistSubscriptionPayload {
  @Field(() => WatchlistSubscriptionType, { nullable: true, description: 'The CANCELLED subscription' })
  watchlistSubscription?: WatchlistSubscriptionType | null;

  @Field(() => [UserError], { description: 'A subscription that does not exist or was cancelled before; empty on success' })
  userErrors!: UserError[];
}

@ObjectType('ReviewWatchlistAlertPayload', { description: 'The result of reviewWatchlistAlert' })
export class ReviewWatchlistAlertPayload {
  @Field(() => WatchlistAlertType, { nullable: true, description: 'The alert with its decision' })
  watchlistAlert?: WatchlistAlertType | null;

  @Field(() => [UserError], { description: 'Mistakes in the input, or an alert reviewed before; empty on success' })
  userErrors!: UserError[];
}
