import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 16 (erasure, access, retention): erasure requests (one row per request, each service's part
 * in `services`), retention policies per organization and environment, and when each service last
 * enforced them. Personal values an erasure removes from records it keeps become nullable.
 */
export class Migration20261201000000Privacy extends Migration {
  override up(): void {
    this.addSql(`create table platform.user_erasures (
      id uuid primary key,
      organization_id uuid not null,
      environment text not null,
      user_id text not null,
      status text not null,
      services jsonb not null,
      subject jsonb,
      pseudonym text,
      requested_by text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      completed_at timestamptz)`);
    this.addSql(`create index user_erasures_user_idx on platform.user_erasures (organization_id, environment, user_id, created_at desc)`);
    this.addSql(`create index user_erasures_list_idx on platform.user_erasures (organization_id, environment, created_at desc, id desc)`);
    this.addSql(`create index user_erasures_pending_idx on platform.user_erasures (created_at) where status = 'PENDING'`);
    // one erasure at a time per user: a repeated request finds the pending one
    this.addSql(`create unique index user_erasures_one_pending on platform.user_erasures (organization_id, environment, user_id)
      where status = 'PENDING'`);

    this.addSql(`create table platform.retention_policies (
      organization_id uuid not null,
      environment text not null,
      documents_days integer,
      liveness_frames_days integer,
      notification_bodies_days integer,
      provider_responses_days integer,
      event_payloads_days integer,
      updated_at timestamptz not null default now(),
      primary key (organization_id, environment))`);
    this.addSql(`create table platform.retention_runs (
      service text primary key,
      started_at timestamptz not null,
      finished_at timestamptz,
      removed jsonb not null default '{}')`);

    // personal values of records an erasure keeps (their decisions stay, the person goes)
    this.addSql(`alter table verification.aml_screenings alter column full_name drop not null`);
    this.addSql(`alter table verification.watchlist_subscriptions alter column full_name drop not null`);
    this.addSql(`alter table verification.mobile_money_verifications alter column phone_number drop not null`);
    this.addSql(`alter table verification.otp_verifications alter column address drop not null`);
    this.addSql(`alter table verification.business_verifications
      alter column business_name drop not null, alter column registration_number drop not null`);
    this.addSql(`alter table verification.business_people alter column full_name drop not null`);
    // a proof of address's image deleted (erasure, retention): its URL is no longer given
    this.addSql(`alter table verification.address_verifications add column document_deleted_at timestamptz`);
    this.addSql(`alter table notify.notifications alter column recipient drop not null`);
    this.addSql(`alter table notify.sandbox_messages alter column recipient drop not null`);
  }
}
