import DataLoader from 'dataloader';
import { UserType } from '../user/user.type.js';
import { actorOf } from '../../../../platform/audit/audit.js';
import { Arg, Args, Ctx, Directive, FieldResolver, ID, Mutation, Query, Resolver, Subscription } from 'type-graphql';
import { Root } from '../../../../platform/graphql/root.js';
import { ConnectionArgs, LIST_SIZE, type Connection } from '../../../../platform/graphql/connection.js';
import { envelopeOf, reviveDates } from '../../../../platform/graphql/event-envelope.js';
import { authorize, tenantEvents } from '../../../../platform/graphql/tenancy.js';
import { notFound } from '../../../../platform/errors.js';
import type { StreamedEvent } from '../../../../platform/events/event-stream.js';
import type { ScreeningHitType } from '../../../../screening/screening-hit.type.js';
import type { VerificationContext } from '../verification.shared.js';
import type { WatchlistDeps } from './watchlist.service.js';
import type { AlertMatch, WatchlistAlert, WatchlistSubscription } from './watchlist.entity.js';
import { WatchlistService } from './watchlist.service.js';
import { WATCHLIST_ALERT_RESOURCE, WATCHLIST_SUBSCRIPTION_RESOURCE } from './watchlist.events.js';
import {
  CancelWatchlistSubscriptionInput,
  CancelWatchlistSubscriptionPayload,
  ReviewWatchlistAlertInput,
  ReviewWatchlistAlertPayload,
  SubscribeWatchlistInput,
  SubscribeWatchlistPayload,
  WatchlistAlertConnection,
  WatchlistAlertEvent,
  WatchlistAlertFilter,
  WatchlistAlertType,
  WatchlistSubscriptionConnection,
  WatchlistSubscriptionEvent,
  WatchlistSubscriptionFilter,
  WatchlistSubscriptionType,
} from './watchlist.type.js';

type Ctx = VerificationContext<{ watchlist: WatchlistDeps }>;
const MONITORING_READ = { service: 'verification', permission: 'monitoring:read' } as const;

function service(ctx: Ctx, access: 'read' | 'write'): WatchlistService {
  return new WatchlistService(ctx.em, authorize(ctx, 'verification', `monitoring:${access}`), ctx.deps.watchlist);
}

/** An alert's subscription is shown to whoever could reach the alert (a key that may only review sees it too). */
function related(ctx: Ctx): WatchlistService {
  try {
    return service(ctx, 'read');
  } catch {
    return service(ctx, 'write');
  }
}

/**
 * The subscriptions of the alerts being answered, read together (one query for a page of alerts);
 * nothing is cached between ticks, so a subscription's later events see its current state.
 */
const subscriptionLoaders = new WeakMap<Ctx, DataLoader<string, WatchlistSubscription | null>>();
function subscriptionOf(ctx: Ctx, id: string): Promise<WatchlistSubscription | null> {
  let loader = subscriptionLoaders.get(ctx);
  if (!loader) {
    loader = new DataLoader(
      async (ids: readonly string[]) => {
        const found = await related(ctx).findSubscriptions(ids);
        return ids.map((one) => found.find((s) => s.id === one) ?? null);
      },
      { cache: false },
    );
    subscriptionLoaders.set(ctx, loader);
  }
  return loader.load(id);
}

const toHit = (m: AlertMatch): ScreeningHitType => ({
  listName: m.listName,
  source: m.source,
  kind: m.kind,
  externalId: m.externalId,
  // alerts raised before the entity type was kept: the watchlist screens individuals only
  entityType: m.entityType ?? 'INDIVIDUAL',
  primaryName: m.primaryName,
  matchedName: m.matchedName,
  score: m.matchScore,
  programs: m.programs,
  addedDate: m.addedDate ?? null,
  listVersion: m.listVersion,
});

const toAlert = (a: WatchlistAlert): WatchlistAlertType => ({ ...a, match: toHit(a.match) });

const toAlerts = (page: Connection<WatchlistAlert>): Connection<WatchlistAlertType> => {
  const edges = page.edges.map((edge) => ({ cursor: edge.cursor, node: toAlert(edge.node) }));
  return { ...page, edges, nodes: edges.map((edge) => edge.node) };
};

