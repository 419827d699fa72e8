import { Migration } from '@mikro-orm/migrations';

/**
 * Every change to an account profile NOTIFYs `risk_profiles`: the process that owns the tenant
 * holds its profiles, and drops the changed one at once (the commit's check would catch it at the
 * next evaluation; an erased person's name should not wait for one).
 */
export class Migration20261205000000RiskProfileNotices extends Migration {
  override up(): void {
    this.addSql(`create function risk.notify_profiles() returns trigger language plpgsql as $$
      declare p record;
      begin
        if tg_op = 'DELETE' then p := old; else p := new; end if;
        perform pg_notify('risk_profiles', json_build_object(
          'organizationId', p.organization_id, 'environment', p.environment, 'accountId', p.account_id)::text);
        return null;
      end $$`);
    this.addSql(`create trigger account_profiles_notify after insert or update or delete on risk.account_profiles
      for each row execute function risk.notify_profiles()`);
  }
}
