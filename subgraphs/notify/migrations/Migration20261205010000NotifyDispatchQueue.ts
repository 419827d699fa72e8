import { Migration } from '@mikro-orm/migrations';

/**
 * Notify: the deliveries table is the dispatch queue (no pg-boss job per send). Workers claim
 * queued channels in the order they fall due (a retry's `next_attempt_at`, else acceptance) through
 * this partial index; a notification keeps its request's trace for the dispatch span.
 */
export class Migration20261205010000NotifyDispatchQueue extends Migration {
  override up(): void {
    this.addSql(
      `create index deliveries_queued_due_idx on notify.deliveries ((coalesce(next_attempt_at, created_at)), id) where status = 'queued'`,
    );
    this.addSql(`alter table notify.notifications add column trace_parent text`);
  }
}
