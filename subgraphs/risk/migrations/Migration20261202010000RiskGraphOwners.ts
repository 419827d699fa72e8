import { Migration } from '@mikro-orm/migrations';

/**
 * Who holds each partition of the risk graph in memory (the lock is a session advisory lock; this
 * row says where the holder answers, so the other processes can forward evaluations to it).
 */
export class Migration20261202010000RiskGraphOwners extends Migration {
  override up(): void {
    this.addSql(`create table risk.graph_owners (
      partition integer primary key,
      url text not null,
      instance uuid not null,
      claimed_at timestamptz not null)`);
  }
}
