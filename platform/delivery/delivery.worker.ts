import type pg from 'pg';
import type { Logger } from '../logger.js';
import { inTransaction, type Sql } from '../db/transaction.js';
import { deliveryEventsFrom } from './delivery.events.js';
import { DELIVERY_LIFECYCLE, type DeliveryStatus, type DeliveryTrigger } from './delivery.lifecycle.js';
import { isSuccess, signedPost, type PostOptions, type PostOutcome } from './post.js';
import { contextFrom, currentTraceparent, inSpan, SpanKind } from '../tracing.js';
import type { BacklogMetrics } from '../metrics/backlog.js';
import { Coalesced } from '../coalesced.js';

export interface DeliveryWorkerOptions extends PostOptions {
  pool: pg.Pool;
  logger: Logger;
  /** Seconds before each retry: `[60, 300, 1800]` = 3 retries at +1, +5, +30 minutes. */
  retryDelays: number[];
  /** How often due deliveries are looked for when nothing woke the worker (retries, other processes' deliveries). */
  pollMs?: number;
  /** POSTs in flight at once. */
  concurrency?: number;
  /** POSTs in flight at once to one origin (scheme, host and port), across every worker: a slow receiver holds only these. */
  concurrencyPerTarget?: number;
  /** Counts the attempts by outcome (docs/metrics.md). */
  metrics?: Pick<BacklogMetrics, 'attempted'>;
}

export const DEFAULT_CONCURRENCY_PER_TARGET = 2;

/** A callback's outcome as its owner sees it, after every attempt. */
export interface DeliveryOutcome {
  id: string;
  ownerType: string;
  ownerId: string;
  status: DeliveryStatus;
  attemptCount: number;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  nextAttemptAt: Date | null;
}

/** Runs in the transaction that records the attempt: the owner's own state and events commit with it. */
export type OutcomeHandler = (tx: pg.PoolClient, outcome: DeliveryOutcome) => Promise<void>;

export interface NewDelivery {
  organizationId: string;
  environment: string;
  event: string;
  url: string;
  body: string;
  secret: string;
  ownerType: string;
  ownerId: string;
  messageId?: string;
}

interface Claimed {
  id: string;
  claim_id: string;
  url: string;
  body: string;
  secret: string | null;
  message_id: string;
  attempt_count: number;
  webhook_id: string | null;
  webhook_active: boolean | null;
  owner_type: string | null;
  owner_id: string | null;
  /** The trace of the request whose event this delivers (null when not tracing). */
  trace_parent: string | null;
}

export const DEFAULT_DELIVERY_POLL_MS = 1_000;
/** A claim outlives the POST's timeout by this much; after it, another worker may take the delivery. */
const CLAIM_MARGIN_SECONDS = 10;

/**
 * Schedules a callback in the caller's transaction (committed with the change it reports): due at
 * once, signed with its own secret, its owner told of every attempt (`onOutcome`).
 */
export async function scheduleDelivery(db: Sql, d: NewDelivery): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `insert into platform.deliveries (id, organization_id, environment, owner_type, owner_id, event, url, message_id, secret, body, status, next_attempt_at, trace_parent)
     values (gen_random_uuid(), $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now(), $11) returning id`,
    [
      d.organizationId,
      d.environment,
      d.ownerType,
      d.ownerId,
      d.event,
      d.url,
      d.messageId ?? null,
      d.secret,
      d.body,
      DELIVERY_LIFECYCLE.target('created'),
      currentTraceparent(),
    ],
  );
  return rows[0].id;
}

/** Manual redelivery: the delivery is attempted again now, whatever its status. */
export async function redeliver(db: Sql, id: string): Promise<void> {
  await db.query(
    `with moved as (
       update platform.deliveries set status = $2, next_attempt_at = now(), claim_id = null, claimed_until = null
        where id = $1 and status = any($3::text[]) returning *)
     ${deliveryEventsFrom('moved', '$4::text')}`,
    [id, DELIVERY_LIFECYCLE.target('redeliver'), DELIVERY_LIFECYCLE.sources('redeliver'), DELIVERY_LIFECYCLE.eventOf('redeliver')],
  );
}

