import type pg from 'pg';
import type { Logger } from '../logger.js';
import { inTransaction } from '../db/transaction.js';
import { DELIVERY_LIFECYCLE } from '../delivery/delivery.lifecycle.js';
import { deliveryEventsFrom } from '../delivery/delivery.events.js';
import type { BusEvent, EventStream } from './event-stream.js';
import { OUTBOX_SUBJECT } from './nats-bus.js';
import { relaySpan } from '../tracing.js';
import type { BacklogMetrics } from '../metrics/backlog.js';

const RELAY_CHUNK = 1000;
const PRUNE_EVERY_MS = 10 * 60_000;
/**
 * Notices arriving within this window share one relay run: with a relay in every process, a busy
 * outbox (hundreds of events a second) costs each process a few transactions a second, not one
 * per notice. Webhooks leave at most this much later.
 */
const RELAY_COALESCE_MS = 50;
/** With the NATS bus, subscribers wait for the relay: a shorter window (one relaying process wakes, see BusBridge). */
const BUS_COALESCE_MS = 2;
/** The transaction lock relays take before publishing to the bus ('BUSP'): one at a time, so events leave in outbox order. */
const PUBLISH_LOCK = 0x42555350;
/**
 * A relay's transaction reads the unrelayed events by walking the partial index in id order. A
 * relayed event leaves a dead entry in that index until the table is vacuumed; a bitmap scan (the
 * planner's choice once it expects fewer rows than a chunk) or a sequential scan visits each of
 * their heap pages on every run — 45 ms and 2,400 pages after 18 s at 500 events/s, a quarter of
 * PostgreSQL's statement time per risk evaluation (BENCHMARKS.md) — while an index scan marks them dead once
 * and steps over them after. Set in the same round trip as `begin`.
 */
export const RELAY_BEGIN = 'begin; set local enable_bitmapscan = off; set local enable_seqscan = off';

/** The unrelayed events, oldest first, a chunk at a time; with the bus, their snapshots too. */
export const unrelayedSql = (bus: boolean) =>
  `select id, event_id, organization_id, environment, event, resource_type, resource_id, user_id, payload, trace_parent
     ${bus ? ', snapshot' : ''} from platform.outbox_events
    where relayed_at is null order by id limit ${RELAY_CHUNK} for update skip locked`;

interface OutboxRow {
  id: string;
  event_id: string;
  organization_id: string;
  environment: string;
  event: string;
  resource_type: string;
  resource_id: string;
  user_id: string | null;
  payload: BusEvent['payload'];
  snapshot?: BusEvent['snapshot'];
  trace_parent: string | null;
}

export interface OutboxRelayOptions {
  pool: pg.Pool;
  events: EventStream;
  logger: Logger;
  /** Safety-net poll (missed notifications, restarts). */
  pollMs: number;
  /** Relayed outbox rows older than this are deleted (deliveries keep their own copy). */
  retentionHours: number;
  /** Called after deliveries were created: the local delivery worker takes them at once. */
  onDeliveries(): void;
  /** Counts the events relayed (docs/metrics.md). */
  metrics?: Pick<BacklogMetrics, 'relayed'>;
}

/**
 * Outbox → webhook deliveries, in every process that writes outbox rows (whichever services it
 * runs). Each committed event becomes one delivery per active webhook of its organization and
 * environment that asked for it; claiming (skip locked) lets several processes relay side by side.
 */
export class OutboxRelay {
  private timer: NodeJS.Timeout | null = null;
  private pruner: NodeJS.Timeout | null = null;
  private unwake: (() => void) | null = null;
  private relaying: Promise<void> | null = null;
  private pending: NodeJS.Timeout | null = null;
  private again = false;

  constructor(private readonly opts: OutboxRelayOptions) {}

  private get bus() {
    return this.opts.events.bus;
  }

