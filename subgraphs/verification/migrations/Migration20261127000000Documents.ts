import { Migration } from '@mikro-orm/migrations';

/** Document verifications: the images are platform.files rows, the check's results are here. */
export class Migration20261127000000Documents extends Migration {
  override up(): void {
    this.addSql(`create table verification.document_verifications (
      id uuid primary key,
      organization_id uuid not null,
      environment text not null,
      user_id text not null,
      document_type text not null,
      document_country text not null,
      status text not null,
      front_file_id uuid not null,
      back_file_id uuid,
      extracted_data jsonb,
      confidence double precision,
      reasons jsonb not null default '[]',
      checks jsonb,
      face_embedding jsonb,
      verified_at timestamptz,
      checked_at timestamptz,
      reviewed_by text,
      review_notes text,
      reviewed_at timestamptz,
      images_deleted_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now())`);
    this.addSql(`create index document_verifications_user_idx
      on verification.document_verifications (organization_id, environment, user_id, created_at desc)`);
    this.addSql(`create index document_verifications_status_idx
      on verification.document_verifications (organization_id, environment, status, created_at desc)`);
  }
}
