import type pg from 'pg';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import type { EventStream } from './events/event-stream.js';
import type { PgBoss } from './jobs.js';
import type { SubgraphDefinition } from './graphql/subgraph.js';
import type { ServiceName } from './auth/principal.js';
import type { DeliveryWorker } from './delivery/delivery.worker.js';
import type { Keyring } from './crypto/keyring.js';
import type { LoadedResources } from './loaded-resources.js';
import type { Metric } from './metrics/metric.js';

/** What the runtime hands a subgraph service when it starts (shared per process). */
export interface ServiceRuntime {
  config: Config;
  databaseUrl: string;
  pool: pg.Pool;
  events: EventStream;
  logger: Logger;
  /** The process's pg-boss instance, started on first use. */
  jobs(): Promise<PgBoss>;
  /** Extra CA (PEM) trusted for outgoing TLS to customer endpoints (webhooks, callbacks). */
  ca?: string;
  /** The process's signed-HTTP delivery worker: callbacks register their outcome handler in `setup`. */
  deliveries: DeliveryWorker;
  /** Envelope encryption of stored files and sealed columns (the ORMs of this process open and seal with it). */
  keyring: Keyring;
  /** Shared by the gateway and the subgraphs: signs principals and session tokens. */
  internalSecret: string;
  /** Models and engines loaded once: this stack's own, or shared by every stack of the process. */
  resources: LoadedResources;
  /** Where another service's GraphQL endpoint (or the gateway's) answers: this process's own when it runs it, else its configured URL (NOTIFY_URL, GATEWAY_URL…). */
  serviceUrl(name: ServiceName | 'gateway'): string | undefined;
}

export interface ServiceInstance<Deps> {
  deps: Deps;
  /** The service's own metrics (its models, its engines), reported by its `/metrics` (docs/metrics.md). */
  metrics?: readonly Metric[];
  /** Background work (workers, relays) started once the subgraph listens. */
  start?(): Promise<void>;
  stop?(): Promise<void>;
}

/** A subgraph service: its GraphQL definition, its entities, and how to build its dependencies. */
export interface ServiceModule<Deps = any> {
  name: ServiceName;
  definition: SubgraphDefinition<Deps>;
  entities: Function[];
  /** The events of this service a webhook may subscribe to. */
  webhookEvents: readonly string[];
  setup(runtime: ServiceRuntime): Promise<ServiceInstance<Deps>>;
}
