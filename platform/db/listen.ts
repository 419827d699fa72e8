import pg from 'pg';
import type { Logger } from '../logger.js';
import { logDatabaseError } from './connection-errors.js';

export interface ListenOptions {
  /** The connection settings (a URL, or a pool's `options`): LISTEN holds a connection of its own. */
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
 * LISTEN on a connection of its own that comes back after the server closed it (restart,
 * failover), trying again every second until `stop()`. Resolves once the first LISTEN is active.
 */
export async function listen(opts: ListenOptions): Promise<Listening> {
  let client: pg.Client | null = null;
  let stopped = false;

  const connect = async (): Promise<void> => {
    const c = new pg.Client(typeof opts.connection === 'string' ? { connectionString: opts.connection } : opts.connection);
    c.on('notification', (msg) => {
      if (msg.channel === opts.channel) opts.onNotification(msg.payload);
    });
    c.on('error', (err) => {
      // errors before the LISTEN is active reject `connect()` instead
      if (client !== c) return;
      client = null;
      opts.onDisconnect?.();
      logDatabaseError(opts.logger, err, `LISTEN ${opts.channel} (reconnecting)`);
      c.end().catch(() => undefined);
      retry();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${opts.channel}`);
    } catch (err) {
      c.end().catch(() => undefined);
      throw err;
    }
    if (stopped) await c.end().catch(() => undefined);
    else client = c;
  };

  const retry = (): void => {
    if (stopped) return;
    setTimeout(() => {
      if (stopped) return;
      connect()
        .then(() => opts.onReconnect?.())
        .catch(() => retry());
    }, RECONNECT_MS).unref();
  };

  await connect();
  return {
    async stop() {
      stopped = true;
      await client?.end().catch(() => undefined);
      client = null;
    },
  };
}
