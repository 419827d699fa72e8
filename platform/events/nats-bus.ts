import { connect, type NatsConnection } from '@nats-io/transport-node';
import { DeliverPolicy, jetstream, jetstreamManager, StorageType, type JetStreamClient } from '@nats-io/jetstream';
import type { Logger } from '../logger.js';

/** The JetStream stream every event and notice of the platform goes through. */
export const BUS_STREAM = 'PLATFORM_EVENTS';
/** Committed outbox events (their payload and snapshot in the message), in commit order. */
export const OUTBOX_SUBJECT = 'platform.outbox';
/** A channel's notices (api-client changes, data-key rotations, rule changes…): what NOTIFY carries on PostgreSQL. */
export const noticeSubject = (channel: string): string => `platform.notice.${channel}`;
/** A republished event id within this window is dropped by JetStream (`Nats-Msg-Id`); subscribers also drop ids they delivered. */
export const DUPLICATE_WINDOW_MS = 2 * 60_000;
/** How long the stream keeps messages: a subscriber that reconnects within it resumes where it was. */
const MAX_AGE_MS = 24 * 3_600_000;
const ns = (ms: number) => ms * 1_000_000;

export interface BusSubscription {
  stop(): Promise<void>;
}

export interface BusSubscribeOptions {
  /** Runs when the connection to NATS is lost. */
  onDisconnect?(): void;
  /** Runs after it came back (the subscription resumes after the last message it saw). */
  onReconnect?(): void;
}

/**
 * A process's connection to the NATS JetStream event bus (`EVENT_BUS=nats://…`). Subscriptions are
 * ordered consumers that start at the stream's end when made: they see every message published
 * after `subscribe` resolved, in stream order, and resume from the last one seen after a reconnect.
 */
export class NatsBus {
  private readonly js: JetStreamClient;
  private readonly statusHandlers = new Set<(type: string) => void>();
  private closed = false;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly logger: Logger,
  ) {
    this.js = jetstream(nc);
    void (async () => {
      for await (const s of nc.status()) {
        if (s.type === 'disconnect') logger.warn({ server: s.server }, 'event bus: disconnected from NATS (reconnecting)');
        if (s.type === 'reconnect') logger.info({ server: s.server }, 'event bus: reconnected to NATS');
        for (const handler of this.statusHandlers) handler(s.type);
      }
    })().catch(() => undefined);
  }

  /** Connects (retrying for ever once connected) and makes sure the stream exists. */
  static async connect(url: string, logger: Logger): Promise<NatsBus> {
    let nc: NatsConnection;
    try {
      nc = await connect({ servers: url.split(','), name: 'afri-platform', maxReconnectAttempts: -1, reconnectTimeWait: 500 });
    } catch (err) {
      throw new Error(`EVENT_BUS: cannot connect to NATS at ${url}: ${(err as Error).message}`, { cause: err });
    }
    try {
      const jsm = await jetstreamManager(nc);
      const config = { subjects: ['platform.>'], duplicate_window: ns(DUPLICATE_WINDOW_MS), max_age: ns(MAX_AGE_MS) };
      try {
        await jsm.streams.info(BUS_STREAM);
        await jsm.streams.update(BUS_STREAM, config);
      } catch {
        await jsm.streams.add({ name: BUS_STREAM, storage: StorageType.File, ...config });
      }
    } catch (err) {
      await nc.close().catch(() => undefined);
      throw new Error(`EVENT_BUS: NATS at ${url} has no usable JetStream (start nats-server with -js): ${(err as Error).message}`, {
        cause: err,
      });
    }
    return new NatsBus(nc, logger);
  }

  /** Publishes and waits for the stream's acknowledgement; `msgID` de-duplicates within DUPLICATE_WINDOW_MS. */
  async publish(subject: string, data: string, msgID?: string): Promise<{ duplicate: boolean }> {
    const ack = await this.js.publish(subject, data, msgID ? { msgID } : undefined);
    return { duplicate: ack.duplicate };
  }

  /** `onMessage` with every message on `subject` published from now on, one at a time in stream order. */
  async subscribe(subject: string, onMessage: (data: string) => void, opts: BusSubscribeOptions = {}): Promise<BusSubscription> {
    const jsm = await jetstreamManager(this.nc);
    const { state } = await jsm.streams.info(BUS_STREAM);
    const consumer = await this.js.consumers.get(BUS_STREAM, {
      filter_subjects: subject,
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: state.last_seq + 1,
    });
    const messages = await consumer.consume();
    const done = (async () => {
      for await (const m of messages) {
        try {
          onMessage(m.string());
        } catch (err) {
          this.logger.error({ err, subject }, 'event bus: a subscriber failed on a message');
        }
      }
    })().catch((err) => {
      if (!this.closed) this.logger.error({ err, subject }, 'event bus: subscription ended');
    });
    const status = (type: string) => {
      if (type === 'disconnect') opts.onDisconnect?.();
      if (type === 'reconnect') opts.onReconnect?.();
    };
    this.statusHandlers.add(status);
    return {
      stop: async () => {
        this.statusHandlers.delete(status);
        await messages.close().catch(() => undefined);
        await done;
      },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.nc.drain().catch(() => this.nc.close());
  }
}
