import { Migration } from '@mikro-orm/migrations';

/**
 * The date a list version was published by its authority (the snapshot shipped in data/ and
 * imported on first start carries it; an import may name it): older versions have none.
 */
export class Migration20261129070000ListPublishedOn extends Migration {
  override up(): void {
    this.addSql(`alter table screening.list_snapshots add column published_on date`);
  }
}
