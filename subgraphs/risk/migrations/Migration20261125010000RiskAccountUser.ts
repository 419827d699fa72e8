import { Migration } from '@mikro-orm/migrations';

/**
 * Risk accounts can name the user who holds them (the integrator's userId, set with the account's
 * profile): a user's accounts are found through it.
 */
export class Migration20261125010000RiskAccountUser extends Migration {
  override up(): void {
    this.addSql(`alter table risk.account_profiles add column user_id text`);
    this.addSql(
      `create index account_profiles_user_idx on risk.account_profiles (organization_id, environment, user_id) where user_id is not null`,
    );
  }
}
