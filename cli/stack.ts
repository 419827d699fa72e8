import { readFileSync } from 'node:fs';
import { startIdleCompaction } from '../platform/idle-compaction.js';
import pg from 'pg';
import type { Config } from '../platform/config.js';
import { createLogger, type Logger } from '../platform/logger.js';
import { openOrm, type Orm } from '../platform/db/orm.js';
import { migrateDatabase } from './migrations.js';
import { logDatabaseError } from '../platform/db/connection-errors.js';
import { EventStream } from '../platform/events/event-stream.js';
import { OutboxRelay } from '../platform/events/outbox-relay.js';
import { DeliveryWorker } from '../platform/delivery/delivery.worker.js';
import { startJobs, type PgBoss } from '../platform/jobs.js';
import { startSubgraph } from '../platform/graphql/subgraph.js';
import { startEdgeAuthenticator, type EdgeAuthenticator } from '../platform/auth/authenticate.js';
import { NatsBus } from '../platform/events/nats-bus.js';
import { BusBridge } from '../platform/events/bus-bridge.js';
import { API_CLIENT_CHANGED_CHANNEL } from '../platform/auth/api-client.service.js';
import { LISTS_CHANNEL } from '../screening/lists/store.js';
import { DATA_KEYS_CHANGED_CHANNEL, Keyring } from '../platform/crypto/keyring.js';
import { masterKeyProvider } from '../platform/crypto/master-key.js';
import { sealLegacyColumns } from '../platform/crypto/reencrypt.js';
import type { RunningGateway } from '../gateway/gateway.js';
import type { ServiceRuntime } from '../platform/service-module.js';
import { LoadedResources } from '../platform/loaded-resources.js';
import { loadServiceModules, SERVICE_PORT } from './services.js';
import { SUPERGRAPH_PATH } from './schema-files.js';
import { BacklogMetrics, BacklogReader } from '../platform/metrics/backlog.js';

/** The NOTIFY channels the NATS bus carries (BusBridge): every `listen` of a process that may run without LISTEN. */
export const BUS_CHANNELS = [
  API_CLIENT_CHANGED_CHANNEL,
  DATA_KEYS_CHANGED_CHANNEL,
  'risk_rules',
  'risk_profiles',
  'risk_graph_changed',
  LISTS_CHANNEL,
] as const;

export const SERVICE_KEYS = ['verification', 'risk', 'notify', 'gateway', 'rest'] as const;
export type ServiceKey = (typeof SERVICE_KEYS)[number];

export interface StackOptions {
  config: Config;
  databaseUrl: string;
  adminSecret: string;
  internalSecret: string;
  services?: readonly ServiceKey[];
  /** The gateway and REST adapter listen with SO_REUSEPORT (several threads on one port). */
  reusePort?: boolean;
  /** PEM of extra CAs trusted for outgoing TLS (tests' local HTTPS receivers). */
  webhookCa?: string;
  /** Models and engines shared with the process's other stacks (kept when this one stops); by default its own. */
  resources?: LoadedResources;
  logger?: Logger;
}

export interface Stack {
  urls: Partial<Record<ServiceKey, string>>;
  /**
   * Subscriptions this process serves now (a subscription is live once counted): its subgraphs'
   * own, plus its gateway's subscribers that share one of them (with the subgraph in this process).
   */
  activeSubscriptions(): number;
  /** Shares this stack's gateway rate-limit counts with the other instances now (a timer does it every RATE_LIMIT_SYNC_MS). */
  syncRateLimits(): Promise<void>;
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
  // the heap a busy minute grew to goes back once the process is idle (platform/idle-compaction.ts)
  const compaction = startIdleCompaction({ idleSeconds: config.IDLE_COMPACTION_SECONDS, logger });
  stops.push(async () => compaction.stop());

