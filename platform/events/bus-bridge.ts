import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Logger } from '../logger.js';
import { logDatabaseError } from '../db/connection-errors.js';
import { listen, type Listening } from '../db/listen.js';
import { noticeSubject, type NatsBus } from './nats-bus.js';

/** The session advisory lock of the bridge ('BUSB'): one process of the deployment holds it. */
const BRIDGE_LOCK = 0x42555342;

export interface BusBridgeOptions {
  databaseUrl: string;
  bus: NatsBus;
  logger: Logger;
  /** The NOTIFY channels republished on the bus (api-client changes, data-key rotations, rule changes…). */
  channels: readonly string[];
  /** A committed outbox row: the relay publishes it (the trigger's NOTIFY wakes the bridge holder only). */
  onOutbox(): void;
  /** How often a process that is not the bridge tries to become it (OUTBOX_POLL_MS). */
  retryMs: number;
}

/**
 * With the NATS bus, the one process of the deployment that still LISTENs on PostgreSQL: it holds
 * a session advisory lock (on a connection of its own, so a process that dies hands the role over
 * as soon as PostgreSQL sees its connection close), wakes its outbox relay on every committed
 * event, and republishes the notice channels (`pg_notify` from the code and the triggers) on the
 * bus. Every other process, gateways included, hears them from NATS alone. When it takes the role,
 * and after its LISTEN reconnected, it publishes a reset on every channel: notices sent while no one
 * listened are lost, so subscribers reload as they would after a reconnect.
 */
export class BusBridge {
  private lock: pg.Client | null = null;
  private listening: Listening[] = [];
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private attempt: Promise<void> = Promise.resolve();

  constructor(private readonly opts: BusBridgeOptions) {}

  get holding(): boolean {
    return this.lock !== null;
  }

  async start(): Promise<void> {
    await this.tryToHold();
    this.timer = setInterval(() => {
      if (!this.lock) this.attempt = this.attempt.then(() => this.tryToHold());
    }, this.opts.retryMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.attempt;
    await this.release();
  }

  private async tryToHold(): Promise<void> {
    if (this.lock || this.stopped) return;
    const client = new pg.Client({ connectionString: this.opts.databaseUrl, application_name: 'event-bus-bridge' });
    client.on('error', (err) => {
      logDatabaseError(this.opts.logger, err, 'event bus bridge (handing over)');
      if (this.lock === client) void this.release();
    });
    try {
      await client.connect();
      const { rows } = await client.query<{ held: boolean }>('select pg_try_advisory_lock($1) as held', [BRIDGE_LOCK]);
      if (!rows[0]?.held || this.stopped) {
        await client.end();
        return;
      }
      this.lock = client;
      const reset = () => void this.resetAll();
      this.listening.push(
        await listen({
          connection: this.opts.databaseUrl,
          channel: 'outbox',
          logger: this.opts.logger,
          onNotification: () => this.opts.onOutbox(),
          onReconnect: () => this.opts.onOutbox(),
        }),
      );
      for (const channel of this.opts.channels) {
        this.listening.push(
          await listen({
            connection: this.opts.databaseUrl,
            channel,
            logger: this.opts.logger,
            onNotification: (payload) => void this.republish(channel, { payload }),
            onReconnect: reset,
          }),
        );
      }
      this.opts.logger.info('event bus: this process bridges PostgreSQL notices to NATS');
      await this.resetAll();
      this.opts.onOutbox();
    } catch (err) {
      this.opts.logger.warn({ err }, 'event bus: could not take the bridge role (retried)');
      await this.release();
      await client.end().catch(() => undefined);
    }
  }

  private async resetAll(): Promise<void> {
    await Promise.all(this.opts.channels.map((channel) => this.republish(channel, { reset: true })));
  }

  private async republish(channel: string, notice: { payload?: string; reset?: boolean }): Promise<void> {
    try {
      await this.opts.bus.publish(noticeSubject(channel), JSON.stringify(notice), randomUUID());
    } catch (err) {
      this.opts.logger.error({ err, channel }, 'event bus: could not republish a notice');
    }
  }

  private async release(): Promise<void> {
    const [lock, listening] = [this.lock, this.listening];
    this.lock = null;
    this.listening = [];
    for (const l of listening) await l.stop().catch(() => undefined);
    await lock?.end().catch(() => undefined);
  }
}
