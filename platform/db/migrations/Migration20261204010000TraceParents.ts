import { Migration } from '@mikro-orm/migrations';

/** Tracing (issue 33): an event and the webhook deliveries it causes keep the trace of the request that made it. */
export class Migration20261204010000TraceParents extends Migration {
  override up(): void {
    this.addSql(`alter table platform.outbox_events add column trace_parent text`);
    this.addSql(`alter table platform.deliveries add column trace_parent text`);
  }
}