  start(): void {
    // wake on every committed event (with the bus: BusBridge's NOTIFY calls wake()); poll as a safety net
    if (!this.bus) this.unwake = this.opts.events.onNotice(() => this.relaySoon());
    this.timer = setInterval(() => this.relaySoon(), this.opts.pollMs);
    this.timer.unref();
    this.pruner = setInterval(
      () => void this.prune().catch((err) => this.opts.logger.warn({ err }, 'outbox pruning failed')),
      PRUNE_EVERY_MS,
    );
    this.pruner.unref();
    this.relayNow();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.pruner) clearInterval(this.pruner);
    if (this.pending) clearTimeout(this.pending);
    this.timer = null;
    this.pending = null;
    this.unwake?.();
    await this.relaying;
  }

  /** An outbox row was committed: relay (and publish) it soon. */
  wake(): void {
    this.relaySoon();
  }

  private relaySoon(): void {
    if (this.pending || !this.timer) return;
    this.pending = setTimeout(
      () => {
        this.pending = null;
        this.relayNow();
      },
      this.bus ? BUS_COALESCE_MS : RELAY_COALESCE_MS,
    );
  }

  private relayNow(): void {
    // an event committed while a relay runs may have missed its SELECT: run once more after it
    if (this.relaying) {
      this.again = true;
      return;
    }
    this.again = false;
    this.relaying = this.relay()
      .then((created) => {
        if (created) this.opts.onDeliveries();
      })
      .catch((err) => this.opts.logger.error({ err }, 'outbox relay failed'))
      .finally(() => {
        this.relaying = null;
        if (this.again && this.timer) this.relaySoon();
      });
  }

  /**
   * Claims unrelayed outbox events and creates the deliveries they call for, a set at a time: a
   * 10,000-notification batch costs a few statements, not one per event. With the NATS bus it also
   * publishes them, in outbox order, before its commit: a relay that dies in between publishes them
   * again, and the event id (`Nats-Msg-Id`, then the subscribers) drops the repeat. Returns how many deliveries.
   */
  async relay(): Promise<number> {
    let created = 0;
    for (;;) {
      const { events, deliveries } = await inTransaction(
        this.opts.pool,
        async (client) => {
          if (this.bus) await client.query('select pg_advisory_xact_lock($1)', [PUBLISH_LOCK]);
          const { rows } = await client.query<OutboxRow>(unrelayedSql(Boolean(this.bus)));
          if (!rows.length) return { events: 0, deliveries: 0 };
          if (this.bus) await this.publish(rows);
          // each traced event's relay is a span of its request's trace; its deliveries continue from it
          const relays = rows.map((e) => relaySpan(e.event, e.trace_parent));
          // each new delivery is an event of its own (webhook_delivery.created): one per inserted row
          const inserted = await client.query(
            `with created as (
             insert into platform.deliveries (id, organization_id, environment, webhook_id, event_id, event, url, body, status, next_attempt_at, trace_parent)
             select gen_random_uuid(), w.organization_id, w.environment, w.id, e.event_id, e.event, w.callback_url, e.body, $6, now(), e.trace_parent
               from unnest($1::uuid[], $2::text[], $3::text[], $4::uuid[], $5::text[], $8::text[])
                 as e(event_id, event, body, organization_id, environment, trace_parent)
               join platform.webhooks w
                 on w.organization_id = e.organization_id and w.environment = e.environment and w.active and w.events ? e.event
             on conflict (webhook_id, event_id) do nothing
             returning *)
           ${deliveryEventsFrom('created', '$7::text')}`,
            [
              rows.map((e) => e.event_id),
              rows.map((e) => e.event),
              rows.map((e) => JSON.stringify(e.payload)),
              rows.map((e) => e.organization_id),
              rows.map((e) => e.environment),
              DELIVERY_LIFECYCLE.target('created'),
              DELIVERY_LIFECYCLE.eventOf('created'),
              relays.map((r) => r?.traceparent ?? null),
            ],
          );
          await client.query('update platform.outbox_events set relayed_at = now() where id = any($1)', [rows.map((r) => r.id)]);
          for (const r of relays) r?.end();
          return { events: rows.length, deliveries: inserted.rowCount ?? 0 };
        },
        { begin: RELAY_BEGIN },
      );
      created += deliveries;
      this.opts.metrics?.relayed.inc(events);
      if (events < RELAY_CHUNK) return created;
    }
  }

  /** Publishes `rows` to the bus in their order, each with its payload and snapshot, de-duplicated by event id. */
  private async publish(rows: OutboxRow[]): Promise<void> {
    const bus = this.bus!;
    // one connection keeps the order; the acknowledgements are awaited together
    await Promise.all(
      rows.map((r) => {
        const event: BusEvent = {
          id: r.id,
          eventId: r.event_id,
          organizationId: r.organization_id,
          environment: r.environment,
          event: r.event,
          resourceType: r.resource_type,
          resourceId: r.resource_id,
          userId: r.user_id === null ? null : r.user_id.slice(0, 200),
          payload: r.payload,
          snapshot: r.snapshot!,
        };
        return bus.publish(OUTBOX_SUBJECT, JSON.stringify(event), r.event_id);
      }),
    );
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
}