/**
 * The one signed-HTTP delivery worker (webhooks and every callback). Claims due deliveries for the
 * timeout plus a margin, POSTs them, then records the attempt, the delivery's next status and
 * schedule, and the owner's reaction in one transaction. A process killed mid-POST leaves a claim
 * that expires: another worker (or this one after restart) takes the delivery again.
 */
export class DeliveryWorker {
  private readonly handlers = new Map<string, OutcomeHandler>();
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private readonly filler = new Coalesced(
    () => this.fill(),
    (err) => this.opts.logger.error({ err }, 'could not claim deliveries'),
  );
  private stopped = true;

  constructor(private readonly opts: DeliveryWorkerOptions) {}

  /** Callbacks of `ownerType` are delivered only by processes that registered its handler. */
  onOutcome(ownerType: string, handler: OutcomeHandler): void {
    this.handlers.set(ownerType, handler);
  }

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.wake(), this.opts.pollMs ?? DEFAULT_DELIVERY_POLL_MS);
    this.timer.unref();
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.filler.settled();
    await Promise.allSettled([...this.inFlight]);
  }

  /** Deliveries may be due: claim as many as there are free slots. */
  wake(): void {
    if (!this.stopped) this.filler.wake();
  }

  private async fill(): Promise<void> {
    const slots = this.opts.concurrency ?? 8;
    while (!this.stopped && this.inFlight.size < slots) {
      const claimed = await this.claim(slots - this.inFlight.size);
      for (const d of claimed) {
        const work: Promise<void> = this.attempt(d)
          .catch((err) => this.opts.logger.error({ err, deliveryId: d.id }, 'delivery attempt could not be recorded'))
          .finally(() => {
            this.inFlight.delete(work);
            this.wake();
          });
        this.inFlight.add(work);
      }
      if (claimed.length === 0) return;
    }
  }

  private async claim(limit: number): Promise<Claimed[]> {
    const lease = Math.ceil(this.opts.timeoutMs / 1000) + CLAIM_MARGIN_SECONDS;
    // an origin's deliveries already claimed (by any worker) count against its share
    const { rows } = await this.opts.pool.query<Claimed>(
      `with busy as (
         select substring(url from '^[^:]+://[^/?#]+') as origin, count(*) as n from platform.deliveries
          where status = 'PENDING' and claimed_until > now() group by 1),
       candidates as (
         select id, row_number() over (partition by substring(url from '^[^:]+://[^/?#]+') order by next_attempt_at) as rank,
                substring(url from '^[^:]+://[^/?#]+') as origin
           from platform.deliveries
          where status = 'PENDING' and next_attempt_at <= now() and (claimed_until is null or claimed_until < now())
            and (owner_type is null or owner_type = any($2::text[]))
          order by next_attempt_at limit 1000),
       due as (
         select d.id from platform.deliveries d
           join candidates c on c.id = d.id left join busy b on b.origin = c.origin
          where c.rank + coalesce(b.n, 0) <= $4
            and d.status = 'PENDING' and (d.claimed_until is null or d.claimed_until < now())
          order by d.next_attempt_at limit $1 for update of d skip locked),
       claimed as (
         update platform.deliveries d set claim_id = gen_random_uuid(), claimed_until = now() + make_interval(secs => $3)
           from due where d.id = due.id
         returning d.*)
       select c.id, c.claim_id, c.url, c.body, coalesce(w.secret, c.secret) as secret, coalesce(c.message_id, 'msg_' || c.id) as message_id,
              c.attempt_count, c.webhook_id, w.active as webhook_active, c.owner_type, c.owner_id, c.trace_parent
         from claimed c left join platform.webhooks w on w.id = c.webhook_id`,
      [limit, [...this.handlers.keys()], lease, this.opts.concurrencyPerTarget ?? DEFAULT_CONCURRENCY_PER_TARGET],
    );
    return rows;
  }

  /** One attempt of a claimed delivery. */
  private async attempt(d: Claimed): Promise<void> {
    if (d.webhook_id && !d.webhook_active) {
      await this.record(d, 'target.inactive', null);
      return;
    }
    const startedAt = new Date();
    // the POST continues the trace of the request that caused it, and hands it to the receiver
    const outcome = await inSpan(
      'webhook delivery',
      {
        kind: SpanKind.CLIENT,
        parent: contextFrom({ traceparent: d.trace_parent }),
        attributes: { 'delivery.id': d.id, 'delivery.attempt': d.attempt_count + 1 },
      },
      async (span) => {
        const result = d.secret
          ? await signedPost(d.url, d.body, d.secret, d.message_id, this.opts)
          : { statusCode: null, error: 'no signing secret', durationMs: 0 };
        if (result.statusCode !== null) span?.setAttribute('http.response.status_code', result.statusCode);
        return result;
      },
    );
    const retryIn = this.opts.retryDelays[d.attempt_count];
    const trigger: DeliveryTrigger = isSuccess(outcome) ? 'attempt.delivered' : retryIn !== undefined ? 'attempt.retry' : 'attempt.failed';
    await this.record(d, trigger, { ...outcome, startedAt, retryIn: retryIn ?? null });
  }

  /** The attempt, the delivery's move and the owner's reaction: one transaction, only while the claim is ours. */
  private async record(d: Claimed, trigger: DeliveryTrigger, attempt: (PostOutcome & { startedAt: Date; retryIn: number | null }) | null) {
    await inTransaction(this.opts.pool, async (tx) => {
      const number = d.attempt_count + (attempt ? 1 : 0);
      const { rows } = await tx.query<{
        status: DeliveryStatus;
        delivered_at: Date | null;
        next_attempt_at: Date | null;
      }>(
        `with moved as (
           update platform.deliveries
              set status = $3, attempt_count = $4, last_status_code = case when $9::boolean then $5 else last_status_code end, last_error = $6,
                  delivered_at = case when $3 = 'DELIVERED' then now() else delivered_at end,
                  next_attempt_at = case when $7::float8 is null then null else now() + make_interval(secs => $7::float8) end,
                  claim_id = null, claimed_until = null
            where id = $1 and claim_id = $2 and status = any($8::text[])
            returning *),
         events as (${deliveryEventsFrom('moved', '$10::text')})
         select status, delivered_at, next_attempt_at from moved`,
        [
          d.id,
          d.claim_id,
          DELIVERY_LIFECYCLE.target(trigger),
          number,
          attempt?.statusCode ?? null,
          attempt ? attempt.error : 'the webhook was deactivated',
          trigger === 'attempt.retry' ? attempt!.retryIn : null,
          DELIVERY_LIFECYCLE.sources(trigger),
          attempt !== null,
          DELIVERY_LIFECYCLE.eventOf(trigger) ?? null,
        ],
      );
      // the claim expired and another worker took the delivery: its outcome counts
      if (!rows[0]) return;
      this.opts.metrics?.attempted(trigger);
      if (attempt) {
        await tx.query(
          'insert into platform.delivery_attempts (delivery_id, number, started_at, status_code, error, duration_ms) values ($1, $2, $3, $4, $5, $6)',
          [d.id, number, attempt.startedAt, attempt.statusCode, attempt.error, attempt.durationMs],
        );
      }
      const handler = d.owner_type ? this.handlers.get(d.owner_type) : undefined;
      if (handler && d.owner_type && d.owner_id) {
        await handler(tx, {
          id: d.id,
          ownerType: d.owner_type,
          ownerId: d.owner_id,
          status: rows[0].status,
          attemptCount: number,
          lastStatusCode: attempt?.statusCode ?? null,
          lastError: attempt?.error ?? null,
          deliveredAt: rows[0].delivered_at,
          nextAttemptAt: rows[0].next_attempt_at,
        });
      }
    });
  }
}
