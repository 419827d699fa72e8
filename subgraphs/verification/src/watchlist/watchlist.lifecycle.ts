import { Lifecycle } from '../../../../platform/lifecycle.js';

export const SUBSCRIPTION_STATUSES = ['ACTIVE', 'CANCELLED'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
export const ALERT_STATUSES = ['OPEN', 'REVIEWED', 'DISMISSED'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];
/** The lists a subscription may watch (the spec's). */
export const WATCHLIST_LISTS = ['SANCTIONS', 'PEP', 'ADVERSE_MEDIA'] as const;

export type SubscriptionTrigger = 'subscribe' | 'unsubscribe';
export type AlertTrigger = 'detected' | 'cleared' | 'review' | 'dismiss';

/** The spec's subscription table: subscribe → ACTIVE (nextScanAt set); unsubscribe ACTIVE → CANCELLED (cancelledAt set). */
export const SUBSCRIPTION_LIFECYCLE = new Lifecycle<SubscriptionStatus, SubscriptionTrigger>(
  'a watchlist subscription',
  SUBSCRIPTION_STATUSES,
  [
    { from: [null], trigger: 'subscribe', to: 'ACTIVE', event: 'watchlist.subscribed' },
    { from: ['ACTIVE'], trigger: 'unsubscribe', to: 'CANCELLED', event: 'watchlist.unsubscribed' },
  ],
);

/**
 * Alerts: created OPEN when monitoring finds a new match; a reviewer moves an OPEN alert to
 * REVIEWED or DISMISSED; a match that leaves the lists clears its alert (`clearedAt`) whatever its
 * status.
 */
export const ALERT_LIFECYCLE = new Lifecycle<AlertStatus, AlertTrigger>('a watchlist alert', ALERT_STATUSES, [
  { from: [null], trigger: 'detected', to: 'OPEN', event: 'watchlist.alert' },
  { from: ALERT_STATUSES, trigger: 'cleared', to: null, event: 'watchlist.clear' },
  { from: ['OPEN'], trigger: 'review', to: 'REVIEWED', event: 'watchlist.alert_reviewed' },
  { from: ['OPEN'], trigger: 'dismiss', to: 'DISMISSED', event: 'watchlist.alert_dismissed' },
]);

/** What a scan found against what the subscription matched before: new alerts, refreshed and cleared matches. */
export function diffMatches<H extends { source: string; externalId: string }, M extends { source: string; externalId: string }>(
  hits: H[],
  current: M[],
): { added: H[]; kept: Array<[M, H]>; vanished: M[] } {
  const key = (x: { source: string; externalId: string }) => `${x.source}\u0000${x.externalId}`;
  const byKey = new Map(current.map((m) => [key(m), m]));
  const hitKeys = new Set(hits.map(key));
  return {
    added: hits.filter((h) => !byKey.has(key(h))),
    kept: hits.filter((h) => byKey.has(key(h))).map((h) => [byKey.get(key(h))!, h]),
    vanished: current.filter((m) => !hitKeys.has(key(m))),
  };
}
