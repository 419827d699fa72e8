import type { Sql } from '../../../../platform/db/transaction.js';
import { recordBatchEvents } from '../batch/batch.events.js';
import { BATCH_COLUMNS, toBatchView } from '../batch/batch.store.js';
import { BATCH_LIFECYCLE, SUCCESS_STATUSES, notificationStatusSql } from './notification.lifecycle.js';

/**
 * Every transaction that changes deliveries first locks their notifications (in id order, so
 * two transactions never wait for each other in a cycle): the status recomputed afterwards then
 * sees every committed channel change.
 */
export async function lockNotifications(db: Sql, ids: readonly string[]): Promise<void> {
  if (ids.length) await db.query(lockSql('$1'), [ids]);
}

/**
 * `lockNotifications` inside the statement that changes their deliveries: a CTE `locked` (ids in
 * the parameter `ids`) that statement joins, so each notification is locked before its deliveries change.
 */
export const lockedNotifications = (ids: string): string => `locked as (${lockSql(ids)})`;

const lockSql = (ids: string) => `select id from notify.notifications where id = any(${ids}::uuid[]) order by id for update`;

export interface Refreshed {
  id: string;
  batchId: string | null;
  /** No channel is queued any more, for the first time (batch progress counts it once). */
  newlyProcessed: boolean;
  /** At least one channel was taken by a provider. */
  succeeded: boolean;
}

/** Recomputes the status of notifications whose channels changed (after `lockNotifications`). */
export async function refreshNotifications(db: Sql, ids: readonly string[]): Promise<Refreshed[]> {
  if (!ids.length) return [];
  const { rows } = await db.query(
    `with agg as (
       select d.notification_id as id, ${notificationStatusSql('d.status')} as status,
              bool_or(d.status = 'queued') as pending, bool_or(d.status = any($2::text[])) as succeeded
         from notify.deliveries d where d.notification_id = any($1::uuid[]) group by d.notification_id)
     update notify.notifications n
        set status = agg.status, updated_at = now(),
            processed_at = case when old.processed_at is null and not agg.pending then now() else old.processed_at end
       from agg, notify.notifications old
      where n.id = agg.id and old.id = agg.id
     returning n.id, n.batch_id, (old.processed_at is null and not agg.pending) as newly_processed, agg.succeeded`,
    [ids, SUCCESS_STATUSES],
  );
  return rows.map((r) => ({ id: r.id, batchId: r.batch_id, newlyProcessed: r.newly_processed, succeeded: r.succeeded }));
}

/**
 * Counts recipients of batches that were processed in the caller's transaction (every channel handed
 * to a provider or given up) and records `batch.progress`, or `batch.completed` for the last ones.
 */
export async function recordBatchProgress(db: Sql, refreshed: readonly Refreshed[]): Promise<void> {
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
              status = case when processed + $2 >= total then $4 else $5 end,
              completed_at = case when processed + $2 >= total and completed_at is null then now() else completed_at end
        where id = $1 and status = any($6::text[]) returning ${BATCH_COLUMNS}`,
      [
        batchId,
        c.processed,
        c.succeeded,
        BATCH_LIFECYCLE.target('recipients.completed'),
        BATCH_LIFECYCLE.target('recipients.processed'),
        BATCH_LIFECYCLE.sources('recipients.processed'),
      ],
    );
    if (!rows[0]) continue;
    const batch = toBatchView(rows[0]);
    const trigger = batch.status === BATCH_LIFECYCLE.target('recipients.completed') ? 'recipients.completed' : 'recipients.processed';
    events.push({ event: BATCH_LIFECYCLE.eventOf(trigger)!, batch });
  }
  await recordBatchEvents(db, events);
}
