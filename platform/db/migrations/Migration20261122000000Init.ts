import { Migration } from '@mikro-orm/migrations';

/** Organizations, API clients, rate-limit windows, the outbox, identity verification, webhooks. */
export class Migration20261122000000Init extends Migration {
  override up(): void {
    this.addSql(`create schema if not exists platform`);
    this.addSql(`create schema if not exists verification`);
    this.addSql(`create schema if not exists risk`);
    this.addSql(`create schema if not exists notify`);

    this.addSql(`create table platform.organizations (
      id uuid primary key,
      name text not null,
      created_at timestamptz not null default now())`);

    this.addSql(`create table platform.api_clients (
      id uuid primary key,
      organization_id uuid not null references platform.organizations(id),
      name text not null,
      service text not null check (service in ('verification', 'risk', 'notify')),
      environment text not null check (environment in ('live', 'test')),
      key_prefix text not null,
      key_hash text not null unique,
      permissions jsonb not null default '[]',
      rate_limit integer not null check (rate_limit > 0),
      active boolean not null default true,
      created_at timestamptz not null default now())`);
    this.addSql(`create index api_clients_organization_idx on platform.api_clients (organization_id)`);

    this.addSql(`create table platform.rate_limit_windows (
      key text not null,
      window_start timestamptz not null,
      count integer not null,
      primary key (key, window_start))`);

    // The transactional outbox: written in the same transaction as the change it reports; the
    // trigger's NOTIFY is delivered only on commit, so listeners never see rolled-back events.
    this.addSql(`create table platform.outbox_events (
      id bigserial primary key,
      event_id uuid not null unique,
      organization_id uuid not null,
      environment text not null,
      event text not null,
      resource_type text not null,
      resource_id text not null,
      user_id text,
      payload jsonb not null,
      snapshot jsonb not null,
      created_at timestamptz not null default now(),
      relayed_at timestamptz)`);
    this.addSql(`create index outbox_events_unrelayed_idx on platform.outbox_events (id) where relayed_at is null`);
    this.addSql(`create function platform.notify_outbox() returns trigger language plpgsql as $$
      begin
        perform pg_notify('outbox', json_build_object(
          'id', new.id, 'organizationId', new.organization_id, 'environment', new.environment,
          'event', new.event, 'resourceType', new.resource_type, 'resourceId', new.resource_id,
          'userId', left(new.user_id, 200))::text);
        return null;
      end $$`);
    this.addSql(`create trigger outbox_events_notify after insert on platform.outbox_events
      for each row execute function platform.notify_outbox()`);

    this.addSql(`create table verification.identity_verifications (
      id uuid primary key,
      organization_id uuid not null,
      environment text not null,
      user_id text not null,
      tier text not null,
      overall_status text not null,
      face_match_score double precision,
      verified_at timestamptz,
      reviewed_by text,
      review_notes text,
      reviewed_at timestamptz,
      invalidated_at timestamptz,
      replaced_by_id uuid,
      restarted_from_id uuid,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now())`);
    this.addSql(`create index identity_verifications_user_idx
      on verification.identity_verifications (organization_id, environment, user_id, created_at desc)`);
    // At most one active verification per user, even under concurrent creates.
    this.addSql(`create unique index identity_verifications_one_active
      on verification.identity_verifications (organization_id, environment, user_id)
      where overall_status in ('PENDING', 'IN_PROGRESS') and invalidated_at is null`);

    this.addSql(`create table verification.webhooks (
      id uuid primary key,
      organization_id uuid not null,
      environment text not null,
      client_id text not null,
      callback_url text not null,
      events jsonb not null,
      secret text not null,
      active boolean not null default true,
      created_at timestamptz not null default now(),
      deactivated_at timestamptz)`);
    this.addSql(`create index webhooks_client_idx on verification.webhooks (organization_id, client_id)`);

    this.addSql(`create table verification.webhook_deliveries (
      id uuid primary key,
      organization_id uuid not null,
      webhook_id uuid not null references verification.webhooks(id),
      event_id uuid not null,
      event text not null,
      body text not null,
      status text not null,
      attempt_count integer not null default 0,
      next_attempt_at timestamptz,
      delivered_at timestamptz,
      created_at timestamptz not null default now(),
      unique (webhook_id, event_id))`);
    this.addSql(`create index webhook_deliveries_webhook_idx on verification.webhook_deliveries (webhook_id, created_at desc)`);

    this.addSql(`create table verification.webhook_attempts (
      id bigserial primary key,
      delivery_id uuid not null references verification.webhook_deliveries(id),
      number integer not null,
      started_at timestamptz not null,
      status_code integer,
      error text,
      duration_ms integer not null)`);
    this.addSql(`create index webhook_attempts_delivery_idx on verification.webhook_attempts (delivery_id, number)`);
  }
}
