import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { loadConfig } from '../platform/config.js';
import { createLogger } from '../platform/logger.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../platform/db/embedded-postgres.js';
import { startStack, type Stack } from './stack.js';
import { onShutdown } from './shutdown.js';

/**
 * `npm start`: the whole platform in one process with zero configuration — embedded PostgreSQL
 * (data in .data/), migrations, three subgraphs, the gateway and the REST adapter.
 */
const config = loadConfig();
const logger = createLogger('platform', config.LOG_LEVEL);

let embedded: EmbeddedDatabase | null = null;
let stack: Stack | null = null;
// from the first moment: a signal during startup must not leave the embedded PostgreSQL running
onShutdown(logger, async () => {
  await stack?.stop();
  await embedded?.stop();
});
let databaseUrl = config.DATABASE_URL;
if (!databaseUrl) {
  const dir = path.resolve(config.EMBEDDED_PG_DIR ?? '.data/postgres');
  embedded = await startEmbeddedPostgres({ dir, port: config.EMBEDDED_PG_PORT, persistent: true, stopOnSignals: false });
  databaseUrl = embedded.url;
}

const adminSecret = config.ADMIN_SECRET ?? randomBytes(24).toString('base64url');
const internalSecret = config.INTERNAL_SECRET ?? randomBytes(32).toString('base64url');
try {
  stack = await startStack({ config, databaseUrl, adminSecret, internalSecret, logger });
  const lines = [
    '',
    `  GraphQL (HTTP + graphql-ws)  ${stack.urls.gateway?.replace(/127\.0\.0\.1|0\.0\.0\.0/, 'localhost')}`,
    `  REST adapter                 ${stack.urls.rest?.replace(/127\.0\.0\.1|0\.0\.0\.0/, 'localhost')}  (OpenAPI: /openapi.json)`,
    `  subgraphs                    ${[stack.urls.verification, stack.urls.risk, stack.urls.notify].join('  ')}`,
    `  database                     ${embedded ? `embedded PostgreSQL on port ${embedded.port}` : 'DATABASE_URL'}`,
    config.ADMIN_SECRET ? '  admin secret                 from ADMIN_SECRET' : `  admin secret (shown once)    ${adminSecret}`,
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');
} catch (err) {
  logger.fatal({ err }, 'could not start the platform');
  await embedded?.stop();
  process.exit(1);
}
