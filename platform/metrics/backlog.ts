import type pg from 'pg';
import type { Gauge } from 'prom-client';
import type { Logger } from '../logger.js';
import { counter, gauge, makeCounter, makeGauge, type MetricDefinition } from './metric.js';

/**
 * The work waiting in PostgreSQL: pg-boss jobs, the outbox, signed deliveries. Database-wide
 * figures, reported by every subgraph service (each process relays the outbox and delivers):
 * aggregate them with `max`, not `sum`.
 */
export const BACKLOG_METRICS = {
  jobsQueued: gauge('jobs_queued', 'pg-boss jobs due and waiting for a worker, by queue', ['queue']),
  jobsDeferred: gauge('jobs_deferred', 'pg-boss jobs waiting for their start time (retries backing off, scheduled work), by queue', [
    'queue',
  ]),
  jobsActive: gauge('jobs_active', "pg-boss jobs being worked on, by queue (pg-boss's own count, refreshed every JOBS_SUPERVISE_SECONDS)", [
    'queue',
  ]),
  jobsOldest: gauge(
    'jobs_oldest_queued_age_seconds',
    'How long the oldest due job of a queue has waited for a worker (0 when none waits)',
    ['queue'],
  ),
  outboxUnrelayed: gauge(
    'outbox_unrelayed_events',
    'Committed events the outbox relay has not yet turned into deliveries (NaN while the database cannot be read)',
    [],
  ),
  outboxOldest: gauge('outbox_oldest_unrelayed_age_seconds', 'Age of the oldest event the relay has not taken (0 when none)', []),
  outboxRelayed: counter('outbox_relayed_events_total', 'Outbox events relayed by this process', []),
  deliveriesQueued: gauge(
    'webhook_deliveries_queued',
    'Signed deliveries (webhooks and callbacks) not yet delivered or failed: pending (never attempted) or retrying (attempted, waiting for the next try)',
    ['state'],
  ),
  deliveriesOldestDue: gauge(
    'webhook_deliveries_oldest_due_age_seconds',
    'How late the oldest due delivery nobody is attempting is, by state (0 when none is late)',
    ['state'],
  ),
  deliveryAttempts: counter(
    'webhook_delivery_attempts_total',
    "This process's delivery attempts, by outcome (delivered, retry, failed; inactive: the webhook was switched off)",
    ['outcome'],
  ),
};

/** Counts stop here: a backlog past it reads as this many, and reading it costs a bounded index scan per scrape. */
export const BACKLOG_COUNT_CAP = 100_000;
/** Scrapes within this time share one reading (several services' registries in one process, several scrapers). */
export const BACKLOG_READ_INTERVAL_MS = 5_000;

export interface BacklogReading {
  jobs: Array<{ queue: string; queued: number; deferred: number; active: number; oldestSeconds: number }>;
  outbox: { unrelayed: number; oldestSeconds: number };
  deliveries: Record<'pending' | 'retrying', { queued: number; oldestDueSeconds: number }>;
}

/**
 * Outbox and deliveries, each through its partial index (`outbox_events_unrelayed_idx`,
 * `deliveries_due_idx`): the cost follows the backlog (capped), never the table.
 */
const PLATFORM_SQL = `
  select
    (select count(*) from (select 1 from platform.outbox_events where relayed_at is null limit $1) s)::int as outbox_unrelayed,
    coalesce((select extract(epoch from now() - created_at) from platform.outbox_events where relayed_at is null order by id limit 1), 0)::float8 as outbox_oldest,
    (select count(*) from (select 1 from platform.deliveries where status = 'PENDING' and attempt_count = 0 limit $1) s)::int as pending,
    (select count(*) from (select 1 from platform.deliveries where status = 'PENDING' and attempt_count > 0 limit $1) s)::int as retrying,
    coalesce((select extract(epoch from now() - next_attempt_at) from platform.deliveries
       where status = 'PENDING' and attempt_count = 0 and next_attempt_at <= now() and (claimed_until is null or claimed_until < now())
       order by next_attempt_at limit 1), 0)::float8 as pending_due,
    coalesce((select extract(epoch from now() - next_attempt_at) from platform.deliveries
       where status = 'PENDING' and attempt_count > 0 and next_attempt_at <= now() and (claimed_until is null or claimed_until < now())
       order by next_attempt_at limit 1), 0)::float8 as retrying_due`;

/**
 * Every pg-boss queue, its waiting jobs through pg-boss's own fetch index (`job_i5`: name,
 * start_after where state < active), and its active count as pg-boss's monitor last cached it.
 */
const JOBS_SQL = `
  select q.name as queue, q.active_count as active,
    (select count(*) from (select 1 from pgboss.job j
       where j.name = q.name and j.state < 'active' and not j.blocked and j.start_after <= now() limit $1) s)::int as queued,
    (select count(*) from (select 1 from pgboss.job j
       where j.name = q.name and j.state < 'active' and not j.blocked and j.start_after > now() limit $1) s)::int as deferred,
    coalesce((select extract(epoch from now() - min(j.start_after)) from pgboss.job j
       where j.name = q.name and j.state < 'active' and not j.blocked and j.start_after <= now()), 0)::float8 as oldest
  from pgboss.queue q order by q.name`;

