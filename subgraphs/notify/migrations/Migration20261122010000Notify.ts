import { Migration } from '@mikro-orm/migrations';

/** Notify: templates (immutable versions), recipients, notifications and their per-channel deliveries, batches, sandbox outbox, idempotency keys. */
export class Migration20261122010000Notify extends Migration {
  override up(): void {
    this.addSql(`create schema if not exists notify`);

    // every save of a name is a new row: versions are immutable
    this.addSql(`create table notify.templates (
      id uuid primary key,
      organization_id uuid not null,
      environment text not null,
      name text not null,
      version integer not null check (version > 0),
      content jsonb not null,
      created_at timestamptz not null default now(),
      unique (organization_id, environment, name, version))`);

    // the id is the caller's own (e.g. their user id), unique per organization and environment
    this.addSql(`create table notify.recipients (
      organization_id uuid not null,
      environment text not null,
      id text not null,
      email text,
      phone text,
      push_tokens jsonb not null default '[]',
      web_push_subscriptions jsonb not null default '[]',
      locale text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (organization_id, environment, id))`);

    this.addSql(`create table notify.batches (
      id uuid primary key,
      organization_id uuid not null,
      environment text not null,
      template_id uuid not null references notify.templates(id),
      template_name text not null,
      template_version integer not null,
      channels jsonb not null,
      total integer not null,
      processed integer not null default 0,
      succeeded integer not null default 0,
      failed integer not null default 0,
      status text not null default 'processing',
      created_at timestamptz not null default now(),
      completed_at timestamptz)`);
    this.addSql(`create index batches_tenant_idx on notify.batches (organization_id, environment, created_at desc)`);

    // A batch inserts 10,000 notifications and their deliveries in one statement each: no foreign
    // keys on these two tables (each would check and lock per row, about half the insert time).
    // Both are written only in the transactions that accept and dispatch, never deleted; ids are
    // UUIDv7 (time-ordered) so the indexes grow at their right edge.
    this.addSql(`create table notify.notifications (
      id uuid primary key,
      organization_id uuid not null,
      environment text not null,
      template_id uuid not null,
      template_name text not null,
      template_version integer not null,
      recipient text not null,
      recipient_id text,
      data jsonb not null default '{}',
      status text not null default 'dispatched',
      batch_id uuid,
      batch_seq integer,
      processed_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now())`);
    this.addSql(`create index notifications_tenant_idx on notify.notifications (organization_id, environment, created_at desc)`);
    this.addSql(`create index notifications_batch_idx on notify.notifications (batch_id, batch_seq) where batch_id is not null`);

    // one row per notification and channel: the channel's own lifecycle (delivery.lifecycle.ts)
    this.addSql(`create table notify.deliveries (
      id uuid primary key,
      notification_id uuid not null,
      organization_id uuid not null,
      environment text not null,
      channel text not null check (channel in ('email', 'sms', 'push')),
      status text not null,
      provider text not null,
      address text,
      push_targets jsonb,
      tracking_token uuid unique,
      provider_message_id text,
      reason text,
      attempts integer not null default 0,
      latency_ms integer,
      claimed_until timestamptz,
      next_attempt_at timestamptz,
      sent_at timestamptz,
      delivered_at timestamptz,
      opened_at timestamptz,
      failed_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (notification_id, channel))`);
    this.addSql(
      `create unique index deliveries_provider_message_idx on notify.deliveries (provider, provider_message_id) where provider_message_id is not null`,
    );

    // what the sandbox providers "sent": nothing leaves the machine, everything is queryable
    this.addSql(`create table notify.sandbox_messages (
      id bigserial primary key,
      organization_id uuid not null,
      environment text not null,
      notification_id uuid not null,
      delivery_id uuid not null,
      channel text not null,
      recipient text not null,
      subject text,
      html text,
      title text,
      body text,
      created_at timestamptz not null default now())`);
    this.addSql(`create index sandbox_messages_tenant_idx on notify.sandbox_messages (organization_id, environment, id desc)`);
    this.addSql(`create index sandbox_messages_notification_idx on notify.sandbox_messages (notification_id)`);

    this.addSql(`create table notify.idempotency_keys (
      organization_id uuid not null,
      environment text not null,
      operation text not null,
      key text not null,
      request_hash text not null,
      response jsonb,
      created_at timestamptz not null default now(),
      primary key (organization_id, environment, operation, key))`);
  }
}
