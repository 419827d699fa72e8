import { parentPort, workerData } from 'node:worker_threads';
import { loadConfig } from '../platform/config.js';
import { createLogger } from '../platform/logger.js';
import { startStack, type Stack } from './stack.js';
import type { ThreadSpec } from './stack-threads.js';
import { startTracing } from '../platform/tracing.js';

/** One worker thread of `npm start`'s threaded layout (stack-threads.ts): the services named, until told to stop. */
const spec = workerData as ThreadSpec;
const config = loadConfig({ ...process.env, ...spec.env });
const logger = createLogger(spec.services.join('+'), config.LOG_LEVEL);
// each thread traces its own services (the OTEL_* variables of the process)
const tracing = startTracing({ serviceName: `afri-verify-${spec.services.join('+')}` });
let stack: Stack | undefined;
parentPort!.on('message', (message) => {
  if (message !== 'stop') return;
  void (stack?.stop() ?? Promise.resolve())
    .then(() => tracing?.stop())
    .catch((err: unknown) => logger.error({ err }, 'error while stopping'))
    .finally(() => process.exit(0));
});
try {
  stack = await startStack({
    config,
    databaseUrl: spec.databaseUrl,
    adminSecret: spec.adminSecret,
    internalSecret: spec.internalSecret,
    services: spec.services,
    reusePort: spec.reusePort,
    logger,
  });
  parentPort!.postMessage({ ready: stack.urls });
} catch (err) {
  const { message, code, port } = err as NodeJS.ErrnoException & { port?: number };
  parentPort!.postMessage({ failed: { message: String(message), code, port } });
}
