import { Lifecycle } from '../lifecycle.js';
import { WEBHOOK_DELIVERY_EVENTS as EVENT } from './delivery.events.js';

export const DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'FAILED'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export type DeliveryTrigger = 'created' | 'attempt.delivered' | 'attempt.retry' | 'attempt.failed' | 'target.inactive' | 'redeliver';

/**
 * A delivery: PENDING until a 2xx (DELIVERED) or until the retries are used up (FAILED); a delivery
 * whose webhook was deactivated fails without an attempt; a redelivery makes any delivery PENDING again.
 * A webhook delivery's every move is an outbox event (delivery.events.ts).
 */
export const DELIVERY_LIFECYCLE = new Lifecycle<DeliveryStatus, DeliveryTrigger>('a delivery', DELIVERY_STATUSES, [
  { from: [null], trigger: 'created', to: 'PENDING', event: EVENT.created },
  { from: ['PENDING'], trigger: 'attempt.delivered', to: 'DELIVERED', event: EVENT.delivered },
  { from: ['PENDING'], trigger: 'attempt.retry', to: 'PENDING', event: EVENT.retrying },
  { from: ['PENDING'], trigger: 'attempt.failed', to: 'FAILED', event: EVENT.failed },
  { from: ['PENDING'], trigger: 'target.inactive', to: 'FAILED', event: EVENT.failed },
  { from: ['PENDING', 'DELIVERED', 'FAILED'], trigger: 'redeliver', to: 'PENDING', event: EVENT.redelivered },
]);
