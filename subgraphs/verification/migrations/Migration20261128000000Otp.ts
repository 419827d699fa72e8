import { Migration } from '@mikro-orm/migrations';

/** Phone and email verifications by one-time code (or magic link): one table, `kind` says which. */
export class Migration20261128000000Otp extends Migration {
  override up(): void {
    this.addSql(`create table verification.otp_verifications (
      id uuid primary key,
      organization_id uuid not null,
      environment text not null,
      kind text not null check (kind in ('phone', 'email')),
      user_id text not null,
      address text not null,
      channel text not null,
      method text not null default 'OTP',
      locale text not null default 'en',
      redirect_url text,
      country text,
      line_type text,
      disposable boolean,
      status text not null,
      code_hash text not null,
      link_nonce_hash text,
      attempts_remaining integer not null,
      sends integer not null default 1,
      last_sent_at timestamptz not null,
      notification_id text,
      failure_reason text,
      expires_at timestamptz not null,
      verified_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now())`);
    this.addSql(`create index otp_verifications_user_idx
      on verification.otp_verifications (organization_id, environment, kind, user_id, created_at desc)`);
    // send limits count recent sends per address and per organization
    this.addSql(`create index otp_verifications_address_idx on verification.otp_verifications (kind, address, last_sent_at desc)`);
    this.addSql(
      `create index otp_verifications_org_idx on verification.otp_verifications (organization_id, environment, last_sent_at desc)`,
    );
    // the expiry sweep looks only at open ones
    this.addSql(`create index otp_verifications_open_idx on verification.otp_verifications (expires_at) where status = 'PENDING'`);
  }
}
