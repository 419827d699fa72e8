import { Migration } from '@mikro-orm/migrations';

/**
 * The audit trail (platform/audit): one hash chain per organization, append-only — the database
 * itself refuses UPDATE, DELETE and TRUNCATE. Files now say whose they are (the trail of a file
 * view names the user; the owners' rows tell the files written before).
 */
export class Migration20261201010000Audit extends Migration {
  override up(): void {
    this.addSql(`create table platform.audit_entries (
      organization_id uuid not null,
      seq bigint not null check (seq > 0),
      environment text not null,
      occurred_at timestamptz not null,
      action text not null,
      actor_kind text not null,
      actor_client_id uuid,
      actor_user_id text,
      reviewer text,
      resource_type text not null,
      resource_id text not null,
      user_id text,
      details jsonb not null default '{}',
      prev_hash text not null,
      hash text not null,
      primary key (organization_id, seq))`);
    this.addSql(`create index audit_entries_user_idx on platform.audit_entries (organization_id, environment, user_id, seq desc)`);
    this.addSql(`create index audit_entries_list_idx on platform.audit_entries (organization_id, environment, seq desc)`);
    this.addSql(`create function platform.audit_entries_append_only() returns trigger language plpgsql as $$
      begin
        raise exception 'the audit trail is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
      end $$`);
    // per statement: even one that would touch no row is refused
    this.addSql(`create trigger audit_entries_append_only before update or delete or truncate on platform.audit_entries
      for each statement execute function platform.audit_entries_append_only()`);

    this.addSql(`alter table platform.files add column user_id text`);
    for (const [owner, table] of [
      ['document', 'verification.document_verifications'],
      ['liveness', 'verification.liveness_sessions'],
      ['address', 'verification.address_verifications'],
    ]) {
      this.addSql(
        `update platform.files f set user_id = o.user_id from ${table} o where f.owner_type = '${owner}' and f.owner_id = o.id::text`,
      );
    }
  }
}
