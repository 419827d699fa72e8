import { Lifecycle } from '../lifecycle.js';

export const DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'FAILED'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export type DeliveryTrigger = 'created' | 'attempt.delivered' | 'attempt.retry' | 'attempt.failed' | 'target.inactive' | 'redeliver';

/**
 * A delivery: PENDING until a 2xx (DELIVERED) or until the retries are used up (FAILED); a delivery
 * whose webhook was deactivated fails without an attempt; a redelivery makes any delivery PENDING again.
 */
export const DELIVERY_LIFECYCLE = new Lifecycle<DeliveryStatus, DeliveryTrigger>('a delivery', DELIVERY_STATUSES, [
  { from: [null], trigger: 'created', to: 'PENDING' },
  { from: ['PENDING'], trigger: 'attempt.delivered', to: 'DELIVERED' },
  { from: ['PENDING'], trigger: 'attempt.retry', to: 'PENDING' },
  { from: ['PENDING'], trigger: 'attempt.failed', to: 'FAILED' },
  { from: ['PENDING'], trigger: 'target.inactive', to: 'FAILED' },
  { from: ['PENDING', 'DELIVERED', 'FAILED'], trigger: 'redeliver', to: 'PENDING' },
]);
