import { Migration } from '@mikro-orm/migrations';

/** Mobile money account verifications: the number, the operator's answer and the name comparison. */
export class Migration20261128020000MobileMoney extends Migration {
  override up(): void {
    this.addSql(`create table verification.mobile_money_verifications (
      id uuid primary key,
      organization_id uuid not null,
      environment text not null,
      user_id text not null,
      phone_number text not null,
      provider text not null,
      country text not null,
      expected_name text,
      status text not null,
      account_holder text,
      account_status text,
      name_match boolean,
      name_match_score double precision,
      name_match_explanation jsonb,
      failure_reason text,
      adapter text not null,
      attempts integer not null default 1,
      checked_at timestamptz,
      verified_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now())`);
    this.addSql(`create index mobile_money_verifications_user_idx
      on verification.mobile_money_verifications (organization_id, environment, user_id, created_at desc)`);
    this.addSql(`create index mobile_money_verifications_status_idx
      on verification.mobile_money_verifications (organization_id, environment, status, created_at desc)`);
    // the sweep of lookups a crash interrupted
    this.addSql(`create index mobile_money_verifications_pending_idx
      on verification.mobile_money_verifications (updated_at) where status = 'PENDING'`);
  }
}
