/**
 * A webhook delivery's moves as outbox events (resource type `webhook_delivery`), recorded in the
 * statement that makes the move, so subscriptions follow a delivery's status as it changes. They
 * are not webhook events: no webhook can subscribe to them (a delivery about a delivery would
 * never end). Callbacks owned by another record (AML batches) report through their owner instead.
 */
export const WEBHOOK_DELIVERY_RESOURCE = 'webhook_delivery';

export const WEBHOOK_DELIVERY_EVENTS = {
  created: 'webhook_delivery.created',
  retrying: 'webhook_delivery.retrying',
  delivered: 'webhook_delivery.delivered',
  failed: 'webhook_delivery.failed',
  redelivered: 'webhook_delivery.redelivered',
} as const;

/**
 * SQL appended to a `with moved as (insert/update … returning *)` statement: one outbox event per
 * moved webhook delivery (`$event` is the parameter holding the event name), its snapshot the
 * delivery without tenant, claim and secret columns.
 */
export const deliveryEventsFrom = (moved: string, event: string) => `
  insert into platform.outbox_events (event_id, organization_id, environment, event, resource_type, resource_id, user_id, payload, snapshot, created_at)
  select gen_random_uuid(), d.organization_id, d.environment, ${event}, '${WEBHOOK_DELIVERY_RESOURCE}', d.id::text, null,
         jsonb_build_object('event', ${event}, 'timestamp', now(),
           'data', jsonb_build_object('deliveryId', d.id, 'webhookId', d.webhook_id, 'status', d.status, 'attemptCount', d.attempt_count)),
         jsonb_build_object('id', d.id, 'webhookId', d.webhook_id, 'eventId', d.event_id, 'event', d.event, 'status', d.status,
           'attemptCount', d.attempt_count, 'nextAttemptAt', d.next_attempt_at, 'deliveredAt', d.delivered_at,
           'createdAt', d.created_at, 'body', d.body),
         now()
    from ${moved} d where d.webhook_id is not null and ${event} is not null`;
