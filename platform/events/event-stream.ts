import pg from 'pg';
import type { Logger } from '../logger.js';
import { logDatabaseError } from '../db/connection-errors.js';
import { listen, type Listening } from '../db/listen.js';
import { PushIterator } from './push-iterator.js';

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
  iterator: PushIterator<StreamedEvent>;
}

/**
 * Subscriptions' pubsub: one LISTEN connection per process on the outbox channel, fanned out to
 * local subscribers. Any instance sees every committed event, whichever instance wrote it.
 */
export class EventStream {
  private listening: Listening | null = null;
  /** Payload reads go through a small pool: the LISTEN connection only listens. */
  private readonly reader: pg.Pool;
  private readonly listeners = new Set<Listener>();
  private readonly noticeHandlers = new Set<(n: OutboxNotice) => void>();
  private dispatching: Promise<void> = Promise.resolve();

  constructor(
    private readonly url: string,
    private readonly logger: Logger,
  ) {
    this.reader = new pg.Pool({ connectionString: url, max: 2 });
    this.reader.on('error', (err) => logDatabaseError(logger, err, 'event stream reader'));
  }

  async start(): Promise<void> {
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
