import { Migration } from '@mikro-orm/migrations';

/** Address verifications (proof of address): the document is a platform.files row, the check's results are here. */
export class Migration20261128040000Address extends Migration {
  override up(): void {
    this.addSql(`create table verification.address_verifications (
      id uuid primary key,
      organization_id uuid not null,
      environment text not null,
      user_id text not null,
      document_type text not null,
      country text,
      status text not null,
      document_source text not null,
      document_url text,
      file_id uuid not null,
      expected_address text,
      extracted_data jsonb,
      document_age_days integer,
      address_match boolean,
      address_match_score double precision,
      address_match_explanation text,
      text_confidence double precision,
      reasons jsonb not null default '[]',
      checked_at timestamptz,
      completed_at timestamptz,
      reviewed_by text,
      review_notes text,
      reviewed_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now())`);
    this.addSql(`create index address_verifications_user_idx
      on verification.address_verifications (organization_id, environment, user_id, created_at desc)`);
    this.addSql(`create index address_verifications_status_idx
      on verification.address_verifications (organization_id, environment, status, created_at desc)`);
  }
}
