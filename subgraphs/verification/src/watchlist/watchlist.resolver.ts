import { Arg, Args, Ctx, ID, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { SubgraphContext } from '../../../../platform/graphql/subgraph.js';
import { authorize, tenantEvents } from '../../../../platform/graphql/tenancy.js';
import type { StreamedEvent } from '../../../../platform/events/event-stream.js';
import type { VerificationDeps } from '../deps.js';
import { WatchlistService } from './watchlist.service.js';
import { WATCHLIST_ALERT_RESOURCE } from './watchlist.events.js';
import {
  ReviewWatchlistAlertInput,
  WatchlistAlertList,
  WatchlistAlertsArgs,
  WatchlistAlertType,
  WatchlistSubscribeInput,
  WatchlistSubscriptionList,
  WatchlistSubscriptionsArgs,
  WatchlistSubscriptionType,
} from './watchlist.type.js';

type Ctx = SubgraphContext<VerificationDeps>;

function service(ctx: Ctx, access: 'read' | 'write'): WatchlistService {
  return new WatchlistService(ctx.em, authorize(ctx, 'verification', `monitoring:${access}`), ctx.deps.watchlist);
}

const DATES = ['detectedAt', 'clearedAt', 'reviewedAt'];
const alertFromSnapshot = (s: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(s).map(([k, v]) => [k, DATES.includes(k) && typeof v === 'string' ? new Date(v) : v]),
  ) as unknown as WatchlistAlertType;

/** Alerts of the caller's tenant, optionally of one user or subscription, for the given events. */
function alertStream(ctx: Ctx, args: { userId?: string }, events: string[] | null) {
  const access = { service: 'verification', permission: 'monitoring:read' } as const;
  return tenantEvents(ctx, access, WATCHLIST_ALERT_RESOURCE, { userId: args.userId, events });
}

@Resolver()
export class WatchlistResolver {
  @Mutation(() => WatchlistSubscriptionType, {
    description: 'Form A POST /monitoring/watchlist/subscribe, Form B POST /screening/watchlist/subscribe (201)',
  })
  subscribeWatchlist(@Arg('input') input: WatchlistSubscribeInput, @Ctx() ctx: Ctx) {
    return service(ctx, 'write').subscribe(input);
  }

  @Mutation(() => WatchlistSubscriptionType, {
    description: 'Form A DELETE /monitoring/watchlist/subscribe/{id}, Form B DELETE /screening/watchlist/unsubscribe/{id}',
  })
  unsubscribeWatchlist(@Arg('id', () => ID) id: string, @Ctx() ctx: Ctx) {
    return service(ctx, 'write').unsubscribe(id);
  }

  @Query(() => WatchlistSubscriptionType)
  watchlistSubscription(@Arg('id', () => ID) id: string, @Ctx() ctx: Ctx) {
    return service(ctx, 'read').getSubscription(id);
  }

  @Query(() => WatchlistSubscriptionList, { description: 'GET …/watchlist/subscriptions, newest first' })
  watchlistSubscriptions(@Args() { status, userId, page, limit }: WatchlistSubscriptionsArgs, @Ctx() ctx: Ctx) {
    return service(ctx, 'read').listSubscriptions({ status, userId }, page, limit);
  }

  @Query(() => WatchlistAlertList, { description: 'GET …/watchlist/alerts, newest first' })
  watchlistAlerts(@Args() { userId, status, subscriptionId, page, limit }: WatchlistAlertsArgs, @Ctx() ctx: Ctx) {
    return service(ctx, 'read').listAlerts({ userId, status, subscriptionId }, page, limit);
  }

  @Query(() => WatchlistAlertType)
  watchlistAlert(@Arg('id', () => ID) id: string, @Ctx() ctx: Ctx) {
    return service(ctx, 'read').getAlert(id);
  }

  @Mutation(() => WatchlistAlertType, { description: 'OPEN → REVIEWED or DISMISSED, with the reviewer and a note' })
  reviewWatchlistAlert(@Arg('id', () => ID) id: string, @Arg('input') input: ReviewWatchlistAlertInput, @Ctx() ctx: Ctx) {
    return service(ctx, 'write').reviewAlert(id, input);
  }

  @Subscription(() => WatchlistAlertType, {
    description: 'New alerts (watchlist.alert) of the organization, or of one user',
    subscribe: ({ args, context }) => alertStream(context as Ctx, args as { userId?: string }, ['watchlist.alert']),
  })
  watchlistAlertCreated(@Root() event: StreamedEvent, @Arg('userId', { nullable: true }) _userId?: string): WatchlistAlertType {
    return alertFromSnapshot(event.snapshot);
  }

  @Subscription(() => WatchlistAlertType, {
    description: 'Every alert change: new (watchlist.alert), match gone (watchlist.clear), reviewed or dismissed',
    subscribe: ({ args, context }) => alertStream(context as Ctx, args as { userId?: string }, null),
  })
  watchlistAlertUpdated(@Root() event: StreamedEvent, @Arg('userId', { nullable: true }) _userId?: string): WatchlistAlertType {
    return alertFromSnapshot(event.snapshot);
  }
}
