import { WEBHOOK_DELIVERY_EVENTS as EVENT } from '../../../../platform/delivery/delivery.events.js';

export { WEBHOOK_DELIVERY_RESOURCE } from '../../../../platform/delivery/delivery.events.js';

/**
 * The moves of a webhook delivery that `webhookDeliveryUpdated` and
 * `webhookDeliveryUpdatedForWebhook` deliver: the platform's delivery worker, relay and
 * redelivery record them in the transaction of each move (platform/delivery/delivery.events.ts).
 */
export const WEBHOOK_DELIVERY_EVENT_DESCRIPTIONS: Record<string, string> = {
  [EVENT.created]: 'An event became a delivery to the webhook (PENDING, attempted at once)',
  [EVENT.retrying]: 'An attempt failed; the next one is scheduled (still PENDING)',
  [EVENT.delivered]: 'The receiver accepted the event (DELIVERED)',
  [EVENT.failed]: 'The last attempt failed, or the webhook was deactivated before it (FAILED)',
  [EVENT.redelivered]: 'A redelivery was asked for: PENDING again and attempted at once',
};
