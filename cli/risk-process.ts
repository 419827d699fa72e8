import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Config } from '../platform/config.js';
import type { Logger } from '../platform/logger.js';

/**
 * V8 flags of the risk process: its heap limit (`RISK_HEAP_MB`: the graphs of the tenants it owns,
 * the rules, the screening index), and no allocation-site pretenuring. Once V8 has seen a site's
 * objects survive (while a tenant's graph loads, every request in flight survives), it allocates
 * that site's objects in the old generation for good — graphql-js's per-request field maps, pg's
 * rows — so requests' garbage filled the old generation at 5–8 MB/s at 500 evaluations/s, and each
 * full collection, every 20–30 s, paused evaluations for 0.3–0.6 s (BENCHMARKS.md).
 */
export function riskV8Flags(heapMb: number): string[] {
  return [`--max-old-space-size=${heapMb}`, '--no-allocation-site-pretenuring'];
}
/** Waits between restarts of a risk process that keeps dying. */
const RESTART_DELAYS_MS = [250, 1_000, 5_000];
const READY_TIMEOUT_MS = 120_000;

export interface RiskProcess {
  url: string;
  pid(): number | undefined;
  stop(): Promise<void>;
}

/**
 * `npm start`'s risk service, in a child process of its own (`start-service.js risk`): its
 * evaluations do not queue behind the API's work on one event loop, and a process that dies
 * (kill -9 included) is started again — meanwhile evaluations are refused, none is lost (the
 * partitions of its graph are released with its database session). It leaves with its parent.
 */
export async function startRiskProcess(opts: {
  config: Config;
  databaseUrl: string;
  internalSecret: string;
  logger: Logger;
}): Promise<RiskProcess> {
  const { config, logger } = opts;
  const host = config.SUBGRAPH_HOST === '0.0.0.0' ? '127.0.0.1' : config.SUBGRAPH_HOST;
  const url = `http://${host}:${config.RISK_PORT}/graphql`;
  const script = fileURLToPath(new URL('./start-service.js', import.meta.url));
  let child: ChildProcess | null = null;
  let stopping = false;
  let restarts = 0;

  const ownFlags = riskV8Flags(config.RISK_HEAP_MB);
  const spawnChild = (): ChildProcess => {
    const c = fork(script, ['risk'], {
      env: { ...process.env, DATABASE_URL: opts.databaseUrl, INTERNAL_SECRET: opts.internalSecret },
      // its own V8 flags, and the young generation and heap growth V8 sizes from its heap limit (not
      // the API process's, package.json's start script; a flag both set is given once)
      execArgv: [
        ...process.execArgv.filter(
          (a) => !/^--(max-old-space-size|max-semi-space-size|heap-growing-percent)/.test(a) && !ownFlags.includes(a),
        ),
        ...ownFlags,
      ],
      stdio: 'inherit',
    });
    c.once('exit', (code, signal) => {
      // exit code 0: it was asked to stop (a signal to the whole process group, Ctrl-C)
      if (stopping || child !== c || code === 0) return;
      const delay = RESTART_DELAYS_MS[Math.min(restarts++, RESTART_DELAYS_MS.length - 1)];
      logger.error({ code, signal, restartInMs: delay }, 'the risk process exited: starting it again');
      setTimeout(() => {
        if (stopping) return;
        child = spawnChild();
        void ready(child).then(
          () => (restarts = 0),
          (err: unknown) => logger.error({ err }, 'the restarted risk process did not become ready'),
        );
      }, delay).unref();
    });
    return c;
  };

  /** Until its `/ready` answers (the subgraph listens, its database is reachable). */
  const ready = async (c: ChildProcess): Promise<void> => {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    const readyUrl = new URL('/ready', url);
    while (Date.now() < deadline) {
      if (c.exitCode !== null || c.signalCode !== null) throw new Error(`the risk process exited (${c.exitCode ?? c.signalCode})`);
      const ok = await fetch(readyUrl)
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`the risk process was not ready within ${READY_TIMEOUT_MS / 1000} s`);
  };

  child = spawnChild();
  const stop = async () => {
    stopping = true;
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => c.once('exit', () => resolve()));
    c.kill('SIGTERM');
    const timer = setTimeout(() => c.kill('SIGKILL'), 12_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await ready(child);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, pid: () => child?.pid, stop };
}