  // the event bus: LISTEN/NOTIFY on the database, or NATS JetStream fed from the outbox (EVENT_BUS)
  const bus = config.EVENT_BUS ? await NatsBus.connect(config.EVENT_BUS, logger) : null;
  if (bus) stops.push(() => bus.close());
  const events = new EventStream(opts.databaseUrl, logger, bus);
  let edgeAuth: EdgeAuthenticator | undefined;
  let gateway: RunningGateway | undefined;
  try {
    // a process loads the code of the services it runs, no other
    const modules = await loadServiceModules([...services]);
    // envelope encryption, for the subgraphs: the master key from the environment (production
    // refuses to start without one), before anything else
    const masterKey = modules.length ? masterKeyProvider(config, logger) : null;
    // the REST adapter alone talks only to the gateway; everything else uses the database
    const usesDatabase = [...services].some((s) => s !== 'rest');
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    // an idle connection the server closed (restart, shutdown) must not crash the process
    pool.on('error', (err) => logDatabaseError(logger, err, 'database pool'));
    // a checked-out client has no pool listener: a server gone mid-transaction must not crash us
    pool.on('connect', (client) => client.on('error', (err) => logDatabaseError(logger, err, 'database client')));
    stops.push(() => pool.end());
    if (usesDatabase) {
      await migrateDatabase(opts.databaseUrl);
      await events.start();
      stops.push(() => events.stop());
    }

    let boss: Promise<PgBoss> | null = null;
    // the work waiting in the database, and what the relay and the delivery worker do: every subgraph reports them
    const backlog = new BacklogMetrics(new BacklogReader(pool, logger));
    const ca = opts.webhookCa ?? (config.WEBHOOK_CA_FILE ? readFileSync(config.WEBHOOK_CA_FILE, 'utf8') : undefined);
    const deliveries = new DeliveryWorker({
      pool,
      logger: logger.child({ component: 'deliveries' }),
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      retryDelays: config.WEBHOOK_RETRY_DELAYS,
      allowPrivateTargets: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      ca,
      metrics: backlog,
    });
    const configuredUrls: Partial<Record<ServiceKey, string>> = {
      verification: config.VERIFICATION_URL,
      risk: config.RISK_URL,
      notify: config.NOTIFY_URL,
      gateway: config.GATEWAY_URL,
    };
    const resources = opts.resources ?? new LoadedResources();
    if (!opts.resources) stops.push(() => resources.close());
    const keyring = masterKey ? new Keyring(pool, masterKey) : null;
    if (keyring) {
      // rows written before encryption are sealed before anything serves them
      const sealed = await sealLegacyColumns(pool, keyring);
      if (sealed) logger.info({ rows: sealed }, 'sealed the personal data of rows written before encryption');
      // another process rotated an organization's data key: new writes use the new version here too
      const rotations = await events.listen({
        channel: DATA_KEYS_CHANGED_CHANNEL,
        logger,
        onNotification: (organizationId) => keyring.forget(organizationId),
        onReconnect: () => keyring.forget(),
      });
      stops.push(() => rotations.stop());
    }
    const runtime: ServiceRuntime = {
      config,
      databaseUrl: opts.databaseUrl,
      pool,
      events,
      logger,
      ca,
      deliveries,
      internalSecret: opts.internalSecret,
      keyring: keyring!,
      resources,
      // read when called: a service started later in this process (notify after verification) is found then
      serviceUrl: (name) => urls[name as ServiceKey] ?? configuredUrls[name as ServiceKey],
      jobs: () =>
        (boss ??= startJobs(opts.databaseUrl, logger, config.JOBS_SUPERVISE_SECONDS).then((b) => {
          stops.push(() => b.stop({ graceful: true, timeout: 5_000 }));
          return b;
        })),
    };
    for (const module of modules) {
      const orm: Orm = await openOrm({ url: opts.databaseUrl, entities: module.entities, logger, keyring: keyring! });
      stops.push(() => orm.close());
      const instance = await module.setup(runtime);
      const running = await startSubgraph({
        definition: module.definition,
        orm,
        events,
        deps: instance.deps,
        internalSecret: opts.internalSecret,
        metricsToken: config.METRICS_TOKEN,
        metrics: [...backlog.metrics, ...(instance.metrics ?? [])],
        logger,
        port: SERVICE_PORT[module.name](config),
        host: config.SUBGRAPH_HOST,
      });
      stops.push(() => running.stop());
      urls[module.name] = running.url;
      if (instance.start) await instance.start();
      if (instance.stop) stops.push(instance.stop);
    }
    // every process that writes outbox rows relays them to webhooks and delivers (whichever services it runs)
    if (modules.length) {
      const relay = new OutboxRelay({
        pool,
        events,
        logger,
        pollMs: config.OUTBOX_POLL_MS,
        retentionHours: config.OUTBOX_RETENTION_HOURS,
        onDeliveries: () => deliveries.wake(),
        metrics: backlog,
      });
      deliveries.start();
      relay.start();
      stops.push(() => deliveries.stop());
      stops.push(() => relay.stop());
      if (bus) {
        // one process of the deployment hears PostgreSQL's notices and republishes them on the bus
        const bridge = new BusBridge({
          databaseUrl: opts.databaseUrl,
          bus,
          logger,
          channels: BUS_CHANNELS,
          onOutbox: () => relay.wake(),
          retryMs: config.OUTBOX_POLL_MS,
        });
        await bridge.start();
        stops.push(() => bridge.stop());
      }
    }

    if (services.has('gateway')) {
      const auth = await startEdgeAuthenticator({
        pool,
        events,
        adminSecret: opts.adminSecret,
        internalSecret: opts.internalSecret,
        organizationRateLimit: config.ORGANIZATION_RATE_LIMIT,
        syncMs: config.RATE_LIMIT_SYNC_MS,
        logger,
      });
      stops.push(() => auth.stop());
      edgeAuth = auth;
      const { startGateway } = await import('../gateway/gateway.js');
      gateway = await startGateway({
        supergraphSdl: readFileSync(SUPERGRAPH_PATH, 'utf8'),
        subgraphUrls: {
          verification: runtime.serviceUrl('verification'),
          risk: runtime.serviceUrl('risk'),
          notify: runtime.serviceUrl('notify'),
        },
        authenticate: auth.authenticate,
        internalSecret: opts.internalSecret,
        metricsToken: config.METRICS_TOKEN,
        trustedProxies: config.TRUSTED_PROXIES,
        logger,
        production: config.NODE_ENV === 'production',
        port: config.GATEWAY_PORT,
        host: config.HOST,
        reusePort: opts.reusePort,
        shareQueries: config.GATEWAY_SHARE_QUERIES,
      });
      const running = gateway;
      stops.push(() => running.stop());
      urls.gateway = gateway.url;
      // a revoked or rotated key ends its graphql-ws connections on every gateway within moments
      // (after a reconnect, clientId is undefined: every connection is checked)
      auth.onClientChanged((clientId) => void running.recheckConnections(clientId).catch((err) => logger.warn({ err }, 'recheck failed')));
    }
    if (services.has('rest')) {
      const { startRestAdapter } = await import('../rest-adapter/rest-adapter.js');
      const rest = await startRestAdapter({
        gatewayUrl: urls.gateway ?? config.GATEWAY_URL,
        // beside the gateway, operations run in-process (REST_IN_PROCESS=false: over loopback HTTP, as a separate adapter does)
        localGateway: config.REST_IN_PROCESS ? gateway : undefined,
        port: config.REST_PORT,
        host: config.HOST,
        reusePort: opts.reusePort,
        metricsToken: config.METRICS_TOKEN,
        trustedProxies: config.TRUSTED_PROXIES,
        logger,
      });
      stops.push(() => rest.stop());
      urls.rest = rest.url;
    }
  } catch (err) {
    await stop();
    throw err;
  }
  // subscriptions served: the subgraphs' own, and the gateway's subscribers that share one of them
  const activeSubscriptions = () => events.subscriberCount + (gateway?.sharingSubscribers() ?? 0);
  return { urls, activeSubscriptions, syncRateLimits: async () => edgeAuth?.syncRateLimits(), stop };
}