const DATES = ['detectedAt', 'createdAt', 'clearedAt', 'reviewedAt', 'nextScanAt', 'lastScanAt', 'cancelledAt'];
/** Outbox snapshots carry dates as ISO strings; the GraphQL types want Date objects. */
const revive = (s: Record<string, unknown>) => reviveDates<Record<string, unknown>>(s, DATES);
const alertFromSnapshot = (s: Record<string, unknown>) => toAlert(revive(s) as unknown as WatchlistAlert);
const subscriptionFromSnapshot = (s: Record<string, unknown>) => revive(s) as unknown as WatchlistSubscriptionType;

/** Alert events of the caller's tenant: of one alert, of one user, or of some event names. */
const alertEvents = (ctx: Ctx, filter: { resourceId?: string; userId?: string; events?: string[] }) =>
  tenantEvents(ctx, MONITORING_READ, WATCHLIST_ALERT_RESOURCE, filter);
const subscriptionEvents = (ctx: Ctx, filter: { resourceId?: string; userId?: string }) =>
  tenantEvents(ctx, MONITORING_READ, WATCHLIST_SUBSCRIPTION_RESOURCE, filter);

@Resolver(() => WatchlistSubscriptionType)
export class WatchlistSubscriptionResolver {
  @Mutation(() => SubscribeWatchlistPayload, {
    description:
      'Starts monitoring a person: screened at once (a listed person gets an alert now), then on schedule and on every new list version; ' +
      'one ACTIVE subscription per person (otherwise a CONFLICT user error)',
  })
  async subscribeWatchlist(@Arg('input', { description: 'The person to monitor' }) input: SubscribeWatchlistInput, @Ctx() ctx: Ctx) {
    return { watchlistSubscription: await service(ctx, 'write').subscribe(input) };
  }

  @Mutation(() => CancelWatchlistSubscriptionPayload, {
    description: 'Cancels the monitoring of a person: no more screenings or alerts; the alerts raised stay',
  })
  async cancelWatchlistSubscription(
    @Arg('input', { description: 'The subscription to cancel' }) input: CancelWatchlistSubscriptionInput,
    @Ctx() ctx: Ctx,
  ) {
    return { watchlistSubscription: await service(ctx, 'write').cancel(input.id) };
  }

  @Query(() => WatchlistSubscriptionType, {
    nullable: true,
    description: 'One watchlist subscription; null when there is none with this id',
  })
  watchlistSubscription(@Arg('id', () => ID, { description: 'Its identifier' }) id: string, @Ctx() ctx: Ctx) {
    return service(ctx, 'read').findSubscription(id);
  }

  @Directive(LIST_SIZE)
  @Query(() => WatchlistSubscriptionConnection, {
    description: 'The organization’s watchlist subscriptions, newest first: of one person, or in one status',
  })
  watchlistSubscriptions(
    @Arg('filter', () => WatchlistSubscriptionFilter, { nullable: true, description: 'Which ones; all when absent' })
    filter: WatchlistSubscriptionFilter | null,
    @Args() page: ConnectionArgs,
    @Ctx() ctx: Ctx,
  ) {
    return service(ctx, 'read').listSubscriptions(filter ?? {}, page);
  }

  @Subscription(() => WatchlistSubscriptionEvent, {
    description: 'Every change of one watchlist subscription',
    subscribe: ({ args, context }) => subscriptionEvents(context as Ctx, { resourceId: (args as { id: string }).id }),
  })
  watchlistSubscriptionUpdated(
    @Root() event: StreamedEvent,
    @Arg('id', () => ID, { description: 'The subscription to follow' }) _id: string,
  ) {
    return envelopeOf(event, subscriptionFromSnapshot);
  }

  @Subscription(() => WatchlistSubscriptionEvent, {
    description: 'Every new watchlist subscription of one person and every change of them',
    subscribe: ({ args, context }) => subscriptionEvents(context as Ctx, { userId: (args as { userId: string }).userId }),
  })
  watchlistSubscriptionUpdatedForUser(
    @Root() event: StreamedEvent,
    @Arg('userId', { description: 'The person whose subscriptions to follow' }) _userId: string,
  ) {
    return envelopeOf(event, subscriptionFromSnapshot);
  }
}

@Resolver(() => WatchlistAlertType)
export class WatchlistAlertResolver {
  @Query(() => WatchlistAlertType, { nullable: true, description: 'One watchlist alert; null when there is none with this id' })
  async watchlistAlert(@Arg('id', () => ID, { description: 'Its identifier' }) id: string, @Ctx() ctx: Ctx) {
    const alert = await service(ctx, 'read').findAlert(id);
    return alert ? toAlert(alert) : null;
  }

