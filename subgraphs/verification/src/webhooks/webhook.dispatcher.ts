import https from 'node:https';
import { rootCertificates } from 'node:tls';
import type pg from 'pg';
import type { PgBoss } from '../../../../platform/jobs.js';
import type { Logger } from '../../../../platform/logger.js';
import type { EventStream } from '../../../../platform/events/event-stream.js';
import { resolveTarget } from './webhook.target.js';
import { signedHeaders } from './webhook.signature.js';

export const DELIVERY_QUEUE = 'webhook-delivery';
const RELAY_CHUNK = 1000;
const PRUNE_EVERY_MS = 10 * 60_000;

export interface DispatcherOptions {
  pool: pg.Pool;
  boss: PgBoss;
  events: EventStream;
  logger: Logger;
  timeoutMs: number;
  /** Seconds before each retry: `[60, 300, 1800]` = 3 retries at +1, +5, +30 minutes. */
  retryDelays: number[];
  allowPrivateTargets: boolean;
  pollMs: number;
  /** Relayed outbox rows older than this are deleted (deliveries keep their own copy). */
  retentionHours: number;
  /** Extra CA certificates (PEM) trusted for callback TLS, e.g. a local receiver's. */
  ca?: string;
}

interface DeliveryRow {
  id: string;
  status: string;
  attempt_count: number;
  body: string;
  callback_url: string;
  secret: string;
  active: boolean;
}

type Executor = { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> };
const executorOf = (client: pg.PoolClient): Executor => ({ executeSql: (text, values) => client.query(text, values as unknown[]) });

/**
 * Outbox → deliveries → signed POSTs. The relay turns committed outbox events into delivery rows
 * and jobs in one transaction; the worker POSTs, records each attempt and schedules the next one
 * in one transaction. A process killed mid-delivery leaves its job active: pg-boss expires it and
 * another worker (after restart) delivers it.
 */
export class WebhookDispatcher {
  private timer: NodeJS.Timeout | null = null;
  private pruner: NodeJS.Timeout | null = null;
  private unwake: (() => void) | null = null;
  private relaying: Promise<void> | null = null;
  private again = false;

  constructor(private readonly opts: DispatcherOptions) {}

