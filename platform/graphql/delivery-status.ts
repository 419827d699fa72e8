import { registerEnumType } from 'type-graphql';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../delivery/delivery.lifecycle.js';

/** Where a signed HTTP delivery stands (a webhook's event, an AML batch's callback): one enum for both. */
export const DeliveryStatusEnum = Object.fromEntries(DELIVERY_STATUSES.map((s) => [s, s])) as { [K in DeliveryStatus]: K };
registerEnumType(DeliveryStatusEnum, {
  name: 'DeliveryStatus',
  description: 'Where a signed HTTP delivery to your endpoint stands (a webhook event, a batch callback)',
  valuesConfig: {
    PENDING: { description: 'Waiting for its first attempt or for a retry' },
    DELIVERED: { description: 'Your endpoint accepted it (an HTTP 2xx answer)' },
    FAILED: { description: 'Every attempt failed (no more retries), or its webhook was deactivated before it was sent' },
  },
});
