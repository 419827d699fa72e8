import { Migration } from '@mikro-orm/migrations';

/** Business verifications (KYB) and the directors and UBOs declared for them. */
export class Migration20261128030000Business extends Migration {
  override up(): void {
    this.addSql(`create table verification.business_verifications (
      id uuid primary key,
      organization_id uuid not null,
      environment text not null,
      user_id text not null,
      business_name text not null,
      registration_number text not null,
      country text not null,
      business_type text,
      tax_id text,
      status text not null,
      steps jsonb not null,
      reasons jsonb not null default '[]',
      registry_provider text not null,
      registry_outcome text not null default 'PENDING',
      registry_data jsonb,
      registry_attempts integer not null default 0,
      registry_checked_at timestamptz,
      registry_retry_at timestamptz,
      registry_error text,
      reviewed_by text,
      review_notes text,
      reviewed_at timestamptz,
      completed_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now())`);
    this.addSql(`create index business_verifications_user_idx
      on verification.business_verifications (organization_id, environment, user_id, created_at desc)`);
    this.addSql(`create index business_verifications_status_idx
      on verification.business_verifications (organization_id, environment, status, created_at desc)`);
    this.addSql(`create table verification.business_people (
      id uuid primary key,
      organization_id uuid not null,
      environment text not null,
      business_id uuid not null references verification.business_verifications (id) on delete cascade,
      kind text not null,
      position integer not null,
      full_name text not null,
      role text,
      control_type text,
      ownership_percentage double precision,
      date_of_birth text,
      nationality text,
      id_number text,
      aml_screening_id uuid,
      screening_status text not null,
      match_count integer not null default 0,
      created_at timestamptz not null default now(),
      unique (business_id, kind, position))`);
  }
}
