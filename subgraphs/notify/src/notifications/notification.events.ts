import { insertEvents, type DomainEvent } from '../../../../platform/events/outbox.js';
import type { Sql } from '../../../../platform/db/transaction.js';
import type { NotificationView } from './notification.store.js';

export const NOTIFICATION_RESOURCE = 'notification';

/** `notification.dispatched` on acceptance (single sends), `notification.updated` on every channel change. */
export type NotificationEventName = 'notification.dispatched' | 'notification.updated';

/** The notification as subscriptions show it (dates as ISO strings). */
export function notificationSnapshot(v: NotificationView): Record<string, unknown> {
  const { organizationId: _o, environment: _e, ...visible } = v;
  return JSON.parse(JSON.stringify(visible)) as Record<string, unknown>;
}

function notificationEvent(event: NotificationEventName, v: NotificationView): DomainEvent {
  return {
    organizationId: v.organizationId,
    environment: v.environment,
    event,
    resourceType: NOTIFICATION_RESOURCE,
    resourceId: v.id,
    userId: v.recipientId,
    data: {
      notificationId: v.id,
      to: v.to,
      status: v.status,
      channels: Object.fromEntries(v.channels.map((c) => [c.channel, { status: c.status, reason: c.reason }])),
      ...(v.batchId ? { batchId: v.batchId } : {}),
    },
    snapshot: notificationSnapshot(v),
  };
}

/** Outbox rows for these notifications, in the caller's transaction. */
export function recordNotificationEvents(db: Sql, event: NotificationEventName, views: readonly NotificationView[]): Promise<void> {
  return insertEvents(
    db,
    views.map((v) => notificationEvent(event, v)),
  );
}
