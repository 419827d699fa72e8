/**
 * A subgraph service started as `cli/start-service.ts` starts it (same config, same `startStack`),
 * that also answers its parent over the IPC channel with the number of subscriptions it serves:
 * a crash test running services as child processes can then tell when a (re)subscription is live,
 * as in-process tests do with `stack.activeSubscriptions()`. Run by `serviceProcess(…, {
 * countSubscriptions: true })` from the build (`dist/test/support/service-main.js`).
 */
import { loadConfig } from '../../platform/config.js';
import { createLogger } from '../../platform/logger.js';
import { startStack, type ServiceKey, type Stack } from '../../cli/stack.js';

const name = process.argv[2] as ServiceKey;
let stack: Stack | null = null;
// answer from the start (0 while the service is starting): a question is never left unanswered
process.on('message', (message: { type?: string; id?: number }) => {
  if (message?.type === 'subscriptions') process.send?.({ id: message.id, count: stack?.activeSubscriptions() ?? 0 });
});
// the test runner went away: do not outlive it
process.on('disconnect', () => process.exit(0));

const config = loadConfig();
stack = await startStack({
  config,
  databaseUrl: config.DATABASE_URL ?? '',
  adminSecret: config.ADMIN_SECRET ?? '',
  internalSecret: config.INTERNAL_SECRET ?? '',
  services: [name],
  logger: createLogger(name, config.LOG_LEVEL),
});
