import { readFileSync } from 'node:fs';
import pg from 'pg';
import type { Config } from '../platform/config.js';
import { createLogger, type Logger } from '../platform/logger.js';
import { migrate, openOrm, type Orm } from '../platform/db/orm.js';
import { EventStream } from '../platform/events/event-stream.js';
import { startJobs, type PgBoss } from '../platform/jobs.js';
import { startSubgraph, type RunningSubgraph, type SubgraphDefinition } from '../platform/graphql/subgraph.js';
import { createAuthenticator, pruneRateLimitWindows } from '../platform/auth/authenticate.js';
import { startGateway } from '../gateway/gateway.js';
import { startRestAdapter } from '../rest-adapter/rest-adapter.js';
import { createWebhookDispatcher, verificationEntities, verificationSubgraph } from '../subgraphs/verification/src/index.js';
import { riskEntities, riskSubgraph } from '../subgraphs/risk/src/index.js';
import { notifyEntities, notifySubgraph } from '../subgraphs/notify/src/index.js';
import { readSupergraph } from './schema.js';

export const SERVICE_KEYS = ['verification', 'risk', 'notify', 'gateway', 'rest'] as const;
export type ServiceKey = (typeof SERVICE_KEYS)[number];

export interface StackOptions {
  config: Config;
  databaseUrl: string;
  adminSecret: string;
  internalSecret: string;
  services?: readonly ServiceKey[];
  /** PEM of extra CAs trusted for webhook callbacks (tests' local HTTPS receiver). */
  webhookCa?: string;
  logger?: Logger;
}

export interface Stack {
  urls: Partial<Record<ServiceKey, string>>;
  stop(): Promise<void>;
}

/**
 * Starts the named services in this process (all by default) on the configured ports (0 = any):
 * the three subgraphs, the gateway over them and the REST adapter over the gateway.
 */
export async function startStack(opts: StackOptions): Promise<Stack> {
  const { config } = opts;
  const services = new Set(opts.services ?? SERVICE_KEYS);
  const logger = opts.logger ?? createLogger('platform', config.LOG_LEVEL);
  const stops: Array<() => Promise<unknown>> = [];
  const urls: Stack['urls'] = {};
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch((err) => logger.error({ err }, 'error while stopping'));
  };

  try {
    // the REST adapter alone talks only to the gateway; everything else uses the database
    const usesDatabase = [...services].some((s) => s !== 'rest');
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    // an idle connection the server closed (restart, shutdown) must not crash the process
    pool.on('error', (err) => logger.warn({ err: err.message }, 'database connection lost'));
    stops.push(() => pool.end());
    const events = new EventStream(opts.databaseUrl, logger);
    if (usesDatabase) {
      await migrate(opts.databaseUrl);
      await events.start();
      stops.push(() => events.stop());
    }

    const subgraph = async <D>(definition: SubgraphDefinition<D>, entities: Function[], deps: D, port: number): Promise<RunningSubgraph> => {
      const orm: Orm = await openOrm({ url: opts.databaseUrl, entities, logger });
      stops.push(() => orm.close());
      const running = await startSubgraph({ definition, orm, deps, internalSecret: opts.internalSecret, logger, port, host: config.HOST });
      stops.push(() => running.stop());
      return running;
    };

    if (services.has('verification')) {
      const boss: PgBoss = await startJobs(opts.databaseUrl, logger, config.JOBS_SUPERVISE_SECONDS);
      stops.push(() => boss.stop({ graceful: true, timeout: 5_000 }));
      const dispatcher = createWebhookDispatcher({ pool, boss, events, logger, config, ca: opts.webhookCa ?? (config.WEBHOOK_CA_FILE ? readFileSync(config.WEBHOOK_CA_FILE, 'utf8') : undefined) });
      const running = await subgraph(verificationSubgraph, verificationEntities, { config, events, webhooks: dispatcher }, config.VERIFICATION_PORT);
      await dispatcher.start();
      stops.push(() => dispatcher.stop());
      urls.verification = running.url;
    }
    if (services.has('risk')) urls.risk = (await subgraph(riskSubgraph, riskEntities, {}, config.RISK_PORT)).url;
    if (services.has('notify')) urls.notify = (await subgraph(notifySubgraph, notifyEntities, {}, config.NOTIFY_PORT)).url;

    if (services.has('gateway')) {
      const authenticate = createAuthenticator({ pool, adminSecret: opts.adminSecret, organizationRateLimit: config.ORGANIZATION_RATE_LIMIT });
      const prune = setInterval(() => void pruneRateLimitWindows(pool).catch(() => undefined), 60_000);
      prune.unref();
      stops.push(async () => clearInterval(prune));
      const gateway = await startGateway({
        supergraphSdl: readSupergraph(),
        subgraphUrls: {
          verification: urls.verification ?? config.VERIFICATION_URL,
          risk: urls.risk ?? config.RISK_URL,
          notify: urls.notify ?? config.NOTIFY_URL,
        },
        authenticate,
        internalSecret: opts.internalSecret,
        logger,
        production: config.NODE_ENV === 'production',
        port: config.GATEWAY_PORT,
        host: config.HOST,
      });
      stops.push(() => gateway.stop());
      urls.gateway = gateway.url;
    }
    if (services.has('rest')) {
      const rest = await startRestAdapter({ gatewayUrl: urls.gateway ?? config.GATEWAY_URL, port: config.REST_PORT, host: config.HOST, logger });
      stops.push(() => rest.stop());
      urls.rest = rest.url;
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { urls, stop };
}
