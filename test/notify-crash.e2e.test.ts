import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createTestDatabase, eventually, startTestStack, type TestStack } from './support/stack.js';
import { serviceProcess, type ServiceProcess } from './support/service-process.js';
import { Dispatcher } from '../subgraphs/notify/src/notifications/dispatch.worker.js';
import { createLogger } from '../platform/logger.js';

const TOTAL = 2_000;
/** Deliveries per claim (BATCH_CHUNK) and claims one instance works on at once. */
const CHUNK = 100;
const WORKERS = 4;

describe('a notify batch survives the notify process being killed mid-dispatch', () => {
  let stack: TestStack | undefined;
  let service: ServiceProcess | undefined;
  let db: pg.Pool | undefined;
  afterAll(async () => {
    await service?.dispose();
    await stack?.stop();
    await db?.end();
  });

  it('completes with every recipient processed once after SIGKILL and restart', async () => {
    const databaseUrl = await createTestDatabase();
    // a short claim lease: deliveries the killed process had claimed are taken again after 5 s, not 5 min
    service = await serviceProcess('notify', databaseUrl, { env: { NOTIFY_CLAIM_LEASE_SECONDS: '5' } });
    await service.start();
    // the other subgraphs stay in this process; only notify is a child process
    stack = await startTestStack({ NOTIFY_URL: service.url }, { databaseUrl, services: ['verification', 'risk', 'gateway', 'rest'] });
    db = new pg.Pool({ connectionString: databaseUrl, max: 2 });

    const client = await stack.createClient({ name: 'bulk sender', service: 'notify', environment: 'test' });
    const h = { authorization: `Bearer ${client.apiKey}` };
    let batchId = '';
    const progress = async () => (await stack!.rest('GET', `/v1/send/batch/${batchId}`, undefined, h)).body;
    const template = { name: 'promo', channels: { sms: { body: 'Hi {{first_name}}, ref {{ref}}' } } };
    expect((await stack.rest('POST', '/v1/templates', template, h)).status).toBe(201);
    // …5: never one of the sandbox's magic endings (0001-0003), so every recipient is delivered
    const recipients = Array.from({ length: TOTAL }, (_, i) => ({
      to: `+2547${30_000_000 + i * 10 + 5}`,
      data: { first_name: `C${i}`, ref: `R-${i}` },
    }));

    // The kill must come mid-dispatch however fast this machine sends: the sandbox's writes wait
    // until one recipient's notification is held, so the chunk holding it can send but never record.
    const sandboxHeld = await db.connect();
    const recipientHeld = await db.connect();
    try {
      await sandboxHeld.query('begin; lock table notify.sandbox_messages in share row exclusive mode');
      const accepted = await stack.rest('POST', '/v1/send/batch', { template: 'promo', channels: ['sms'], recipients }, h);
      expect(accepted.status).toBe(202);
      expect(accepted.body).toMatchObject({ total: TOTAL, queued: TOTAL, status: 'processing' });
      batchId = accepted.body.batch_id;
      await recipientHeld.query('begin');
      const held = await recipientHeld.query('select id from notify.notifications where batch_id = $1 and recipient = $2 for update', [
        batchId,
        recipients[TOTAL - 1].to,
      ]);
      expect(held.rowCount).toBe(1);
      await sandboxHeld.query('commit');
      // kill once the other chunks have recorded some recipients: the held one is claimed, sent, not recorded
      await eventually(async () => (await progress()).processed > 0, 20_000, 20);
      await service.kill();
      await recipientHeld.query('rollback');
    } finally {
      sandboxHeld.release();
      recipientHeld.release();
    }

    // the API is down with notify: read what the killed process left in the database
    const { rows: atKill } = await db.query<{ status: string; processed: number; total: number }>(
      'select status, processed, total from notify.batches where id = $1',
      [batchId],
    );
    expect(atKill[0].status).toBe('processing');
    expect(atKill[0].processed).toBeGreaterThan(0);
    expect(atKill[0].processed).toBeLessThan(TOTAL);
    // what the killed process had claimed (in flight; the lease may have run out on a slow machine) or not reached yet
    const { rows: left } = await db.query<{ claimed: number; unclaimed: number }>(
      `select count(*) filter (where d.claimed_until is not null)::int as claimed, count(*) filter (where d.claimed_until is null)::int as unclaimed
         from notify.deliveries d join notify.notifications n on n.id = d.notification_id
        where n.batch_id = $1 and d.status = 'queued'`,
      [batchId],
    );
    // the kill came while workers were sending: some deliveries are claimed by the dead process
    expect(left[0].claimed).toBeGreaterThan(0);
    expect(left[0].claimed + left[0].unclaimed).toBe(TOTAL - atKill[0].processed);

    await service.start();
    const done = await eventually(
      async () => {
        const b = await progress();
        return b.status === 'completed' ? b : null;
      },
      45_000,
      250,
    );
    expect(done).toMatchObject({
      batch_id: batchId,
      total: TOTAL,
      queued: 0,
      processed: TOTAL,
      succeeded: TOTAL,
      failed: 0,
      status: 'completed',
    });
    expect(done.channels.sms).toEqual({ queued: 0, sent: 0, delivered: TOTAL, opened: 0, failed: 0, undeliverable: 0 });

    // every recipient once: one notification each, delivered, processed once
    const { rows: per } = await db.query<{ notifications: number; delivered: number; processed: number; recipients: number }>(
      `select count(*)::int as notifications, count(distinct n.recipient)::int as recipients,
              count(*) filter (where n.status = 'delivered')::int as delivered, count(n.processed_at)::int as processed
         from notify.notifications n where n.batch_id = $1`,
      [batchId],
    );
    expect(per[0]).toEqual({ notifications: TOTAL, recipients: TOTAL, delivered: TOTAL, processed: TOTAL });
    // every recipient got its message; at least once means only what was in flight at the kill
    // (at most one claim per worker) may have been handed to the provider twice
    const { rows: sent } = await db.query<{ recipients: number; twice: number; most: number }>(
      `select count(*)::int as recipients, count(*) filter (where c > 1)::int as twice, coalesce(max(c), 0)::int as most
         from (select m.recipient, count(*) as c from notify.sandbox_messages m join notify.notifications n on n.id = m.notification_id
                where n.batch_id = $1 group by m.recipient) t`,
      [batchId],
    );
    expect(sent[0].recipients).toBe(TOTAL);
    expect(sent[0].twice).toBeLessThanOrEqual(WORKERS * CHUNK);
    expect(sent[0].most).toBeLessThanOrEqual(2);
    const sample = await stack.rest('GET', `/v1/sandbox/messages?to=${encodeURIComponent(recipients[TOTAL - 1].to)}`, undefined, h);
    expect(sample.body.data[0].body).toBe(`Hi C${TOTAL - 1}, ref R-${TOTAL - 1}`);
  }, 90_000);
});

