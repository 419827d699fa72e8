import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../platform/db/embedded-postgres.js';
import { npmStartCommand } from './npm-start.js';
import { TEST_MASTER_KEY } from './stack.js';

export interface StackProcessOptions {
  /** An existing database; without one the process starts its own embedded PostgreSQL in a temp folder. */
  databaseUrl?: string;
  /** A CA the stack trusts for outgoing HTTPS (webhooks, callbacks): WEBHOOK_CA_FILE. */
  caPem?: string;
  /** More environment settings (they override the defaults below). */
  env?: Record<string, string>;
  /** How long startup may take (embedded PostgreSQL's initdb included). */
  readyTimeoutMs?: number;
  /**
   * A folder of the caller's (kept when the stack stops) whose `pg` data directory the embedded
   * PostgreSQL uses, on `pgPort`: a second stack on the same folder finds what the first left.
   */
  dir?: string;
  pgPort?: number;
}

export interface StackProcess {
  pid: number;
  /** The gateway's GraphQL URL, the REST adapter's and the subgraphs' origins. */
  urls: { gateway: string; rest: string; verification: string; risk: string; notify: string };
  /** Everything the process wrote to stdout and stderr so far (its logs). */
  output(): string;
  /**
   * SIGINT (a graceful stop: embedded PostgreSQL too), waits for the exit, removes the temp folder;
   * `postgresStopped` is false when the embedded PostgreSQL was still running after the exit.
   */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null; postgresStopped: boolean }>;
  /** SIGKILL of the stack's process alone (an OOM kill, a closed terminal): its embedded PostgreSQL keeps running. */
  kill(): Promise<void>;
}

/** The pid in a data directory's postmaster.pid (PostgreSQL removes the file when it stops), else null. */
/** Whether a process of this id is running. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function postmasterPid(pgDir: string): number | null {
  const file = path.join(pgDir, 'postmaster.pid');
  const pid = existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : NaN;
  return pid > 0 ? pid : null;
}

/**
 * The whole stack as `npm start` runs it (`dist/cli/start-all.js`, one OS process) on free ports,
 * with its stdout and stderr captured; resolves once every service answers `/ready`.
 */
export async function startStackProcess(opts: StackProcessOptions = {}): Promise<StackProcess> {
  const [gateway, rest, verification, risk, notify, freePgPort] = await Promise.all(Array.from({ length: 6 }, () => freePort()));
  const pgPort = opts.pgPort ?? freePgPort;
  const dir = opts.dir ?? mkdtempSync(path.join(tmpdir(), 'afri-stack-'));
  // as root, initdb runs as `postgres`, which must reach the data directory (embedded-postgres.ts)
  chmodSync(dir, 0o755);
  const pgDir = path.join(dir, 'pg');
  const env: Record<string, string | undefined> = {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    GATEWAY_PORT: String(gateway),
    REST_PORT: String(rest),
    VERIFICATION_PORT: String(verification),
    RISK_PORT: String(risk),
    NOTIFY_PORT: String(notify),
    GATEWAY_URL: `http://127.0.0.1:${gateway}/graphql`,
    EMBEDDED_PG_DIR: pgDir,
    EMBEDDED_PG_PORT: String(pgPort),
    DATABASE_URL: opts.databaseUrl,
    // as the in-process test stack: suites load the lists they need (test/cli.e2e.test.ts turns the shipped ones on)
    DEFAULT_SCREENING_DATA: 'false',
  };
  // on a database of the tests' (shared with in-process stacks): their master key; on its own
  // embedded database it makes and keeps its own, as `npm start` does
  if (opts.databaseUrl) env.ENCRYPTION_MASTER_KEY = TEST_MASTER_KEY;
  else delete env.DATABASE_URL;
  // the jest worker's own settings are not the stack's
  delete env.JEST_WORKER_ID;
  if (opts.caPem) {
    const caFile = path.join(dir, 'ca.pem');
    writeFileSync(caFile, opts.caPem);
    env.WEBHOOK_CA_FILE = caFile;
  }
  Object.assign(env, opts.env);

  const start = npmStartCommand();
  const child = spawn(process.execPath, start.args, { env: { ...start.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => chunks.push(c));
  child.stderr.on('data', (c: Buffer) => chunks.push(c));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const output = () => Buffer.concat(chunks).toString('utf8');

  const postmaster = path.join(pgDir, 'postmaster.pid');
  const killPostgres = () => {
    const pid = postmasterPid(pgDir);
    try {
      if (pid) process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
    // no graceful stop within the shutdown's own 15 s deadline: the process goes
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    try {
      const exit = await exited;
      const postgresStopped = !existsSync(postmaster);
      if (!postgresStopped) killPostgres();
      return { ...exit, postgresStopped };
    } finally {
      clearTimeout(timer);
      if (!opts.dir) rmSync(dir, { recursive: true, force: true });
    }
  };
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };

  const urls = {
    gateway: `http://127.0.0.1:${gateway}/graphql`,
    rest: `http://127.0.0.1:${rest}`,
    verification: `http://127.0.0.1:${verification}`,
    risk: `http://127.0.0.1:${risk}`,
    notify: `http://127.0.0.1:${notify}`,
  };
  const probes = [
    new URL('/ready', urls.gateway).toString(),
    ...[urls.rest, urls.verification, urls.risk, urls.notify].map((u) => `${u}/ready`),
  ];
  const deadline = Date.now() + (opts.readyTimeoutMs ?? 60_000);
  try {
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`the stack exited (code ${child.exitCode}) before it was ready:\n${output()}`);
      const ready = await Promise.all(
        probes.map((url) =>
          fetch(url).then(
            async (r) => (await r.arrayBuffer(), r.ok),
            () => false,
          ),
        ),
      );
      if (ready.every(Boolean)) break;
      if (Date.now() > deadline) throw new Error(`the stack was not ready in time:\n${output()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { pid: child.pid!, urls, output, stop, kill };
}
