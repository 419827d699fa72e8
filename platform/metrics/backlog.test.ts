import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { Registry } from 'prom-client';
import { createTestDatabase } from '../../test/support/stack.js';
import { scheduleDelivery } from '../delivery/delivery.worker.js';
import { startJobs, type PgBoss } from '../jobs.js';
import { createLogger } from '../logger.js';
import { BACKLOG_SQL, BacklogMetrics, BacklogReader } from './backlog.js';

const logger = createLogger('backlog-test', 'silent');
const ORG = randomUUID();

describe('the backlog read from PostgreSQL', () => {
  let pool: pg.Pool;
  let boss: PgBoss;

  beforeAll(async () => {
    const url = await createTestDatabase();
    pool = new pg.Pool({ connectionString: url, max: 3 });
    boss = await startJobs(url, logger, 60);
  });
  afterAll(async () => {
    await boss?.stop({ graceful: false });
    await pool?.end();
  });

  const event = (ageSeconds: number, relayed: boolean) =>
    pool.query(
      `insert into platform.outbox_events (event_id, organization_id, environment, event, resource_type, resource_id, payload, snapshot, created_at, relayed_at)
       values (gen_random_uuid(), $1, 'live', 'x.created', 'x', 'x1', '{}', '{}', now() - make_interval(secs => $2), case when $3 then now() end)`,
      [ORG, ageSeconds, relayed],
    );
  const delivery = async (opts: { attempts: number; dueInSeconds: number; claimed?: boolean; status?: string }) => {
    const id = await scheduleDelivery(pool, {
      organizationId: ORG,
      environment: 'live',
      event: 'x.created',
      url: 'https://example.test/hook',
      body: '{}',
      secret: 'whsec_test',
      ownerType: 'test',
      ownerId: randomUUID(),
    });
    await pool.query(
      `update platform.deliveries set attempt_count = $2, next_attempt_at = now() + make_interval(secs => $3), status = $4,
         claimed_until = case when $5 then now() + interval '1 minute' end where id = $1`,
      [id, opts.attempts, opts.dueInSeconds, opts.status ?? 'PENDING', opts.claimed ?? false],
    );
  };

  it('reads an empty backlog as zeros, every pg-boss queue listed', async () => {
    await boss.createQueue('metrics-test-empty');
    const reading = await new BacklogReader(pool, logger).read();
    expect(reading.outbox).toEqual({ unrelayed: 0, oldestSeconds: 0 });
    expect(reading.deliveries).toEqual({ pending: { queued: 0, oldestDueSeconds: 0 }, retrying: { queued: 0, oldestDueSeconds: 0 } });
    expect(reading.jobs).toContainEqual({ queue: 'metrics-test-empty', queued: 0, deferred: 0, active: 0, oldestSeconds: 0 });
  });

  it('counts what waits and how long the oldest has waited', async () => {
    await event(120, false);
    await event(30, false);
    await event(600, true); // relayed: not backlog, however old
    await delivery({ attempts: 0, dueInSeconds: -90 });
    await delivery({ attempts: 0, dueInSeconds: -400, claimed: true }); // being attempted: not late
    await delivery({ attempts: 2, dueInSeconds: -15 });
    await delivery({ attempts: 1, dueInSeconds: 300 }); // backing off: waits, is not late
    await delivery({ attempts: 1, dueInSeconds: -1000, status: 'DELIVERED' });
    await boss.createQueue('metrics-test');
    await boss.send('metrics-test', { n: 1 });
    await boss.send('metrics-test', { n: 2 });
    await boss.send('metrics-test', { n: 3 }, { startAfter: 3600 });
    await pool.query(
      `update pgboss.job set start_after = now() - interval '45 seconds' where name = 'metrics-test' and start_after <= now()`,
    );

    const reading = await new BacklogReader(pool, logger).read();
    expect(reading.outbox.unrelayed).toBe(2);
    expect(reading.outbox.oldestSeconds).toBeGreaterThanOrEqual(119);
    expect(reading.outbox.oldestSeconds).toBeLessThan(200);
    expect(reading.deliveries.pending.queued).toBe(2);
    expect(reading.deliveries.pending.oldestDueSeconds).toBeGreaterThanOrEqual(89);
    expect(reading.deliveries.pending.oldestDueSeconds).toBeLessThan(200);
    expect(reading.deliveries.retrying.queued).toBe(2);
    expect(reading.deliveries.retrying.oldestDueSeconds).toBeGreaterThanOrEqual(14);
    expect(reading.deliveries.retrying.oldestDueSeconds).toBeLessThan(100);
    const job = reading.jobs.find((j) => j.queue === 'metrics-test');
    expect(job).toMatchObject({ queued: 2, deferred: 1 });
    expect(job!.oldestSeconds).toBeGreaterThanOrEqual(44);
  });

  it('answers every part through an index, never a scan of the table', async () => {
    // the partial indexes serve the queries whatever the planner would pick on tables this small
    const client = await pool.connect();
    try {
      await client.query('set enable_seqscan = off');
      const plan = async (sql: string) =>
        (await client.query(`explain ${sql}`, [100_000])).rows.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']).join('\n');
      const { PLATFORM_SQL, JOBS_SQL } = BACKLOG_SQL;
      const platform = await plan(PLATFORM_SQL);
      expect(platform).toContain('outbox_events_unrelayed_idx');
      expect(platform).toContain('deliveries_due_idx');
      expect(platform).not.toMatch(/Seq Scan on (outbox_events|deliveries)/);
      const jobs = await plan(JOBS_SQL);
      expect(jobs).not.toMatch(/Seq Scan on (job|j_)/);
    } finally {
      client.release();
    }
  });

  it('reports the reading as gauges, read once per interval whatever the scrapes, and nothing when the database fails', async () => {
    let reads = 0;
    const reader = new BacklogReader(pool, logger, 60_000);
    const read = reader.read.bind(reader);
    reader.read = () => (reads++, read());
    const metrics = new BacklogMetrics(reader);
    const registries = [new Registry(), new Registry()];
    for (const registry of registries) for (const m of metrics.metrics) registry.registerMetric(m);
    const [a, b] = await Promise.all(registries.map((r) => r.metrics()));
    expect(reads).toBe(1);
    expect(a).toBe(b);
    expect(a).toContain('outbox_unrelayed_events 2');
    expect(a).toContain('webhook_deliveries_queued{state="pending"} 2');
    expect(a).toContain('webhook_deliveries_queued{state="retrying"} 2');
    expect(a).toContain('jobs_queued{queue="metrics-test"} 2');
    expect(a).toContain('jobs_deferred{queue="metrics-test"} 1');
    expect(a).toMatch(/jobs_oldest_queued_age_seconds\{queue="metrics-test"\} (4[4-9]|[5-9]\d)/);
    expect(a).toContain('webhook_delivery_attempts_total{outcome="delivered"} 0');
    metrics.attempted('attempt.retry');
    metrics.attempted('created'); // not an attempt
    metrics.relayed.inc(3);
    const after = await registries[0].metrics();
    expect(after).toContain('webhook_delivery_attempts_total{outcome="retry"} 1');
    expect(after).toContain('outbox_relayed_events_total 3');

    const broken = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none', max: 1 });
    const failing = new BacklogMetrics(new BacklogReader(broken, logger));
    const registry = new Registry();
    for (const m of failing.metrics) registry.registerMetric(m);
    const text = await registry.metrics();
    expect(text).toContain('# TYPE outbox_unrelayed_events gauge');
    expect(text).toMatch(/^outbox_unrelayed_events nan$/im); // prom-client writes Nan, which Prometheus reads as NaN
    expect(text).not.toMatch(/^jobs_queued\{/m);
    await broken.end();
  });
});
