import { Migration } from '@mikro-orm/migrations';

/**
 * Screening reference data (issue 4): versioned list snapshots per source, their entries, and the
 * diff of each snapshot against the previous one of the same source. Not tenant data: lists are
 * shared by every organization (custom lists are imported by the platform admin).
 */
export class Migration20261122020000Screening extends Migration {
  override up(): void {
    this.addSql(`create schema if not exists screening`);

    this.addSql(`create table screening.list_snapshots (
      id uuid primary key,
      source text not null,
      seq integer not null,
      version text not null,
      kind text not null,
      format text,
      content_hash text not null,
      total integer not null,
      added integer not null,
      removed integer not null,
      changed integer not null,
      previous_id uuid references screening.list_snapshots(id),
      imported_by text,
      created_at timestamptz not null default now(),
      unique (source, seq),
      unique (source, version))`);
    this.addSql(`create index list_snapshots_source_idx on screening.list_snapshots (source, seq desc)`);

    // One row per entry per snapshot: a snapshot is complete on its own (the engine loads only the
    // newest snapshot of each source); `hash` makes the diff a join.
    this.addSql(`create table screening.list_entries (
      snapshot_id uuid not null references screening.list_snapshots(id) on delete cascade,
      external_id text not null,
      entity_type text not null,
      primary_name text not null,
      hash text not null,
      data jsonb not null,
      primary key (snapshot_id, external_id))`);

    this.addSql(`create table screening.list_changes (
      snapshot_id uuid not null references screening.list_snapshots(id) on delete cascade,
      external_id text not null,
      change text not null check (change in ('ADDED', 'REMOVED', 'CHANGED')),
      primary_name text not null,
      primary key (snapshot_id, external_id))`);
  }
}
