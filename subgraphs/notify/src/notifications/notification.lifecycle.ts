import { Lifecycle, deriveStatus, deriveStatusSql, type StatusRule } from '../../../../platform/lifecycle.js';

/** A channel's statuses: queued → sent → delivered → opened, or failed / undeliverable (with a reason). */
export const DELIVERY_STATUSES = ['queued', 'sent', 'delivered', 'opened', 'failed', 'undeliverable'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** The recipient got it, or the provider has it. */
export const SUCCESS_STATUSES: readonly DeliveryStatus[] = ['sent', 'delivered', 'opened'];

export type DeliveryTrigger =
  | 'accepted'
  | 'accepted.unaddressable'
  | 'provider.sent'
  | 'provider.delivered'
  | 'provider.retry'
  | 'provider.failed'
  | 'provider.rejected'
  | 'report.delivered'
  | 'report.failed'
  | 'tracking.opened';

/**
 * The channel lifecycle. Acceptance creates `queued` (or `undeliverable` when the recipient has no
 * address for the channel); the dispatch worker, delivery reports and the tracking pixel move it on.
 * Every SQL update of a status selects its rows with `sources(trigger)`, so a late or repeated
 * report cannot move a channel backwards.
 */
export const CHANNEL_LIFECYCLE = new Lifecycle<DeliveryStatus, DeliveryTrigger>('a notification channel', DELIVERY_STATUSES, [
  { from: [null], trigger: 'accepted', to: 'queued' },
  { from: [null], trigger: 'accepted.unaddressable', to: 'undeliverable' },
  { from: ['queued'], trigger: 'provider.sent', to: 'sent' },
  { from: ['queued'], trigger: 'provider.delivered', to: 'delivered' },
  { from: ['queued'], trigger: 'provider.retry', to: 'queued' },
  { from: ['queued'], trigger: 'provider.failed', to: 'failed' },
  { from: ['queued'], trigger: 'provider.rejected', to: 'undeliverable' },
  { from: ['sent'], trigger: 'report.delivered', to: 'delivered' },
  { from: ['sent'], trigger: 'report.failed', to: 'failed' },
  { from: ['sent', 'delivered'], trigger: 'tracking.opened', to: 'opened' },
]);

/** A notification's status, from its channels': dispatched until every channel is final. */
export const NOTIFICATION_STATUSES = ['dispatched', 'delivered', 'partially_delivered', 'failed'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

const NOTIFICATION_STATUS_RULES: readonly StatusRule<NotificationStatus, DeliveryStatus>[] = [
  { status: 'dispatched', when: 'any', of: ['queued', 'sent'] },
  { status: 'delivered', when: 'all', of: ['delivered', 'opened'] },
  { status: 'partially_delivered', when: 'any', of: ['delivered', 'opened'] },
  { status: 'failed', when: 'otherwise' },
];

/** A notification's status from its channels' (at acceptance). */
export const notificationStatus = (channels: readonly DeliveryStatus[]): NotificationStatus =>
  deriveStatus(NOTIFICATION_STATUS_RULES, channels);

/** The same rules in SQL, over the channel statuses in `column` of a `group by` notification. */
export const notificationStatusSql = (column: string): string => deriveStatusSql(NOTIFICATION_STATUS_RULES, column);

/** A batch is processing until every recipient was processed (each channel handed to a provider or given up). */
export const BATCH_STATUSES = ['processing', 'completed'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];
export type BatchTrigger = 'accepted' | 'accepted.all_processed' | 'recipients.processed' | 'recipients.completed';

export const BATCH_LIFECYCLE = new Lifecycle<BatchStatus, BatchTrigger>('a batch', BATCH_STATUSES, [
  { from: [null], trigger: 'accepted', to: 'processing', event: 'batch.created' },
  // every recipient was unaddressable on every channel: nothing to dispatch
  { from: [null], trigger: 'accepted.all_processed', to: 'completed', event: 'batch.created' },
  { from: ['processing'], trigger: 'recipients.processed', to: 'processing', event: 'batch.progress' },
  { from: ['processing'], trigger: 'recipients.completed', to: 'completed', event: 'batch.completed' },
]);
