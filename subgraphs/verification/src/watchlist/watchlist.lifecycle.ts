import { conflict } from '../../../../platform/errors.js';

export const SUBSCRIPTION_STATUSES = ['ACTIVE', 'CANCELLED'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
export const ALERT_STATUSES = ['OPEN', 'REVIEWED', 'DISMISSED'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];
/** The lists a subscription may watch (the spec's). */
export const WATCHLIST_LISTS = ['SANCTIONS', 'PEP', 'ADVERSE_MEDIA'] as const;

interface Move<S extends string, T extends string> {
  from: readonly (S | null)[];
  trigger: T;
  to: S;
  event: string;
}

/** The spec's subscription table: subscribe → ACTIVE (nextScanAt set); unsubscribe ACTIVE → CANCELLED (cancelledAt set). */
export const SUBSCRIPTION_TRANSITIONS: readonly Move<SubscriptionStatus, 'subscribe' | 'unsubscribe'>[] = [
  { from: [null], trigger: 'subscribe', to: 'ACTIVE', event: 'watchlist.subscribed' },
  { from: ['ACTIVE'], trigger: 'unsubscribe', to: 'CANCELLED', event: 'watchlist.unsubscribed' },
];

/** Alerts: created OPEN when monitoring finds a new match; a reviewer moves an OPEN alert to REVIEWED or DISMISSED. */
export const ALERT_TRANSITIONS: readonly Move<AlertStatus, 'detected' | 'review' | 'dismiss'>[] = [
  { from: [null], trigger: 'detected', to: 'OPEN', event: 'watchlist.alert' },
  { from: ['OPEN'], trigger: 'review', to: 'REVIEWED', event: 'watchlist.alert_reviewed' },
  { from: ['OPEN'], trigger: 'dismiss', to: 'DISMISSED', event: 'watchlist.alert_dismissed' },
];

function find<S extends string, T extends string>(table: readonly Move<S, T>[], from: S | null, trigger: T, what: string): Move<S, T> {
  const t = table.find((x) => x.trigger === trigger && x.from.includes(from));
  if (!t) throw conflict(`Cannot ${trigger} a ${what} in status ${from ?? 'none'}`);
  return t;
}

export const subscriptionTransition = (from: SubscriptionStatus | null, trigger: 'subscribe' | 'unsubscribe') =>
  find(SUBSCRIPTION_TRANSITIONS, from, trigger, 'watchlist subscription');
export const alertTransition = (from: AlertStatus | null, trigger: 'detected' | 'review' | 'dismiss') =>
  find(ALERT_TRANSITIONS, from, trigger, 'watchlist alert');

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