describe('a delivery another worker claimed (it may have died)', () => {
  it('is taken again as its lease ends, without waiting for a poll', async () => {
    const db = new pg.Pool({ connectionString: await createTestDatabase(), max: 4 });
    const sent: Array<{ at: number; attempt: number }> = [];
    let taken!: () => void;
    const takenAgain = new Promise<void>((resolve) => (taken = resolve));
    const providers = new Map([
      [
        'sandbox',
        {
          send: async (m: { attempt: number }) => {
            sent.push({ at: Date.now(), attempt: m.attempt });
            taken();
            return { status: 'delivered' };
          },
        },
      ],
    ]);
    const dispatcher = new Dispatcher({
      pool: db,
      providers: providers as never,
      renderer: { render: () => ({ body: 'Hi' }) } as never,
      logger: createLogger('notify-lease', 'silent'),
      retryDelays: [],
      publicUrl: 'http://127.0.0.1',
      // far longer than the test: only the look-ahead at start can time the claim
      pollSeconds: 300,
    });
    try {
      const [notification, delivery, organization] = [randomUUID(), randomUUID(), randomUUID()];
      await db.query(
        `insert into notify.notifications (id, organization_id, environment, template_id, template_name, template_version, recipient)
         values ($1, $2, 'test', $3, 'promo', 1, '+254730000005')`,
        [notification, organization, randomUUID()],
      );
      // claimed by a worker (now dead) whose lease runs 3 s more
      const { rows: claimed } = await db.query<{ lease_end: Date }>(
        `insert into notify.deliveries (id, notification_id, organization_id, environment, channel, status, provider, address, attempts, claimed_until)
         values ($1, $2, $3, 'test', 'sms', 'queued', 'sandbox', '+254730000005', 1, now() + interval '3 seconds') returning claimed_until as lease_end`,
        [delivery, notification, organization],
      );
      dispatcher.start();
      await takenAgain;
      expect(sent).toHaveLength(1);
      expect(sent[0].attempt).toBe(2);
      // not before the lease ended, and soon after
      expect(sent[0].at).toBeGreaterThanOrEqual(claimed[0].lease_end.getTime());
      expect(sent[0].at).toBeLessThan(claimed[0].lease_end.getTime() + 2_000);
      const status = await eventually(async () => {
        const { rows } = await db.query('select status, attempts, claimed_until from notify.deliveries where id = $1', [delivery]);
        return rows[0].status === 'delivered' ? rows[0] : null;
      });
      expect(status).toEqual({ status: 'delivered', attempts: 2, claimed_until: null });
    } finally {
      await dispatcher.stop();
      await db.end();
    }
  });
});
