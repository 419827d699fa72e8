import pg from 'pg';
import type { Logger } from '../logger.js';
import { logDatabaseError } from '../db/connection-errors.js';

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

export interface StreamedEvent extends OutboxNotice {
  payload: { event: string; timestamp: string; data: Record<string, unknown> };
  snapshot: Record<string, unknown>;
}

interface Listener {
  matches(n: OutboxNotice): boolean;
  push(e: StreamedEvent): void;
}

const RECONNECT_MS = 1_000;

/**
 * Subscriptions' pubsub: one LISTEN connection per process on the outbox channel, fanned out to
 * local subscribers. Any instance sees every committed event, whichever instance wrote it.
 */
export class EventStream {
  private client: pg.Client | null = null;
  /** Payload reads go through a small pool: the LISTEN connection only listens. */
  private readonly reader: pg.Pool;
  private readonly listeners = new Set<Listener>();
  private readonly noticeHandlers = new Set<(n: OutboxNotice) => void>();
  private stopped = false;
  private dispatching: Promise<void> = Promise.resolve();

  constructor(
    private readonly url: string,
    private readonly logger: Logger,
  ) {
    this.reader = new pg.Pool({ connectionString: url, max: 2 });
    this.reader.on('error', (err) => logDatabaseError(logger, err, 'event stream reader'));
  }

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    // one at a time, so subscribers see events in commit order
    client.on('notification', (msg) => {
      this.dispatching = this.dispatching
        .then(() => this.dispatch(msg.payload))
        .catch((err) => this.logger.error({ err }, 'could not dispatch an outbox notice'));
    });
    client.on('error', (err) => {
      logDatabaseError(this.logger, err, 'event stream (reconnecting)');
      this.reconnect();
    });
    await client.connect();
    await client.query('LISTEN outbox');
    this.client = client;
  }

  private reconnect(): void {
    this.client?.end().catch(() => undefined);
    this.client = null;
    if (this.stopped) return;
    setTimeout(() => {
      if (!this.stopped) this.start().catch(() => this.reconnect());
    }, RECONNECT_MS).unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.client?.end().catch(() => undefined);
    this.client = null;
    await this.reader.end().catch(() => undefined);
  }

  private async dispatch(raw: string | undefined): Promise<void> {
    if (!raw || !this.client) return;
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
      for (const l of targets) l.push(event);
    } catch (err) {
      this.logger.error({ err, notice }, 'could not read outbox event for subscribers');
    }
  }

  /** Calls `handler` with every committed event's notice (no payload read): for wake-ups. */
  onNotice(handler: (n: OutboxNotice) => void): () => void {
    this.noticeHandlers.add(handler);
    return () => this.noticeHandlers.delete(handler);
  }

  /**
   * A subscription as an async iterator. Hand-written (not `async function*`) so that `return()`
   * detaches at once even while a `next()` is pending on a quiet topic.
   */
  subscribe(matches: (n: OutboxNotice) => boolean): AsyncIterableIterator<StreamedEvent> {
    const queue: StreamedEvent[] = [];
    let waiting: ((r: IteratorResult<StreamedEvent>) => void) | null = null;
    let done = false;
    const listener: Listener = {
      matches,
      push: (e) => {
        if (waiting) {
          const resolve = waiting;
          waiting = null;
          resolve({ value: e, done: false });
        } else queue.push(e);
      },
    };
    this.listeners.add(listener);
    const finish = (): Promise<IteratorResult<StreamedEvent>> => {
      done = true;
      this.listeners.delete(listener);
      queue.length = 0;
      if (waiting) waiting({ value: undefined, done: true });
      waiting = null;
      return Promise.resolve({ value: undefined, done: true });
    };
    return {
      next: () => {
        if (queue.length) return Promise.resolve({ value: queue.shift()!, done: false });
        if (done) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (waiting = resolve));
      },
      return: finish,
      throw: (err) => {
        void finish();
        return Promise.reject(err);
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }

  get subscriberCount(): number {
    return this.listeners.size;
  }
}
