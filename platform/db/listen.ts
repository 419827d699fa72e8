import pg from 'pg';
import type { Logger } from '../logger.js';
import { logDatabaseError } from './connection-errors.js';

export interface ListenOptions {
  /** The connection settings (a URL, or a pool's `options`). */
  connection: string | pg.ClientConfig;
  channel: string;
  onNotification(payload: string | undefined): void;
  /** Runs after a reconnect: notifications sent while the connection was down are lost. */
  onReconnect?(): void;
  /** Runs when the connection is lost (notifications may be missed until `onReconnect`). */
  onDisconnect?(): void;
  logger: Logger;
}

export interface Listening {
  stop(): Promise<void>;
}

export const RECONNECT_MS = 1_000;

/**
 * The LISTEN connection of one database, shared by every listener of this process: PostgreSQL
 * wakes each listening connection on every NOTIFY of the database, whatever its channel, so one
 * connection per process (not one per channel) keeps the cost of a notifying commit flat. It
 * comes back after the server closed it (restart, failover), trying again every second, and
 * LISTENs again on every channel still wanted.
 */
class SharedListener {
  private client: pg.Client | null = null;
  private connecting: Promise<pg.Client> | null = null;
  /** Channels LISTENed on the current client. */
  private listened = new Set<string>();
  private readonly listeners = new Set<ListenOptions>();

  constructor(
    private readonly settings: pg.ClientConfig,
    private readonly closed: () => void,
  ) {}

  /** Resolves once `opts.channel` is LISTENed. */
  async add(opts: ListenOptions): Promise<void> {
    this.listeners.add(opts);
    try {
      await this.listenOn(await this.connected(), opts.channel);
    } catch (err) {
      await this.remove(opts);
      throw err;
    }
  }

  async remove(opts: ListenOptions): Promise<void> {
    if (!this.listeners.delete(opts)) return;
    const client = this.client;
    if (!this.listeners.size) {
      this.client = null;
      this.closed();
      await client?.end().catch(() => undefined);
    } else if (client && ![...this.listeners].some((l) => l.channel === opts.channel)) {
      this.listened.delete(opts.channel);
      await client.query(`UNLISTEN ${opts.channel}`).catch(() => undefined);
    }
  }

  private async listenOn(client: pg.Client, channel: string): Promise<void> {
    if (this.listened.has(channel)) return;
    this.listened.add(channel);
    try {
      await client.query(`LISTEN ${channel}`);
    } catch (err) {
      this.listened.delete(channel);
      throw err;
    }
  }

  private connected(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.open().finally(() => (this.connecting = null));
    return this.connecting;
  }

  private async open(): Promise<pg.Client> {
    const c = new pg.Client(this.settings);
    c.on('notification', (msg) => {
      for (const l of this.listeners) if (l.channel === msg.channel) l.onNotification(msg.payload);
    });
    c.on('error', (err) => {
      // errors before the connection is in use reject `open()` instead
      if (this.client !== c) return;
      this.client = null;
      const listeners = [...this.listeners];
      for (const l of listeners) l.onDisconnect?.();
      if (listeners[0]) logDatabaseError(listeners[0].logger, err, `LISTEN ${listeners.map((l) => l.channel).join(', ')} (reconnecting)`);
      c.end().catch(() => undefined);
      this.retry();
    });
    try {
      await c.connect();
      this.listened = new Set();
      for (const channel of new Set([...this.listeners].map((l) => l.channel))) await this.listenOn(c, channel);
    } catch (err) {
      c.end().catch(() => undefined);
      throw err;
    }
    if (!this.listeners.size) {
      await c.end().catch(() => undefined);
      throw new Error('no one listens any more');
    }
    this.client = c;
    return c;
  }

  private retry(): void {
    setTimeout(() => {
      if (!this.listeners.size) return;
      this.connected()
        .then(() => {
          for (const l of this.listeners) l.onReconnect?.();
        })
        .catch(() => this.retry());
    }, RECONNECT_MS).unref();
  }
}

/** Shared LISTEN connections of this process, by connection settings. */
const shared = new Map<string, SharedListener>();

function settingsOf(connection: string | pg.ClientConfig): { key: string; settings: pg.ClientConfig } {
  if (typeof connection === 'string') return { key: connection, settings: { connectionString: connection } };
  const { connectionString, host, port, user, password, database } = connection;
  const key = connectionString ?? JSON.stringify({ host, port, user, password: typeof password === 'string' ? password : '', database });
  return { key, settings: connection };
}

/**
 * LISTEN on `channel` over this process's LISTEN connection to that database (shared by every
 * channel, see SharedListener). Resolves once the LISTEN is active.
 */
export async function listen(opts: ListenOptions): Promise<Listening> {
  const { key, settings } = settingsOf(opts.connection);
  let listener = shared.get(key);
  if (!listener) {
    const created = new SharedListener(settings, () => shared.get(key) === created && shared.delete(key));
    shared.set(key, (listener = created));
  }
  await listener.add(opts);
  const owner = listener;
  return { stop: () => owner.remove(opts) };
}

/** Notice channels of one database over LISTEN (what `EventStream.listen` is on PostgreSQL), for code running outside a stack. */
export const postgresChannels = (connection: string | pg.ClientConfig) => ({
  listen: (opts: Omit<ListenOptions, 'connection'>): Promise<Listening> => listen({ ...opts, connection }),
});
