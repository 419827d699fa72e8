import { Migration } from '@mikro-orm/migrations';

/**
 * Watchlist alerts get `created_at` like every other listed record, so their connection pages in
 * the same stable order (creation millisecond, then id): an alert is created when its match is
 * detected, so existing alerts take their `detected_at`.
 */
export class Migration20261126000000WatchlistAlertCreatedAt extends Migration {
  override up(): void {
    this.addSql(`alter table verification.watchlist_alerts add column created_at timestamptz`);
    this.addSql(`update verification.watchlist_alerts set created_at = detected_at`);
    this.addSql(
      `alter table verification.watchlist_alerts alter column created_at set not null, alter column created_at set default now()`,
    );
  }
}
