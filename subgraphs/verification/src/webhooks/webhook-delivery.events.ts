/**
 * The outbox events of a webhook delivery, as `webhookDeliveryUpdated` and
 * `webhookDeliveryUpdatedForWebhook` read them: resource type `webhook_delivery`, resource id the
 * delivery's id, one event per move of the delivery (the names below), and as snapshot the
 * delivery's row without its tenant, claim and secret columns (`id`, `webhookId`, `eventId`,
 * `event`, `status`, `attemptCount`, `nextAttemptAt`, `deliveredAt`, `createdAt`, `body`).
 *
 * The code that moves deliveries is the platform's: the outbox relay creates them
 * (`webhook_delivery.created`), the delivery worker records attempts (`retrying`, `delivered`,
 * `failed`, also for a deactivated webhook) and `redeliver` makes them PENDING again
 * (`redelivered`). Each is to record its event in the transaction of the move; until it does,
 * the subscriptions are served and deliver nothing. These names are not webhook events: no webhook
 * can subscribe to them (a delivery about a delivery would never end).
 */
export const WEBHOOK_DELIVERY_RESOURCE = 'webhook_delivery';

export const WEBHOOK_DELIVERY_EVENT_DESCRIPTIONS: Record<string, string> = {
  'webhook_delivery.created': 'An event became a delivery to the webhook (PENDING, attempted at once)',
  'webhook_delivery.retrying': 'An attempt failed; the next one is scheduled (still PENDING)',
  'webhook_delivery.delivered': 'The receiver accepted the event (DELIVERED)',
  'webhook_delivery.failed': 'The last attempt failed, or the webhook was deactivated before it (FAILED)',
  'webhook_delivery.redelivered': 'A redelivery was asked for: PENDING again and attempted at once',
};