  async start(): Promise<void> {
    const expireInSeconds = Math.ceil(this.opts.timeoutMs / 1000) + 5;
    await this.opts.boss.createQueue(DELIVERY_QUEUE, { expireInSeconds, retryLimit: 10, retryDelay: 1 }).catch(() => undefined);
    await this.opts.boss.updateQueue(DELIVERY_QUEUE, { expireInSeconds, retryLimit: 10, retryDelay: 1 });
    await this.opts.boss.work<{ deliveryId: string }>(DELIVERY_QUEUE, { pollingIntervalSeconds: 0.5, batchSize: 1 }, async ([job]) => {
      await this.deliver(job.data.deliveryId);
    });
    // wake the relay on every committed event; poll as a safety net (missed notifications, restarts)
    this.unwake = this.opts.events.onNotice(() => this.relaySoon());
    this.timer = setInterval(() => this.relaySoon(), this.opts.pollMs);
    this.pruner = setInterval(
      () => void this.prune().catch((err) => this.opts.logger.warn({ err }, 'outbox pruning failed')),
      PRUNE_EVERY_MS,
    );
    this.pruner.unref();
    this.relaySoon();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.pruner) clearInterval(this.pruner);
    this.timer = null;
    this.unwake?.();
    await this.relaying;
  }

  private relaySoon(): void {
    // an event committed while a relay runs may have missed its SELECT: run once more after it
    if (this.relaying) {
      this.again = true;
      return;
    }
    this.again = false;
    this.relaying = this.relay()
      .catch((err) => this.opts.logger.error({ err }, 'outbox relay failed'))
      .then(() => undefined)
      .finally(() => {
        this.relaying = null;
        if (this.again && this.timer) this.relaySoon();
      });
  }

  /**
   * Claims unrelayed outbox events and creates one delivery (and job) per matching webhook, set
   * at a time: a 10,000-notification batch costs a few statements, not one per event.
   */
  async relay(): Promise<number> {
    let total = 0;
    for (;;) {
      const client = await this.opts.pool.connect();
      try {
        await client.query('begin');
        const { rows } = await client.query<{
          id: string;
          event_id: string;
          organization_id: string;
          environment: string;
          event: string;
          payload: unknown;
        }>(
          `select id, event_id, organization_id, environment, event, payload from platform.outbox_events
            where relayed_at is null order by id limit ${RELAY_CHUNK} for update skip locked`,
        );
        if (rows.length) {
          const created = await client.query<{ id: string }>(
            `insert into verification.webhook_deliveries (id, organization_id, webhook_id, event_id, event, body, status, next_attempt_at)
             select gen_random_uuid(), w.organization_id, w.id, e.event_id, e.event, e.body, 'PENDING', now()
               from unnest($1::uuid[], $2::text[], $3::text[], $4::uuid[], $5::text[]) as e(event_id, event, body, organization_id, environment)
               join verification.webhooks w
                 on w.organization_id = e.organization_id and w.environment = e.environment and w.active and w.events ? e.event
             on conflict (webhook_id, event_id) do nothing
             returning id`,
            [
              rows.map((e) => e.event_id),
              rows.map((e) => e.event),
              rows.map((e) => JSON.stringify(e.payload)),
              rows.map((e) => e.organization_id),
              rows.map((e) => e.environment),
            ],
          );
          if (created.rows.length) {
            await this.opts.boss.insert(
              DELIVERY_QUEUE,
              created.rows.map((d) => ({ data: { deliveryId: d.id } })),
              { db: executorOf(client) },
            );
          }
          await client.query('update platform.outbox_events set relayed_at = now() where id = any($1)', [rows.map((r) => r.id)]);
        }
        await client.query('commit');
        total += rows.length;
        if (rows.length < RELAY_CHUNK) return total;
      } catch (err) {
        await client.query('rollback').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    }
  }

  /** Deletes relayed outbox rows past the retention, a bounded chunk at a time. */
  async prune(): Promise<number> {
    const { rowCount } = await this.opts.pool.query(
      `delete from platform.outbox_events where id in (
         select id from platform.outbox_events where relayed_at < now() - $1 * interval '1 hour' limit 10000)`,
      [this.opts.retentionHours],
    );
    return rowCount ?? 0;
  }

  async enqueue(deliveryId: string, afterSeconds = 0, db?: Executor): Promise<void> {
    await this.opts.boss.send(DELIVERY_QUEUE, { deliveryId }, { startAfter: afterSeconds, ...(db ? { db } : {}) });
  }

  /** One attempt. Idempotent: a delivery that is no longer PENDING is left alone. */
  async deliver(deliveryId: string): Promise<void> {
    const { rows } = await this.opts.pool.query<DeliveryRow>(
      `select d.id, d.status, d.attempt_count, d.body, w.callback_url, w.secret, w.active
         from verification.webhook_deliveries d join verification.webhooks w on w.id = d.webhook_id where d.id = $1`,
      [deliveryId],
    );
    const d = rows[0];
    if (!d || d.status !== 'PENDING') return;
    if (!d.active) {
      await this.opts.pool.query(`update verification.webhook_deliveries set status = 'FAILED', next_attempt_at = null where id = $1`, [
        d.id,
      ]);
      return;
    }
    const startedAt = new Date();
    const outcome = await this.post(d).catch((err: Error) => ({ statusCode: null as number | null, error: err.message }));
    const durationMs = Date.now() - startedAt.getTime();
    const ok = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
    const number = d.attempt_count + 1;
    const retryIn = this.opts.retryDelays[number - 1];

    const client = await this.opts.pool.connect();
    try {
      await client.query('begin');
      await client.query(
        `insert into verification.webhook_attempts (delivery_id, number, started_at, status_code, error, duration_ms) values ($1, $2, $3, $4, $5, $6)`,
        [d.id, number, startedAt, outcome.statusCode, outcome.error, durationMs],
      );
      if (ok) {
        await client.query(
          `update verification.webhook_deliveries set status = 'DELIVERED', attempt_count = $2, delivered_at = now(), next_attempt_at = null where id = $1`,
          [d.id, number],
        );
      } else if (retryIn !== undefined) {
        await client.query(
          `update verification.webhook_deliveries set attempt_count = $2, next_attempt_at = now() + make_interval(secs => $3) where id = $1`,
          [d.id, number, retryIn],
        );
        await this.enqueue(d.id, retryIn, executorOf(client));
      } else {
        await client.query(
          `update verification.webhook_deliveries set status = 'FAILED', attempt_count = $2, next_attempt_at = null where id = $1`,
          [d.id, number],
        );
      }
      await client.query('commit');
    } catch (err) {
      await client.query('rollback').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  private async post(d: DeliveryRow): Promise<{ statusCode: number | null; error: string | null }> {
    const target = await resolveTarget(d.callback_url, this.opts.allowPrivateTargets);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'afri-platform-webhooks/1',
      ...signedHeaders(d.secret, `msg_${d.id}`, d.body),
    };
    return new Promise((resolve, reject) => {
      const req = https.request(
        target.url,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': Buffer.byteLength(d.body) },
          timeout: this.opts.timeoutMs,
          ca: this.opts.ca ? [...rootCertificates, this.opts.ca] : undefined,
          // connect to the address that passed the private-target check
          lookup: (_host, _o, cb) => cb(null, target.address, target.family),
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ statusCode: res.statusCode ?? null, error: null }));
        },
      );
      req.on('timeout', () => req.destroy(new Error(`timed out after ${this.opts.timeoutMs} ms`)));
      req.on('error', reject);
      req.end(d.body);
    });
  }
}
