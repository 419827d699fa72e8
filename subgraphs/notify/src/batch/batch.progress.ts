import type { Db, Refreshed } from '../send/notification.store.js';
import { recordBatchEvents } from './batch.events.js';
import { BATCH_COLUMNS, toBatchView } from './batch.store.js';

/**
 * Counts recipients of batches that were processed in the caller's transaction (every channel handed
 * to a provider or given up) and records `batch.progress`, or `batch.completed` for the last ones.
 */
export async function recordBatchProgress(db: Db, refreshed: readonly Refreshed[]): Promise<void> {
  const counts = new Map<string, { processed: number; succeeded: number }>();
  for (const r of refreshed) {
    if (!r.batchId || !r.newlyProcessed) continue;
    const c = counts.get(r.batchId) ?? { processed: 0, succeeded: 0 };
    c.processed += 1;
    if (r.succeeded) c.succeeded += 1;
    counts.set(r.batchId, c);
  }
  const events = [];
  for (const [batchId, c] of [...counts].sort(([a], [b]) => a.localeCompare(b))) {
    const { rows } = await db.query(
      `update notify.batches
          set processed = processed + $2, succeeded = succeeded + $3, failed = failed + ($2 - $3),
              status = case when processed + $2 >= total then 'completed' else status end,
              completed_at = case when processed + $2 >= total and completed_at is null then now() else completed_at end
        where id = $1 returning ${BATCH_COLUMNS}`,
      [batchId, c.processed, c.succeeded],
    );
    if (!rows[0]) continue;
    const batch = toBatchView(rows[0]);
    events.push({ event: batch.status === 'completed' ? ('batch.completed' as const) : ('batch.progress' as const), batch });
  }
  await recordBatchEvents(db, events);
}