/** The statements, for tests that check their plans. */
export const BACKLOG_SQL = { PLATFORM_SQL, JOBS_SQL };

/**
 * A reading taken at scrape time, at most once per `intervalMs` (scrapes in between, and the
 * several gauges of one reading, share it); null when it failed, logged as `what`.
 */
export function sharedReading<T>(
  read: () => Promise<T>,
  logger: Logger,
  what: string,
  intervalMs = BACKLOG_READ_INTERVAL_MS,
): () => Promise<T | null> {
  let last: { at: number; reading: Promise<T | null> } | null = null;
  return () => {
    if (!last || performance.now() - last.at >= intervalMs) {
      last = {
        at: performance.now(),
        reading: read().catch((err: unknown) => {
          logger.warn({ err }, `could not read ${what} for /metrics`);
          return null;
        }),
      };
    }
    return last.reading;
  };
}

/** Reads the backlog from PostgreSQL at scrape time, at most once per interval (scrapes in between share the reading). */
export class BacklogReader {
  /** The latest reading (null when the database could not be read: the gauges then report nothing rather than stale values). */
  readonly current: () => Promise<BacklogReading | null>;

  constructor(
    private readonly pool: pg.Pool,
    logger: Logger,
    intervalMs = BACKLOG_READ_INTERVAL_MS,
  ) {
    this.current = sharedReading(() => this.read(), logger, 'the backlog', intervalMs);
  }

  async read(): Promise<BacklogReading> {
    // pg-boss makes its schema when a process first starts it: until then there are no queues
    const [{ rows: platform }, jobs] = await Promise.all([
      this.pool.query(PLATFORM_SQL, [BACKLOG_COUNT_CAP]),
      this.pool
        .query<{ exists: boolean }>(`select to_regclass('pgboss.queue') is not null as exists`)
        .then(({ rows }) => (rows[0].exists ? this.pool.query(JOBS_SQL, [BACKLOG_COUNT_CAP]).then((r) => r.rows) : [])),
    ]);
    const p = platform[0];
    return {
      jobs: jobs.map((j) => ({
        queue: j.queue,
        queued: j.queued,
        deferred: j.deferred,
        active: j.active,
        oldestSeconds: Math.max(0, j.oldest),
      })),
      outbox: { unrelayed: p.outbox_unrelayed, oldestSeconds: Math.max(0, p.outbox_oldest) },
      deliveries: {
        pending: { queued: p.pending, oldestDueSeconds: Math.max(0, p.pending_due) },
        retrying: { queued: p.retrying, oldestDueSeconds: Math.max(0, p.retrying_due) },
      },
    };
  }
}

/** The backlog gauges (read at scrape time) and the relay's and delivery worker's counters of one stack. */
export class BacklogMetrics {
  readonly relayed = makeCounter(BACKLOG_METRICS.outboxRelayed);
  readonly attempts = makeCounter(BACKLOG_METRICS.deliveryAttempts);
  readonly metrics;

  constructor(reader: Pick<BacklogReader, 'current'>) {
    // a gauge set from each reading; unread (the database failed), labelled ones report no series and the others NaN, never a stale or made-up 0
    const read = <L extends string>(def: MetricDefinition<L>, set: (gauge: Gauge<L>, reading: BacklogReading) => void) =>
      makeGauge(def, async (gauge) => {
        const reading = await reader.current();
        gauge.reset();
        if (reading) set(gauge, reading);
        else if (!def.labelNames.length) gauge.set(NaN);
      });
    const states = ['pending', 'retrying'] as const;
    for (const outcome of ['delivered', 'retry', 'failed', 'inactive']) this.attempts.inc({ outcome }, 0);
    this.metrics = [
      read(BACKLOG_METRICS.jobsQueued, (g, r) => r.jobs.forEach((j) => g.set({ queue: j.queue }, j.queued))),
      read(BACKLOG_METRICS.jobsDeferred, (g, r) => r.jobs.forEach((j) => g.set({ queue: j.queue }, j.deferred))),
      read(BACKLOG_METRICS.jobsActive, (g, r) => r.jobs.forEach((j) => g.set({ queue: j.queue }, j.active))),
      read(BACKLOG_METRICS.jobsOldest, (g, r) => r.jobs.forEach((j) => g.set({ queue: j.queue }, j.oldestSeconds))),
      read(BACKLOG_METRICS.outboxUnrelayed, (g, r) => g.set(r.outbox.unrelayed)),
      read(BACKLOG_METRICS.outboxOldest, (g, r) => g.set(r.outbox.oldestSeconds)),
      read(BACKLOG_METRICS.deliveriesQueued, (g, r) => states.forEach((state) => g.set({ state }, r.deliveries[state].queued))),
      read(BACKLOG_METRICS.deliveriesOldestDue, (g, r) =>
        states.forEach((state) => g.set({ state }, r.deliveries[state].oldestDueSeconds)),
      ),
      this.relayed,
      this.attempts,
    ];
  }

  /** A delivery attempt's outcome, from the delivery's lifecycle trigger. */
  attempted(trigger: string): void {
    const outcome = {
      'attempt.delivered': 'delivered',
      'attempt.retry': 'retry',
      'attempt.failed': 'failed',
      'target.inactive': 'inactive',
    }[trigger];
    if (outcome) this.attempts.inc({ outcome });
  }
}
