import { Worker } from 'node:worker_threads';
import type { Config } from '../platform/config.js';
import { logFormat, type Logger } from '../platform/logger.js';
import type { ServiceKey } from './stack.js';

/** What one thread runs and with which settings (`stack-thread.ts` reads it as workerData). */
export interface ThreadSpec {
  services: ServiceKey[];
  /** Environment overrides on top of the process's (the subgraphs' URLs for the gateway threads). */
  env: Record<string, string>;
  databaseUrl: string;
  adminSecret: string;
  internalSecret: string;
  /** Several threads listen on the same ports (SO_REUSEPORT: the kernel spreads connections). */
  reusePort: boolean;
}

export interface ThreadedStack {
  urls: Partial<Record<ServiceKey, string>>;
  stop(): Promise<void>;
}

type FromThread =
  { ready: Partial<Record<ServiceKey, string>> } | { failed: { message: string; code?: string; port?: number } } | { stopped: true };

/** A startup failure inside a thread, with what the main thread needs to name it (a busy port). */
export class ThreadStartError extends Error {
  constructor(
    message: string,
    readonly code?: string,
    readonly port?: number,
  ) {
    super(message);
  }
}

/**
 * `npm start` with `STACK_LAYOUT=threads` (the default is one event loop, cli/stack.ts): each subgraph in a worker thread of its own and the gateway
 * (with the REST adapter beside it, in-process) in `GATEWAY_THREADS` threads sharing its ports, so
 * gateway, subgraphs and workers do not share one event loop. Threads, not processes: one process
 * to stop or kill (a SIGKILL leaves no orphan holding a port).
 */
export async function startThreads(opts: {
  config: Config;
  databaseUrl: string;
  adminSecret: string;
  internalSecret: string;
  logger: Logger;
}): Promise<ThreadedStack> {
  const { config, logger } = opts;
  const workers: Worker[] = [];
  const urls: ThreadedStack['urls'] = {};
  let stopping: Promise<void> | undefined;

  const stop = () =>
    (stopping ??= Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve) => {
            worker.once('exit', () => resolve());
            worker.postMessage('stop');
          }),
      ),
    ).then(() => undefined));

  const start = (services: ServiceKey[], env: Record<string, string> = {}, reusePort = false) =>
    new Promise<Partial<Record<ServiceKey, string>>>((resolve, reject) => {
      const spec: ThreadSpec = {
        services,
        // a thread's stdout is never a terminal: it logs as the main thread decided
        env: { LOG_FORMAT: logFormat(), ...env },
        databaseUrl: opts.databaseUrl,
        adminSecret: opts.adminSecret,
        internalSecret: opts.internalSecret,
        reusePort,
      };
      const worker = new Worker(new URL('./stack-thread.js', import.meta.url), { workerData: spec });
      workers.push(worker);
      worker.on('message', (message: FromThread) => {
        if ('ready' in message) resolve(message.ready);
        if ('failed' in message) reject(new ThreadStartError(message.failed.message, message.failed.code, message.failed.port));
      });
      worker.on('error', (err) => {
        logger.fatal({ err, services }, 'a service thread failed');
        reject(err);
        // one service down takes the platform down, as it would in one process
        void stop().then(() => process.exit(1));
      });
      worker.on('exit', (code) => {
        if (!stopping && code !== 0) {
          logger.fatal({ services, code }, 'a service thread exited');
          void stop().then(() => process.exit(1));
        }
      });
    });

  try {
    const threads = Math.max(1, config.GATEWAY_THREADS);
    const gateways = (env: Record<string, string>) =>
      Promise.all(Array.from({ length: threads }, () => start(['gateway', 'rest'], env, threads > 1)));
    const host = config.SUBGRAPH_HOST === '0.0.0.0' || config.SUBGRAPH_HOST === '::' ? '127.0.0.1' : config.SUBGRAPH_HOST;
    const ports = { verification: config.VERIFICATION_PORT, risk: config.RISK_PORT, notify: config.NOTIFY_PORT };
    if (Object.values(ports).every((port) => port > 0)) {
      // the ports are known: every thread starts at once (the gateway does not call a subgraph before a request)
      const known = Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, `http://${host}:${port}/graphql`]));
      const env = { VERIFICATION_URL: known.verification, RISK_URL: known.risk, NOTIFY_URL: known.notify };
      const started = await Promise.all([start(['notify']), start(['verification'], env), start(['risk'], env), gateways(env)]);
      Object.assign(urls, ...started.slice(0, 3), (started[3] as Array<Partial<Record<ServiceKey, string>>>)[0]);
    } else {
      // free ports: notify first (verification sends its codes through its URL), the gateways last
      Object.assign(urls, await start(['notify']));
      const subgraphEnv = { NOTIFY_URL: urls.notify! };
      Object.assign(urls, ...(await Promise.all([start(['verification'], subgraphEnv), start(['risk'], subgraphEnv)])));
      Object.assign(urls, (await gateways({ VERIFICATION_URL: urls.verification!, RISK_URL: urls.risk!, NOTIFY_URL: urls.notify! }))[0]);
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { urls, stop };
}
