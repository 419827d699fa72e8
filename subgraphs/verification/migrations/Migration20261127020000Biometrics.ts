import { Migration } from '@mikro-orm/migrations';

/**
 * Biometric deduplication: checks (outcomes only) and enrolled faces (a normalized 1024-d float32
 * vector as bytea, never an image), one per user. `seq` orders a gallery's enrolments for the
 * in-process search index, which catches up on rows past the last `seq` it holds; a gallery's
 * `removals` counter tells it to reload after deletions. Where the database has pgvector, the
 * vectors are also kept in a `vector` column with an HNSW index (biometrics/pgvector.ts).
 */
export class Migration20261127020000Biometrics extends Migration {
  override up(): void {
    this.addSql(`create table verification.biometric_dedup_checks (
      id uuid primary key,
      organization_id uuid not null,
      environment text not null,
      user_id text not null,
      status text not null,
      match_found boolean not null,
      enrolled boolean not null,
      threshold double precision not null,
      matches jsonb not null default '[]',
      error_reason text,
      checked_at timestamptz not null,
      created_at timestamptz not null default now())`);
    this.addSql(`create index biometric_dedup_checks_list_idx
      on verification.biometric_dedup_checks (organization_id, environment, created_at desc, id desc)`);
    this.addSql(`create index biometric_dedup_checks_user_idx
      on verification.biometric_dedup_checks (organization_id, environment, user_id, created_at desc)`);

    this.addSql(`create table verification.biometric_enrollments (
      seq bigint generated always as identity primary key,
      organization_id uuid not null,
      environment text not null,
      user_id text not null,
      embedding bytea not null,
      source_check_id uuid not null,
      enrolled_at timestamptz not null default now())`);
    this.addSql(`create unique index biometric_enrollments_user_idx
      on verification.biometric_enrollments (organization_id, environment, user_id)`);
    this.addSql(`create index biometric_enrollments_gallery_idx
      on verification.biometric_enrollments (organization_id, environment, seq)`);

    this.addSql(`create table verification.biometric_galleries (
      organization_id uuid not null,
      environment text not null,
      removals bigint not null default 0,
      primary key (organization_id, environment))`);

    // pgvector where the server has it (the embedded PostgreSQL does not): an HNSW index on inner
    // product (the vectors are normalized, so it is the cosine)
    this.addSql(`do $$
      begin
        if exists (select 1 from pg_available_extensions where name = 'vector') then
          begin
            create extension if not exists vector;
          exception when others then
            raise notice 'pgvector is available but could not be enabled (%): exact in-process search only', sqlerrm;
            return;
          end;
          execute 'alter table verification.biometric_enrollments add column embedding_vector vector(1024)';
          execute 'create index biometric_enrollments_hnsw_idx on verification.biometric_enrollments
                   using hnsw (embedding_vector vector_ip_ops)';
        end if;
      end $$`);
  }
}