  @Directive(LIST_SIZE)
  @Query(() => WatchlistAlertConnection, {
    description:
      'The organization’s watchlist alerts, newest first: of one person, of one subscription, or in one status (OPEN: the review queue)',
  })
  async watchlistAlerts(
    @Arg('filter', () => WatchlistAlertFilter, { nullable: true, description: 'Which ones; all when absent' })
    filter: WatchlistAlertFilter | null,
    @Args() page: ConnectionArgs,
    @Ctx() ctx: Ctx,
  ) {
    return toAlerts(await service(ctx, 'read').listAlerts(filter ?? {}, page));
  }

  @FieldResolver(() => WatchlistSubscriptionType, { description: 'The subscription whose monitoring raised the alert' })
  async subscription(@Root() alert: WatchlistAlertType, @Ctx() ctx: Ctx) {
    const subscription = await subscriptionOf(ctx, alert.subscriptionId);
    if (!subscription) throw notFound('Watchlist subscription', alert.subscriptionId);
    return subscription;
  }

  @Mutation(() => ReviewWatchlistAlertPayload, {
    description: 'Records a reviewer’s decision on an OPEN alert, with a note; only OPEN alerts (otherwise a CONFLICT user error)',
  })
  async reviewWatchlistAlert(
    @Arg('input', { description: 'The alert and the decision' }) input: ReviewWatchlistAlertInput,
    @Ctx() ctx: Ctx,
  ) {
    return { watchlistAlert: toAlert(await service(ctx, 'write').reviewAlert(input.id, input, actorOf(ctx.principal))) };
  }

  @Subscription(() => WatchlistAlertEvent, {
    description: 'Every new watchlist alert of the organization, as monitoring raises it (a review screen’s feed)',
    subscribe: ({ context }) => alertEvents(context as Ctx, { events: ['watchlist.alert'] }),
  })
  watchlistAlertCreated(@Root() event: StreamedEvent) {
    return envelopeOf(event, alertFromSnapshot);
  }

  @Subscription(() => WatchlistAlertEvent, {
    description: 'Every change of one watchlist alert: its entry leaving the lists, its review',
    subscribe: ({ args, context }) => alertEvents(context as Ctx, { resourceId: (args as { id: string }).id }),
  })
  watchlistAlertUpdated(@Root() event: StreamedEvent, @Arg('id', () => ID, { description: 'The alert to follow' }) _id: string) {
    return envelopeOf(event, alertFromSnapshot);
  }

  @Subscription(() => WatchlistAlertEvent, {
    description: 'Every new watchlist alert of one person and every change of them',
    subscribe: ({ args, context }) => alertEvents(context as Ctx, { userId: (args as { userId: string }).userId }),
  })
  watchlistAlertUpdatedForUser(
    @Root() event: StreamedEvent,
    @Arg('userId', { description: 'The person whose alerts to follow' }) _userId: string,
  ) {
    return envelopeOf(event, alertFromSnapshot);
  }

  @Subscription(() => WatchlistAlertEvent, {
    description:
      'Every new watchlist alert of the organization (a session token: of its user) and every change of them: the OPEN alerts’ review queue feed, alerts raised and reviewed',
    subscribe: ({ context }) => alertEvents(context as Ctx, {}),
  })
  watchlistAlertUpdatedForOrganization(@Root() event: StreamedEvent) {
    return envelopeOf(event, alertFromSnapshot);
  }
}

/** The user's watchlist monitoring, as fields of `User`. */
@Resolver(() => UserType)
export class WatchlistUserFields {
  @Directive(LIST_SIZE)
  @FieldResolver(() => WatchlistSubscriptionConnection, { description: 'The user’s watchlist subscriptions, newest first' })
  watchlistSubscriptions(@Root() user: UserType, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    return new WatchlistSubscriptionResolver().watchlistSubscriptions({ userId: user.id }, page, ctx);
  }

  @Directive(LIST_SIZE)
  @FieldResolver(() => WatchlistAlertConnection, { description: 'The watchlist alerts raised for the user, newest first' })
  watchlistAlerts(@Root() user: UserType, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    return new WatchlistAlertResolver().watchlistAlerts({ userId: user.id }, page, ctx);
  }
}
