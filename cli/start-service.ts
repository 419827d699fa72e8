import { loadConfig } from '../platform/config.js';
import { createLogger } from '../platform/logger.js';
import { SERVICE_KEYS, startStack, type ServiceKey } from './stack.js';
import { onShutdown } from './shutdown.js';
import { startTracing } from '../platform/tracing.js';

/**
 * `npm run start:<service>`: one service alone, for production deployment. Needs DATABASE_URL
 * and INTERNAL_SECRET (shared by the gateway and the subgraphs); the gateway also ADMIN_SECRET.
 */
const name = process.argv[2] as ServiceKey;
const config = loadConfig();
const logger = createLogger(name ?? 'platform', config.LOG_LEVEL);
const missing = [
  !SERVICE_KEYS.includes(name) && `service argument (one of ${SERVICE_KEYS.join(', ')})`,
  name !== 'rest' && !config.DATABASE_URL && 'DATABASE_URL',
  name !== 'rest' && !config.INTERNAL_SECRET && 'INTERNAL_SECRET',
  name === 'gateway' && !config.ADMIN_SECRET && 'ADMIN_SECRET',
].filter(Boolean);
if (missing.length) {
  logger.fatal(`missing: ${missing.join(', ')}`);
  process.exit(1);
}
// OpenTelemetry when the OTEL_* variables ask for it (docs/operations.md)
const tracing = startTracing({ serviceName: `afri-verify-${name}` });
const stack = await startStack({
  config,
  databaseUrl: config.DATABASE_URL ?? '',
  adminSecret: config.ADMIN_SECRET ?? '',
  internalSecret: config.INTERNAL_SECRET ?? '',
  services: [name],
  logger,
});
onShutdown(logger, async () => {
  await stack.stop();
  await tracing?.stop();
});
// started by `npm start` (cli/risk-process.ts): it leaves with its parent, even one that was SIGKILLed
if (process.send) process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
logger.info({ urls: stack.urls }, `${name} started`);
