import type pg from 'pg';
import { isUuid } from '../../../../platform/ids.js';
import type { TemplateContent } from '../templates/template.content.js';
import { inTransaction } from '../../../../platform/db/transaction.js';
import { CHANNEL_LIFECYCLE, type DeliveryTrigger } from './notification.lifecycle.js';
import { loadViews } from './notification.store.js';
import { lockNotifications, recordBatchProgress, refreshNotifications } from './progress.js';
import { recordNotificationEvents } from './notification.events.js';

export type DeliveryLookup = { trackingToken: string } | { provider: string; providerMessageId: string } | { deliveryId: string };

/** A delivery with what it needs to be rendered again (a voice call's text, said when it is answered). */
export interface DeliveryToRender {
  id: string;
  channel: string;
  status: string;
  providerMessageId: string | null;
  templateId: string;
  content: TemplateContent;
  data: Record<string, unknown>;
}

/** The delivery of `provider` with this provider message id or, when given, this delivery id; null when there is none. */
export async function findDeliveryToRender(
  pool: pg.Pool,
  provider: string,
  by: { providerMessageId?: string; deliveryId?: string },
): Promise<DeliveryToRender | null> {
  const { rows } = await pool.query<DeliveryToRender>(
    `select d.id, d.channel, d.status, d.provider_message_id as "providerMessageId", n.template_id as "templateId", t.content, n.data
       from notify.deliveries d join notify.notifications n on n.id = d.notification_id join notify.templates t on t.id = n.template_id
      where d.provider = $1 and (d.id = $2::uuid or d.provider_message_id = $3)
      order by d.id = $2::uuid desc limit 1`,
    [provider, by.deliveryId && isUuid(by.deliveryId) ? by.deliveryId : null, by.providerMessageId ?? null],
  );
  return rows[0] ?? null;
}

/**
 * A change reported after the send (a delivery report, an opened pixel), in one transaction with the
 * notification's new status and its outbox event. Returns `unchanged` when the lifecycle does not
 * allow it from the channel's current status (repeated opens, late or duplicate reports).
 */
export async function applyDeliveryReport(
  pool: pg.Pool,
  lookup: DeliveryLookup,
  trigger: Extract<DeliveryTrigger, 'report.delivered' | 'report.failed' | 'tracking.opened'>,
  reason?: string,
): Promise<'changed' | 'unchanged' | 'not_found'> {
  const [where, values] =
    'trackingToken' in lookup
      ? ['tracking_token = $1', [lookup.trackingToken]]
      : 'deliveryId' in lookup
        ? ['id = $1', [lookup.deliveryId]]
        : ['provider = $1 and provider_message_id = $2', [lookup.provider, lookup.providerMessageId]];
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query<{ id: string; notification_id: string }>(
      `select id, notification_id from notify.deliveries where ${where}`,
      values,
    );
    if (!rows[0]) return 'not_found';
    const { id, notification_id: notificationId } = rows[0];
    await lockNotifications(client, [notificationId]);
    const updated = await client.query(
      `update notify.deliveries
          set status = $2, reason = coalesce($4, reason), updated_at = now(),
              opened_at = case when $2 = 'opened' then coalesce(opened_at, now()) else opened_at end,
              delivered_at = case when $2 = 'delivered' then now() else delivered_at end,
              failed_at = case when $2 = 'failed' then now() else failed_at end
        where id = $1 and status = any($3::text[])`,
      [id, CHANNEL_LIFECYCLE.target(trigger), CHANNEL_LIFECYCLE.sources(trigger), reason ?? null],
    );
    if (!updated.rowCount) return 'unchanged';
    const refreshed = await refreshNotifications(client, [notificationId]);
    await recordNotificationEvents(client, 'notification.updated', await loadViews(client, [notificationId]));
    await recordBatchProgress(client, refreshed);
    return 'changed';
  });
}
