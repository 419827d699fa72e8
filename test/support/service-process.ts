import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../platform/db/embedded-postgres.js';
import { eventually, TEST_MASTER_KEY } from './stack.js';

export const TEST_INTERNAL_SECRET = 'test-internal-secret-0123456789';

export type SubgraphServiceName = 'verification' | 'risk' | 'notify';

export interface ServiceProcessOptions {
  /** A CA the service trusts for outgoing HTTPS (webhooks, callbacks): WEBHOOK_CA_FILE. */
  caPem?: string;
  /** More environment settings (they override the defaults below). */
  env?: Record<string, string>;
  /**
   * Run the service through test/support/service-main.ts (the same `startStack` as
   * cli/start-service.ts) with an IPC channel, so `subscriptions()` can ask it how many
   * subscriptions it serves.
   */
  countSubscriptions?: boolean;
}

export interface ServiceProcess {
  /** The subgraph's GraphQL URL (the same across restarts). */
  url: string;
  /** Spawns the process and waits until `/ready` answers. */
  start(): Promise<void>;
  /** SIGKILLs the process (no graceful shutdown) and waits until it has exited. */
  kill(): Promise<void>;
  /** Kills the process for good and removes its temporary files. */
  dispose(): Promise<void>;
  /**
   * How many subscriptions the running process serves now (only with `countSubscriptions`);
   * rejects while it is not running.
   */
  subscriptions(): Promise<number>;
}

/**
 * A subgraph service as its own OS process (the built `dist/`), so a test can SIGKILL it in the
 * middle of some work and start it again on the same port and database.
 */
export async function serviceProcess(
  name: SubgraphServiceName,
  databaseUrl: string,
  opts: ServiceProcessOptions = {},
): Promise<ServiceProcess> {
  const port = await freePort();
  const env: Record<string, string | undefined> = {
    ...process.env,
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    INTERNAL_SECRET: TEST_INTERNAL_SECRET,
    ENCRYPTION_MASTER_KEY: TEST_MASTER_KEY,
    HOST: '127.0.0.1',
    [`${name.toUpperCase()}_PORT`]: String(port),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_TIMEOUT_MS: '3000',
    JOBS_SUPERVISE_SECONDS: '1',
    OUTBOX_POLL_MS: '500',
    // as the in-process test stack: suites load the lists they need (the shipped snapshot would pause screenings while it imports)
    DEFAULT_SCREENING_DATA: 'false',
  };
  const caDir = opts.caPem ? mkdtempSync(path.join(tmpdir(), 'ca-')) : null;
  if (caDir && opts.caPem) {
    const caFile = path.join(caDir, 'ca.pem');
    writeFileSync(caFile, opts.caPem);
    env.WEBHOOK_CA_FILE = caFile;
  }
  Object.assign(env, opts.env);
  let child: ChildProcess | null = null;
  let asked = 0;
  /** `subscriptions()` calls waiting for the child's answer, by request id. */
  const answers = new Map<number, { resolve: (count: number) => void; reject: (err: Error) => void }>();
  async function kill(): Promise<void> {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await exited;
  }
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    async start(): Promise<void> {
      const spawned = opts.countSubscriptions
        ? spawn(process.execPath, [path.resolve('dist/test/support/service-main.js'), name], {
            env,
            stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
          })
        : spawn(process.execPath, [path.resolve('dist/cli/start-service.js'), name], { env, stdio: 'ignore' });
      child = spawned;
      if (opts.countSubscriptions) {
        spawned.on('message', (m: { id?: number; count?: number }) => {
          const waiting = m?.id === undefined ? undefined : answers.get(m.id);
          if (!waiting) return;
          answers.delete(m.id!);
          waiting.resolve(m.count ?? 0);
        });
        spawned.once('exit', () => {
          for (const [id, waiting] of answers) {
            answers.delete(id);
            waiting.reject(new Error(`${name} exited`));
          }
        });
      }
      await eventually(async () => {
        if (spawned.exitCode !== null) throw new Error(`${name} process exited with code ${spawned.exitCode} before it was ready`);
        return (await fetch(`http://127.0.0.1:${port}/ready`).catch(() => null))?.ok;
      }, 30_000);
    },
    kill,
    subscriptions(): Promise<number> {
      const c = child;
      if (!opts.countSubscriptions) return Promise.reject(new Error('start the service with countSubscriptions'));
      if (!c || !c.connected) return Promise.reject(new Error(`${name} is not running`));
      const id = ++asked;
      return new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => answers.delete(id) && reject(new Error(`${name} did not answer`)), 5_000);
        const settle = () => clearTimeout(timer);
        answers.set(id, {
          resolve: (count) => (settle(), resolve(count)),
          reject: (err) => (settle(), reject(err)),
        });
        c.send({ type: 'subscriptions', id }, (err) => {
          if (err && answers.delete(id)) {
            settle();
            reject(err);
          }
        });
      });
    },
    async dispose(): Promise<void> {
      await kill();
      if (caDir) rmSync(caDir, { recursive: true, force: true });
    },
  };
}
