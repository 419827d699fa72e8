import path from 'node:path';
import pg from 'pg';
import type { Config } from '../platform/config.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../platform/db/embedded-postgres.js';

async function reachable(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_500 });
  c.on('error', () => undefined);
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

/**
 * The database of the command-line tools: DATABASE_URL, else the embedded PostgreSQL of `npm start`
 * (used while it runs, started for the command otherwise; `stop` stops only what was started here).
 */
export async function commandDatabase(config: Config): Promise<{ url: string; stop(): Promise<void> }> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, stop: async () => undefined };
  const local = `postgres://postgres:postgres@127.0.0.1:${config.EMBEDDED_PG_PORT}/postgres`;
  if (await reachable(local)) return { url: local, stop: async () => undefined };
  const embedded: EmbeddedDatabase = await startEmbeddedPostgres({
    dir: path.resolve(config.EMBEDDED_PG_DIR ?? '.data/postgres'),
    port: config.EMBEDDED_PG_PORT,
    persistent: true,
  });
  return embedded;
}
