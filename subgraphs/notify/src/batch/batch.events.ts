import { insertEvents } from '../../../../platform/events/outbox.js';
import type { Sql } from '../../../../platform/db/transaction.js';
import type { BatchView } from './batch.store.js';

export const BATCH_RESOURCE = 'notification_batch';

export function batchSnapshot(b: BatchView): Record<string, unknown> {
  const { organizationId: _o, environment: _e, ...visible } = b;
  return JSON.parse(JSON.stringify(visible)) as Record<string, unknown>;
}

export function recordBatchEvents(db: Sql, events: ReadonlyArray<{ event: string; batch: BatchView }>): Promise<void> {
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
