import { Migration } from '@mikro-orm/migrations';

/** Uploaded files (document images, selfies): the bytes live in the blob store, the record here. */
export class Migration20261126010000Files extends Migration {
  override up(): void {
    this.addSql(`create table platform.files (
      id uuid primary key,
      organization_id uuid not null,
      environment text not null,
      owner_type text not null,
      owner_id text not null,
      role text not null,
      content_type text not null,
      size integer not null,
      sha256 text not null,
      created_at timestamptz not null default now(),
      deleted_at timestamptz)`);
    this.addSql(`create index files_owner_idx on platform.files (organization_id, environment, owner_type, owner_id)`);
  }
}
