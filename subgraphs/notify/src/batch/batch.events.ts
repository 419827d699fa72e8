import { insertEvents } from '../../../../platform/events/outbox.js';
import type { Db } from '../send/notification.store.js';
import type { BatchView } from './batch.store.js';

export const BATCH_RESOURCE = 'notification_batch';

export type BatchEventName = 'batch.created' | 'batch.progress' | 'batch.completed';

export function batchSnapshot(b: BatchView): Record<string, unknown> {
  const { organizationId: _o, environment: _e, ...visible } = b;
  return JSON.parse(JSON.stringify(visible)) as Record<string, unknown>;
}

export function recordBatchEvents(db: Db, events: ReadonlyArray<{ event: BatchEventName; batch: BatchView }>): Promise<void> {
  return insertEvents(
    db,
    events.map(({ event, batch }) => ({
      organizationId: batch.organizationId,
      environment: batch.environment,
      event,
      resourceType: BATCH_RESOURCE,
      resourceId: batch.id,
      data: {
        batchId: batch.id,
        total: batch.total,
        queued: batch.queued,
        processed: batch.processed,
        succeeded: batch.succeeded,
        failed: batch.failed,
        status: batch.status,
      },
      snapshot: batchSnapshot(batch),
    })),
  );
}
