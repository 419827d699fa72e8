import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 4, verification side: AML screenings (hits, batches), watchlist monitoring (subscriptions,
 * matches, alerts), device assessments and IP intelligence (imported IP feeds, IP checks).
 * Tenant tables carry organization and environment; the IP feeds are shared reference data.
 */
export class Migration20261122030000Intelligence extends Migration {
  override up(): void {
    // ---- IP intelligence: reference feeds (datacenter ranges, Tor, VPN/proxy/botnet lists)
    this.addSql(`create table verification.ip_feeds (
      feed text primary key,
      category text not null,
      provider text,
      format text not null,
      version text not null,
      entries integer not null,
      source_name text,
      imported_at timestamptz not null default now())`);
    this.addSql(`create table verification.ip_ranges (
      id bigserial primary key,
      feed text not null references verification.ip_feeds(feed) on delete cascade,
      category text not null,
      network cidr not null,
      provider text,
      service text,
      region text,
      country text,
      city text)`);
    // `network >>= ip` (which ranges contain this address) uses the GiST index
    this.addSql(`create index ip_ranges_network_idx on verification.ip_ranges using gist (network inet_ops)`);
    this.addSql(`create index ip_ranges_feed_idx on verification.ip_ranges (feed)`);

    this.addSql(`create table verification.ip_checks (
      id uuid primary key,
      organization_id uuid not null,
      environment text not null,
      user_id text,
      ip inet not null,
      risk_score double precision not null,
      risk_level text not null,
      threat_types jsonb not null,
      result jsonb not null,
      checked_at timestamptz not null default now())`);
    this.addSql(`create index ip_checks_ip_idx on verification.ip_checks (organization_id, environment, ip)`);
    this.addSql(`create index ip_checks_user_idx on verification.ip_checks (organization_id, environment, user_id, checked_at desc)`);

    // ---- Device intelligence
    this.addSql(`create table verification.devices (
      organization_id uuid not null,
      environment text not null,
      device_id text not null,
      first_seen timestamptz not null default now(),
      last_seen timestamptz not null default now(),
      primary key (organization_id, environment, device_id))`);
    this.addSql(`create table verification.device_assessments (
      id uuid primary key,
      organization_id uuid not null,
      environment text not null,
      user_id text not null,
      session_id text not null,
      device_id text not null,
      fingerprint jsonb not null,
      ip inet,
      ip_detected boolean not null default false,
      first_seen timestamptz not null,
      signals jsonb not null,
      location jsonb,
      risk_score double precision not null,
      risk_level text not null,
      reasons jsonb not null,
      created_at timestamptz not null default now())`);
    this.addSql(
      `create index device_assessments_device_idx on verification.device_assessments (organization_id, environment, device_id, user_id)`,
    );
    this.addSql(`create index device_assessments_ip_idx on verification.device_assessments (organization_id, environment, ip)`);
    this.addSql(`create index device_assessments_user_idx on verification.device_assessments (organization_id, environment, user_id)`);

    // ---- AML screening (foreign keys are checked at commit: the ORM does not order inserts of unrelated entities)
    this.addSql(`create table verification.aml_batches (
      id uuid primary key,
      organization_id uuid not null,
      environment text not null,
      status text not null,
      total integer not null,
      processed integer not null default 0,
      clear_count integer not null default 0,
      flagged_count integer not null default 0,
      failed_count integer not null default 0,
      callback_url text,
      callback_secret text,
      callback_status text,
      callback_attempts integer not null default 0,
      callback_last_status_code integer,
      callback_last_error text,
      callback_delivered_at timestamptz,
      callback_next_attempt_at timestamptz,
      callback_body text,
      created_at timestamptz not null default now(),
      completed_at timestamptz)`);
    this.addSql(`create index aml_batches_org_idx on verification.aml_batches (organization_id, environment, created_at desc)`);
    this.addSql(`create table verification.aml_batch_subjects (
      batch_id uuid not null references verification.aml_batches(id) deferrable initially deferred,
      position integer not null,
      input jsonb not null,
      status text not null default 'PENDING',
      screening_id uuid,
      error text,
      primary key (batch_id, position))`);

    this.addSql(`create table verification.aml_screenings (
      id uuid primary key,
      organization_id uuid not null,
      environment text not null,
      user_id text not null,
      full_name text not null,
      date_of_birth text,
      nationality text,
      document_number text,
      match_threshold double precision not null,
      lists jsonb not null,
      status text not null,
      risk_level text not null,
      match_count integer not null,
      lists_checked jsonb not null,
      list_versions jsonb not null,
      batch_id uuid references verification.aml_batches(id) deferrable initially deferred,
      checked_at timestamptz not null,
      resolved_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now())`);
    this.addSql(
      `create index aml_screenings_user_idx on verification.aml_screenings (organization_id, environment, user_id, created_at desc)`,
    );
    this.addSql(`create index aml_screenings_batch_idx on verification.aml_screenings (batch_id) where batch_id is not null`);
    this.addSql(`create table verification.aml_hits (
      id uuid primary key,
      screening_id uuid not null references verification.aml_screenings(id) deferrable initially deferred,
      position integer not null,
      source text not null,
      kind text not null,
      external_id text not null,
      entity_type text not null,
      primary_name text not null,
      matched_name text not null,
      score double precision not null,
      explanation jsonb not null,
      programs jsonb not null,
      added_date text,
      list_version text not null,
      resolution text not null default 'OPEN',
      resolved_by text,
      resolution_reason text,
      resolved_at timestamptz)`);
    this.addSql(`create index aml_hits_screening_idx on verification.aml_hits (screening_id, position)`);

    // ---- Watchlist monitoring
    this.addSql(`create table verification.watchlist_subscriptions (
      id uuid primary key,
      organization_id uuid not null,
      environment text not null,
      user_id text not null,
      full_name text not null,
      date_of_birth text,
      nationality text,
      country text,
      lists jsonb not null,
      status text not null,
      match_threshold double precision not null,
      next_scan_at timestamptz,
      last_scan_at timestamptz,
      scanned_versions jsonb,
      created_at timestamptz not null default now(),
      cancelled_at timestamptz)`);
    this.addSql(
      `create index watchlist_subscriptions_org_idx on verification.watchlist_subscriptions (organization_id, environment, status, created_at desc)`,
    );
    this.addSql(
      `create index watchlist_subscriptions_due_idx on verification.watchlist_subscriptions (next_scan_at) where status = 'ACTIVE'`,
    );
    // one ACTIVE subscription per user
    this.addSql(
      `create unique index watchlist_subscriptions_one_active on verification.watchlist_subscriptions (organization_id, environment, user_id) where status = 'ACTIVE'`,
    );

    this.addSql(`create table verification.watchlist_alerts (
      id uuid primary key,
      organization_id uuid not null,
      environment text not null,
      subscription_id uuid not null references verification.watchlist_subscriptions(id) deferrable initially deferred,
      user_id text not null,
      status text not null,
      match jsonb not null,
      detected_at timestamptz not null default now(),
      cleared_at timestamptz,
      reviewed_by text,
      review_note text,
      reviewed_at timestamptz)`);
    this.addSql(`create index watchlist_alerts_org_idx on verification.watchlist_alerts (organization_id, environment, detected_at desc)`);
    this.addSql(
      `create index watchlist_alerts_user_idx on verification.watchlist_alerts (organization_id, environment, user_id, detected_at desc)`,
    );

    // the list entries a subscription currently matches (cleared_at set once the match disappears)
    this.addSql(`create table verification.watchlist_matches (
      id uuid primary key,
      subscription_id uuid not null references verification.watchlist_subscriptions(id) deferrable initially deferred,
      source text not null,
      external_id text not null,
      score double precision not null,
      alert_id uuid not null references verification.watchlist_alerts(id) deferrable initially deferred,
      first_detected_at timestamptz not null default now(),
      last_seen_at timestamptz not null default now(),
      cleared_at timestamptz)`);
    this.addSql(
      `create unique index watchlist_matches_current on verification.watchlist_matches (subscription_id, source, external_id) where cleared_at is null`,
    );
  }
}
