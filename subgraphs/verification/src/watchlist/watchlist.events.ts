import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '../../../../platform/events/outbox.js';
import type { AlertMatch, WatchlistAlert, WatchlistSubscription } from './watchlist.entity.js';

export const WATCHLIST_SUBSCRIPTION_RESOURCE = 'watchlist_subscription';
export const WATCHLIST_ALERT_RESOURCE = 'watchlist_alert';

/** A subscription or alert as clients read it (no tenant columns). */
export const watchlistRecord = <T extends { organizationId: string; environment: string }>(x: T) => {
  const { organizationId: _o, environment: _e, ...rest } = x;
  return JSON.parse(JSON.stringify(rest)) as Record<string, unknown>;
};

export function recordSubscriptionEvent(em: EntityManager, event: string, s: WatchlistSubscription): void {
  recordEvent(em, {
    organizationId: s.organizationId,
    environment: s.environment,
    event,
    resourceType: WATCHLIST_SUBSCRIPTION_RESOURCE,
    resourceId: s.id,
    userId: s.userId,
    data: {
      subscriptionId: s.id,
      userId: s.userId,
      status: s.status,
      lists: s.lists,
      nextScanAt: s.nextScanAt?.toISOString() ?? null,
      cancelledAt: s.cancelledAt?.toISOString() ?? null,
    },
    snapshot: watchlistRecord(s),
  });
}

/** The match as webhooks have always carried it (entityType is for the graph only). */
function webhookMatch({ entityType: _t, ...match }: AlertMatch): Omit<AlertMatch, 'entityType'> {
  return match;
}

/** watchlist.alert (new match), watchlist.clear (the match left the lists), reviews. */
export function recordAlertEvent(em: EntityManager, event: string, a: WatchlistAlert): void {
  recordEvent(em, {
    organizationId: a.organizationId,
    environment: a.environment,
    event,
    resourceType: WATCHLIST_ALERT_RESOURCE,
    resourceId: a.id,
    userId: a.userId,
    data: {
      alertId: a.id,
      subscriptionId: a.subscriptionId,
      userId: a.userId,
      status: a.status,
      match: webhookMatch(a.match),
      detectedAt: a.detectedAt.toISOString(),
      ...(a.clearedAt ? { clearedAt: a.clearedAt.toISOString() } : {}),
      ...(a.reviewedBy ? { reviewedBy: a.reviewedBy, reviewNote: a.reviewNote, reviewedAt: a.reviewedAt?.toISOString() } : {}),
    },
    snapshot: watchlistRecord(a),
  });
}
