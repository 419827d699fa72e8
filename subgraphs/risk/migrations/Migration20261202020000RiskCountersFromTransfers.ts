import { Migration } from '@mikro-orm/migrations';

/**
 * Velocity counters are no longer stored: the process that owns a tenant's graph counts them in
 * memory from the SENT edges (risk.transfers) of the last 25 hours.
 */
export class Migration20261202020000RiskCountersFromTransfers extends Migration {
  override up(): void {
    this.addSql(`drop table risk.velocity`);
  }
}
