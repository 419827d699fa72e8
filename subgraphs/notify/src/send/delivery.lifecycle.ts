/** A channel's statuses: queued → sent → delivered → opened, or failed / undeliverable (with a reason). */
export const DELIVERY_STATUSES = ['queued', 'sent', 'delivered', 'opened', 'failed', 'undeliverable'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** No further change by the provider's own work (an email can still be opened). */
export const FINAL_STATUSES: readonly DeliveryStatus[] = ['delivered', 'opened', 'failed', 'undeliverable'];
/** The recipient got it, or the provider has it. */
export const SUCCESS_STATUSES: readonly DeliveryStatus[] = ['sent', 'delivered', 'opened'];

export type DeliveryTrigger =
  | 'accepted.unaddressable'
  | 'provider.sent'
  | 'provider.delivered'
  | 'provider.retry'
  | 'provider.failed'
  | 'provider.rejected'
  | 'report.delivered'
  | 'report.failed'
  | 'tracking.opened';

interface Transition {
  from: readonly (DeliveryStatus | 'new')[];
  trigger: DeliveryTrigger;
  to: DeliveryStatus;
}

/**
 * The channel lifecycle as data. Acceptance creates `queued` (or `undeliverable` when the recipient
 * has no address for the channel); the dispatch worker, delivery reports and the tracking pixel
 * move it on. Every SQL update of a status selects its rows with `from(trigger)`, so a late or
 * repeated report cannot move a channel backwards.
 */
export const DELIVERY_TRANSITIONS: readonly Transition[] = [
  { from: ['new'], trigger: 'accepted.unaddressable', to: 'undeliverable' },
  { from: ['queued'], trigger: 'provider.sent', to: 'sent' },
  { from: ['queued'], trigger: 'provider.delivered', to: 'delivered' },
  { from: ['queued'], trigger: 'provider.retry', to: 'queued' },
  { from: ['queued'], trigger: 'provider.failed', to: 'failed' },
  { from: ['queued'], trigger: 'provider.rejected', to: 'undeliverable' },
  { from: ['sent'], trigger: 'report.delivered', to: 'delivered' },
  { from: ['sent'], trigger: 'report.failed', to: 'failed' },
  { from: ['sent', 'delivered'], trigger: 'tracking.opened', to: 'opened' },
];

export function transitionOf(trigger: DeliveryTrigger): Transition {
  return DELIVERY_TRANSITIONS.find((t) => t.trigger === trigger)!;
}

/** The statuses a trigger applies to (for `where status = any(…)`). */
export const fromStatuses = (trigger: DeliveryTrigger): string[] => transitionOf(trigger).from.filter((s) => s !== 'new');

/** A notification's status, from its channels': dispatched until every channel is final. */
export const NOTIFICATION_STATUSES = ['dispatched', 'delivered', 'partially_delivered', 'failed'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

export function notificationStatus(channels: readonly DeliveryStatus[]): NotificationStatus {
  if (!channels.every((s) => FINAL_STATUSES.includes(s))) return 'dispatched';
  const ok = channels.filter((s) => s === 'delivered' || s === 'opened').length;
  return ok === channels.length ? 'delivered' : ok === 0 ? 'failed' : 'partially_delivered';
}

/** SQL for `notificationStatus` over a notification's deliveries (keep the two in step). */
export const NOTIFICATION_STATUS_SQL = `case
  when bool_or(d.status in ('queued', 'sent')) then 'dispatched'
  when bool_and(d.status in ('delivered', 'opened')) then 'delivered'
  when bool_or(d.status in ('delivered', 'opened')) then 'partially_delivered'
  else 'failed' end`;
