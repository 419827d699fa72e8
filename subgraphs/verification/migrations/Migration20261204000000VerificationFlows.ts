import { Migration } from '@mikro-orm/migrations';

/** Hosted verification flows (issue 32): a one-use link to a page that takes one user through some checks. */
export class Migration20261204000000VerificationFlows extends Migration {
  override up(): void {
    this.addSql(`create table verification.verification_flows (
      id uuid primary key,
      organization_id uuid not null,
      environment text not null,
      client_id uuid not null,
      user_id text not null,
      steps jsonb not null,
      tier text,
      identity_verification_id uuid,
      locale text not null,
      redirect_url text not null,
      branding jsonb,
      embed_origins jsonb not null default '[]',
      link_hash text not null unique,
      status text not null,
      expires_at timestamptz not null,
      opened_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now())`);
    this.addSql(`create index verification_flows_user_idx
      on verification.verification_flows (organization_id, environment, user_id, created_at desc)`);
  }
}
