import { Migration } from '@mikro-orm/migrations';

/**
 * Risk subgraph: rules (current row + immutable versions + audit, a per-tenant revision whose
 * change NOTIFYs every instance), evaluations, the transaction graph (account/device/IP nodes,
 * SENT/USED/FROM_IP edges) and per-minute velocity counters. Every row carries its tenant
 * (organization, environment).
 */
export class Migration20261122040000Risk extends Migration {
  override up(): void {
    this.addSql(`create schema if not exists risk`);

    // ---- rules ------------------------------------------------------------------------------
    // One row per tenant: `revision` increases with every rule change (the cache key of every
    // instance); the trigger tells every instance on commit.
    this.addSql(`create table risk.rule_sets (
      organization_id uuid not null,
      environment text not null check (environment in ('live', 'test')),
      revision bigint not null default 0,
      seeded_at timestamptz,
      updated_at timestamptz not null default now(),
      primary key (organization_id, environment))`);
    this.addSql(`create function risk.notify_rules() returns trigger language plpgsql as $$
      begin
        perform pg_notify('risk_rules', json_build_object(
          'organizationId', new.organization_id, 'environment', new.environment, 'revision', new.revision)::text);
        return null;
      end $$`);
    this.addSql(`create trigger rule_sets_notify after insert or update of revision on risk.rule_sets
      for each row execute function risk.notify_rules()`);

    this.addSql(`create table risk.rules (
      organization_id uuid not null,
      environment text not null,
      id text not null,
      name text not null,
      description text,
      condition text not null,
      action text not null check (action in ('review', 'block')),
      severity text not null check (severity in ('low', 'medium', 'high', 'critical')),
      enabled boolean not null default true,
      version integer not null,
      is_default boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (organization_id, environment, id))`);

    this.addSql(`create table risk.rule_versions (
      id uuid primary key,
      organization_id uuid not null,
      environment text not null,
      rule_id text not null,
      version integer not null,
      name text not null,
      description text,
      condition text not null,
      action text not null,
      severity text not null,
      enabled boolean not null,
      created_by text not null,
      created_at timestamptz not null default now(),
      unique (organization_id, environment, rule_id, version))`);

    this.addSql(`create table risk.rule_audit (
      id uuid primary key,
      organization_id uuid not null,
      environment text not null,
      rule_id text not null,
      version integer not null,
      change text not null,
      actor text not null,
      changes jsonb not null default '{}',
      revision bigint not null,
      created_at timestamptz not null default now())`);
    this.addSql(`create index rule_audit_rule_idx on risk.rule_audit (organization_id, environment, rule_id, created_at desc)`);

    // versions and audit entries are history: the database refuses to change them
    this.addSql(`create function risk.immutable() returns trigger language plpgsql as $$
      begin
        raise exception '% rows are immutable', tg_table_name;
      end $$`);
    this.addSql(`create trigger rule_versions_immutable before update or delete on risk.rule_versions
      for each row execute function risk.immutable()`);
    this.addSql(`create trigger rule_audit_immutable before update or delete on risk.rule_audit
      for each row execute function risk.immutable()`);

    // ---- evaluations ------------------------------------------------------------------------
    this.addSql(`create table risk.evaluations (
      id uuid primary key,
      organization_id uuid not null,
      environment text not null,
      transaction_id text not null,
      score double precision not null check (score >= 0 and score <= 100),
      action text not null check (action in ('allow', 'review', 'block')),
      mock boolean not null default false,
      amount double precision not null,
      currency text not null,
      sender text not null,
      receiver text not null,
      channel text,
      metadata jsonb not null default '{}',
      layers jsonb not null,
      layer_scores jsonb not null,
      reasons jsonb not null,
      rules_fired jsonb not null,
      rule_errors jsonb not null default '[]',
      graph_patterns jsonb not null,
      sanctions_hits jsonb not null,
      facts jsonb not null default '{}',
      rules_revision bigint not null default 0,
      latency_ms double precision not null,
      created_at timestamptz not null default now())`);
    // transaction_id is unique per organization (and environment: sandbox data is separate),
    // also under concurrent duplicates
    this.addSql(`create unique index evaluations_transaction_uq on risk.evaluations (organization_id, environment, transaction_id)`);
    this.addSql(`create index evaluations_recent_idx on risk.evaluations (organization_id, environment, created_at desc, id desc)`);
    this.addSql(`create index evaluations_action_idx on risk.evaluations (organization_id, environment, action, created_at desc)`);
    this.addSql(`create index evaluations_sender_idx on risk.evaluations (organization_id, environment, sender, created_at desc)`);
    this.addSql(`create index evaluations_receiver_idx on risk.evaluations (organization_id, environment, receiver, created_at desc)`);

    // ---- the transaction graph ------------------------------------------------------------
    // Nodes
    this.addSql(`create table risk.accounts (
      organization_id uuid not null,
      environment text not null,
      id text not null,
      first_seen_at timestamptz not null default now(),
      primary key (organization_id, environment, id))`);
    this.addSql(`create table risk.devices (
      organization_id uuid not null,
      environment text not null,
      id text not null,
      first_seen_at timestamptz not null default now(),
      primary key (organization_id, environment, id))`);
    this.addSql(`create table risk.ips (
      organization_id uuid not null,
      environment text not null,
      address text not null,
      first_seen_at timestamptz not null default now(),
      primary key (organization_id, environment, address))`);
    // SENT edges (Account)-[:SENT]->(Account): one per evaluated transaction
    this.addSql(`create table risk.transfers (
      organization_id uuid not null,
      environment text not null,
      transaction_id text not null,
      sender text not null,
      receiver text not null,
      amount double precision not null,
      currency text not null,
      channel text,
      device_id text,
      ip text,
      at timestamptz not null,
      primary key (organization_id, environment, transaction_id))`);
    this.addSql(
      `create index transfers_sender_idx on risk.transfers (organization_id, environment, sender, at desc) include (receiver, amount, currency)`,
    );
    this.addSql(
      `create index transfers_receiver_idx on risk.transfers (organization_id, environment, receiver, at desc) include (sender, amount, currency)`,
    );
    // USED edges (Account)-[:USED]->(Device) and FROM_IP edges (Account)-[:FROM_IP]->(IP)
    this.addSql(`create table risk.account_devices (
      organization_id uuid not null,
      environment text not null,
      account_id text not null,
      device_id text not null,
      first_seen_at timestamptz not null,
      last_seen_at timestamptz not null,
      uses integer not null default 1,
      primary key (organization_id, environment, account_id, device_id))`);
    this.addSql(
      `create index account_devices_device_idx on risk.account_devices (organization_id, environment, device_id, last_seen_at desc)`,
    );
    this.addSql(`create table risk.account_ips (
      organization_id uuid not null,
      environment text not null,
      account_id text not null,
      address text not null,
      first_seen_at timestamptz not null,
      last_seen_at timestamptz not null,
      uses integer not null default 1,
      primary key (organization_id, environment, account_id, address))`);
    this.addSql(`create index account_ips_address_idx on risk.account_ips (organization_id, environment, address, last_seen_at desc)`);

    // Velocity counters: transfers per subject (s = sender, r = receiver, d = device, p = pair),
    // per minute and currency; windows sum the minutes they cover. Pruned after 25 hours.
    this.addSql(`create table risk.velocity (
      organization_id uuid not null,
      environment text not null,
      kind char(1) not null check (kind in ('s', 'r', 'd', 'p')),
      subject text not null,
      minute timestamptz not null,
      currency text not null,
      count integer not null,
      sum double precision not null,
      primary key (organization_id, environment, kind, subject, minute, currency))`);
    this.addSql(`create index velocity_minute_idx on risk.velocity (minute)`);

    // Customer profiles: names screened by the sanctions layer when a transaction carries none
    this.addSql(`create table risk.account_profiles (
      organization_id uuid not null,
      environment text not null,
      account_id text not null,
      full_name text not null,
      date_of_birth text,
      nationality text,
      updated_at timestamptz not null default now(),
      primary key (organization_id, environment, account_id))`);
  }
}
