import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { loadConfig } from '../platform/config.js';
import { createLogger } from '../platform/logger.js';
import {
  EmbeddedPostgresError,
  PortInUseError,
  portAvailable,
  startEmbeddedPostgres,
  type EmbeddedDatabase,
} from '../platform/db/embedded-postgres.js';
import { SERVICE_KEYS, startStack } from './stack.js';
import { startRiskProcess } from './risk-process.js';
import { startThreads } from './stack-threads.js';
import { devMasterKeyFile } from '../platform/crypto/master-key.js';
import { onShutdown } from './shutdown.js';
import { startTracing } from '../platform/tracing.js';

/**
 * `npm start`: the whole platform with zero configuration — embedded PostgreSQL (data in .data/),
 * migrations, three subgraphs, the gateway and the REST adapter: risk in a child process
 * (RISK_PROCESS=child), the rest in this one on one event loop; or each service in a worker
 * thread with STACK_LAYOUT=threads.
 */
const config = loadConfig();
const logger = createLogger('platform', config.LOG_LEVEL);
// OpenTelemetry when the OTEL_* variables ask for it (docs/operations.md); the risk child traces itself
const tracing = startTracing({ serviceName: 'afri-verify' });

let embedded: EmbeddedDatabase | null = null;
let stack: { urls: Partial<Record<string, string>>; stop(): Promise<void> } | null = null;
/** How long the services may take to finish their work on a stop before the database stops anyway. */
const STOP_WORK_MS = 10_000;
// from the first moment: a signal during startup must not leave the embedded PostgreSQL running,
// nor may work that does not wind down in time (the database keeps what was committed)
onShutdown(logger, async () => {
  const stopped = await Promise.race([
    stack?.stop().then(() => true),
    new Promise<false>((resolve) => setTimeout(resolve, STOP_WORK_MS, false).unref()),
  ]);
  await embedded?.stop();
  await tracing?.stop();
  if (stopped === false) throw new Error(`the services did not finish their work within ${STOP_WORK_MS / 1000} s`);
});

// the services' ports, by the setting that names each
const PORTS = [
  ['GATEWAY_PORT', config.GATEWAY_PORT, config.HOST],
  ['REST_PORT', config.REST_PORT, config.HOST],
  ['VERIFICATION_PORT', config.VERIFICATION_PORT, config.SUBGRAPH_HOST],
  ['RISK_PORT', config.RISK_PORT, config.SUBGRAPH_HOST],
  ['NOTIFY_PORT', config.NOTIFY_PORT, config.SUBGRAPH_HOST],
] as const;

/** A startup failure the user can fix (a busy port, a database that cannot start): one line, exit 1. */
async function fail(err: unknown): Promise<never> {
  // a thread's failure carries the code and port of the error it met
  const inUse = (err as NodeJS.ErrnoException & { port?: number }).code === 'EADDRINUSE' ? (err as { port?: number }).port : undefined;
  const setting = PORTS.find(([, port]) => port === inUse)?.[0];
  if (err instanceof PortInUseError || err instanceof EmbeddedPostgresError) process.stderr.write(`npm start: ${err.message}\n`);
  else if (inUse && setting) process.stderr.write(`npm start: ${new PortInUseError(inUse, setting).message}\n`);
  else logger.fatal({ err }, 'could not start the platform');
  await stack?.stop().catch(() => undefined);
  await embedded?.stop().catch(() => undefined);
  process.exit(1);
}

let databaseUrl = config.DATABASE_URL;
try {
  // before anything starts: a busy port is named at once, not after the database and migrations
  for (const [setting, port, host] of PORTS) if (!(await portAvailable(port, host))) throw new PortInUseError(port, setting);
  if (!databaseUrl) {
    const dir = path.resolve(config.EMBEDDED_PG_DIR ?? '.data/postgres');
    embedded = await startEmbeddedPostgres({
      dir,
      port: config.EMBEDDED_PG_PORT,
      persistent: true,
      stopOnSignals: false,
      notice: (line) => logger.info(line),
    });
    databaseUrl = embedded.url;
  }
} catch (err) {
  await fail(err);
}

const adminSecret = config.ADMIN_SECRET ?? randomBytes(24).toString('base64url');
const internalSecret = config.INTERNAL_SECRET ?? randomBytes(32).toString('base64url');
try {
  const options = { config, databaseUrl: databaseUrl!, adminSecret, internalSecret, logger };
  if (config.STACK_LAYOUT === 'threads') {
    // threads: gateway, subgraphs and their workers on event loops of their own (docs/operations.md: How the stack scales)
    stack = await startThreads(options);
  } else if (config.RISK_PROCESS === 'child' && !config.RISK_URL) {
    // risk decides in real time on an event loop of its own, in a child process; the rest here
    const risk = await startRiskProcess(options);
    try {
      const rest = await startStack({
        ...options,
        config: { ...config, RISK_URL: risk.url },
        services: SERVICE_KEYS.filter((s) => s !== 'risk'),
      });
      stack = { urls: { ...rest.urls, risk: risk.url }, stop: async () => void (await Promise.all([rest.stop(), risk.stop()])) };
    } catch (err) {
      await risk.stop();
      throw err;
    }
  } else {
    stack = await startStack(options);
  }
  const lines = [
    '',
    `  GraphQL (HTTP + graphql-ws)  ${stack.urls.gateway?.replace(/127\.0\.0\.1|0\.0\.0\.0/, 'localhost')}`,
    `  REST adapter                 ${stack.urls.rest?.replace(/127\.0\.0\.1|0\.0\.0\.0/, 'localhost')}  (OpenAPI: /openapi.json)`,
    `  subgraphs                    ${[stack.urls.verification, stack.urls.risk, stack.urls.notify].join('  ')}`,
    `  database                     ${embedded ? `embedded PostgreSQL on port ${embedded.port}` : 'DATABASE_URL'}`,
    config.ADMIN_SECRET ? '  admin secret                 from ADMIN_SECRET' : `  admin secret (shown once)    ${adminSecret}`,
    `  encryption master key        ${config.ENCRYPTION_MASTER_KEY ? 'from ENCRYPTION_MASTER_KEY' : `${devMasterKeyFile(config)} (development; keep it with .data)`}`,
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');
} catch (err) {
  await fail(err);
}
