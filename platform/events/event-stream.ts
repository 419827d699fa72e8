import pg from 'pg';
import type { Logger } from '../logger.js';
import { logDatabaseError } from '../db/connection-errors.js';
import { listen, type Listening, type ListenOptions } from '../db/listen.js';
import { PushIterator } from './push-iterator.js';
import { noticeSubject, OUTBOX_SUBJECT, type NatsBus } from './nats-bus.js';

/** What the outbox trigger NOTIFYs on commit (small: the payload is read once per event). */
export interface OutboxNotice {
  id: string;
  organizationId: string;
  environment: string;
  event: string;
  resourceType: string;
  resourceId: string;
  userId: string | null;
}

/** What the relay publishes on the NATS bus: the whole event, so subscribers read nothing from the database. */
export interface BusEvent extends StreamedEvent {
  eventId: string;
}

/** A channel's notices over the process's transport (`EventStream.listen`). */
export type ChannelOptions = Omit<ListenOptions, 'connection'>;

/** Event ids a NATS subscriber remembers to drop a republished event (a relay that died between publish and commit). */
const REMEMBERED_IDS = 10_000;

export interface StreamedEvent extends OutboxNotice {
  payload: { event: string; timestamp: string; data: Record<string, unknown> };
  snapshot: Record<string, unknown>;
}

interface Listener {
  matches(n: OutboxNotice): boolean;
  iterator: PushIterator<StreamedEvent>;
}

/**
 * Subscriptions' pubsub and the process's notice channels. On PostgreSQL (the default): one LISTEN
 * connection per process on the outbox channel, fanned out to local subscribers, each event's
 * payload read once. On NATS (`EVENT_BUS=nats://…`): one JetStream consumer per process on the
 * events the relay publishes from the outbox, payload included, an event id delivered at most once.
 * Either way any instance sees every committed event, whichever instance wrote it.
 */
export class EventStream {
  private listening: Listening | null = null;
  /** Payload reads go through a small pool: the LISTEN connection only listens. */
  private readonly reader: pg.Pool;
  private readonly listeners = new Set<Listener>();
  private readonly noticeHandlers = new Set<(n: OutboxNotice) => void>();
  private dispatching: Promise<void> = Promise.resolve();
  /** NATS: the event ids delivered lately, oldest first. */
  private readonly delivered = new Set<string>();

  constructor(
    private readonly url: string,
    private readonly logger: Logger,
    /** The NATS bus, when EVENT_BUS names one; else PostgreSQL LISTEN/NOTIFY. */
    readonly bus: NatsBus | null = null,
  ) {
    this.reader = new pg.Pool({ connectionString: url, max: 2 });
    this.reader.on('error', (err) => logDatabaseError(logger, err, 'event stream reader'));
  }

  get transport(): 'postgres' | 'nats' {
    return this.bus ? 'nats' : 'postgres';
  }

  /**
   * A channel's notices (what `pg_notify(channel, payload)` sends) over this process's transport:
   * LISTEN on PostgreSQL, or the bus, where the relay republishes them (`BusNotices`).
   */
  async listen(opts: ChannelOptions): Promise<Listening> {
    if (!this.bus) return listen({ ...opts, connection: this.url });
    const subscription = await this.bus.subscribe(
      noticeSubject(opts.channel),
      (raw) => {
        const notice = JSON.parse(raw) as { payload?: string; reset?: boolean };
        // the bridge may have missed notices (it just took over, or its LISTEN reconnected): reload as after a reconnect
        if (notice.reset) opts.onReconnect?.();
        else opts.onNotification(notice.payload);
      },
      {
        onDisconnect: opts.onDisconnect,
        onReconnect: opts.onReconnect,
      },
    );
    return { stop: () => subscription.stop() };
  }

  async start(): Promise<void> {
    if (this.bus) {
      const subscription = await this.bus.subscribe(OUTBOX_SUBJECT, (raw) => this.deliver(JSON.parse(raw) as BusEvent));
      this.listening = { stop: () => subscription.stop() };
      return;
    }
    this.listening = await listen({
      connection: this.url,
      channel: 'outbox',
      logger: this.logger,
      // one at a time, so subscribers see events in commit order
      onNotification: (payload) => {
        this.dispatching = this.dispatching
          .then(() => this.dispatch(payload))
          .catch((err) => this.logger.error({ err }, 'could not dispatch an outbox notice'));
      },
    });
  }

  async stop(): Promise<void> {
    await this.listening?.stop();
    this.listening = null;
    await this.reader.end().catch(() => undefined);
  }

  /** NATS: an event with its payload, at most once per event id. */
  private deliver(event: BusEvent): void {
    if (!this.listening || this.delivered.has(event.eventId)) return;
    this.delivered.add(event.eventId);
    if (this.delivered.size > REMEMBERED_IDS) this.delivered.delete(this.delivered.values().next().value!);
    const { eventId: _, ...streamed } = event;
    for (const handler of this.noticeHandlers) handler(streamed);
    for (const l of this.listeners) if (l.matches(streamed)) l.iterator.push(streamed);
  }

  private async dispatch(raw: string | undefined): Promise<void> {
    if (!raw || !this.listening) return;
    const notice = JSON.parse(raw) as OutboxNotice;
    for (const handler of this.noticeHandlers) handler(notice);
    const targets = [...this.listeners].filter((l) => l.matches(notice));
    if (!targets.length) return;
    try {
      const { rows } = await this.reader.query<{ payload: StreamedEvent['payload']; snapshot: StreamedEvent['snapshot'] }>(
        'select payload, snapshot from platform.outbox_events where id = $1',
        [notice.id],
      );
      if (!rows[0]) return;
      const event: StreamedEvent = { ...notice, ...rows[0] };
      for (const l of targets) l.iterator.push(event);
    } catch (err) {
      this.logger.error({ err, notice }, 'could not read outbox event for subscribers');
    }
  }

  /** Calls `handler` with every committed event's notice (no payload read): for wake-ups. */
  onNotice(handler: (n: OutboxNotice) => void): () => void {
    this.noticeHandlers.add(handler);
    return () => this.noticeHandlers.delete(handler);
  }

  /** A subscription as an async iterator of the committed events `matches` accepts. */
  subscribe(matches: (n: OutboxNotice) => boolean): AsyncIterableIterator<StreamedEvent> {
    const listener: Listener = { matches, iterator: new PushIterator(() => this.listeners.delete(listener)) };
    this.listeners.add(listener);
    return listener.iterator;
  }

  get subscriberCount(): number {
    return this.listeners.size;
  }
}
