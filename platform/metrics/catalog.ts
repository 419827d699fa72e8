import { collectDefaultMetrics, Registry } from 'prom-client';
import { BACKLOG_COUNT_CAP, BACKLOG_METRICS, BACKLOG_READ_INTERVAL_MS } from './backlog.js';
import { GATEWAY_METRICS, MAX_OPERATION_NAMES, OTHER_OPERATION } from './graphql.js';
import { HTTP_METRICS, REST_METRICS, UNMATCHED_ROUTE } from './http.js';
import type { MetricDefinition } from './metric.js';
import { NOTIFY_METRICS } from './notify.js';
import { SCREENING_METRICS } from './screening.js';
import { VISION_METRICS } from './vision.js';

/** The `service` label of each service's metrics (set by `mountObservability`). */
export const METRIC_SERVICES = ['gateway', 'rest-adapter', 'verification', 'risk', 'notify'] as const;
export type MetricService = (typeof METRIC_SERVICES)[number];

export interface MetricGroup {
  title: string;
  /** The services whose `/metrics` report every metric of the group. */
  services: readonly MetricService[];
  /** What an operator needs to read them right. */
  about: string;
  metrics: readonly MetricDefinition[];
}

const SUBGRAPHS: readonly MetricService[] = ['verification', 'risk', 'notify'];

/**
 * Every metric the platform defines, grouped by concern, with the services that report it: the
 * source of docs/metrics.md (`npm run docs:metrics`), of the check that the dashboard and the alert
 * rules name only real metrics (test/deploy.test.ts), and of the end-to-end check that each service
 * reports its own (test/metrics.e2e.test.ts).
 */
export const METRIC_GROUPS: readonly MetricGroup[] = [
  {
    title: 'HTTP',
    services: METRIC_SERVICES,
    about:
      'Every request a service answers, `/health` and `/metrics` included; and whether the service is ready, as `/ready` says when scraped.',
    metrics: Object.values(HTTP_METRICS),
  },
  {
    title: 'GraphQL operations and subgraph calls (gateway)',
    services: ['gateway'],
    about:
      'RED per operation: rate and errors from `gateway_operations_total`, duration from the histogram. An operation is labelled with its name once its document validated; unnamed and invalid operations, and names past the first ' +
      `${MAX_OPERATION_NAMES} a process has seen, share the label \`${OTHER_OPERATION}\`. ` +
      "`type` is `query`, `mutation` or `unknown` (not valid). Outcome: `server_error` when an error is the platform's (`INTERNAL`, `UNAVAILABLE`, a subgraph unreachable, a 5xx), `client_error` for any other error (validation, authentication, rate limit, not found…), else `success`. REST calls are GraphQL operations too (their names are the route table's). Subscriptions over graphql-ws are not counted here. Each subgraph call the gateway makes (a plan's fetch, the plan shortcut, a subscription event's other fields) counts once per request that waited for it, a call joined by identical requests in flight included: `network_error` (no answer), `http_error` (an HTTP status other than 2xx), `graphql_error` (errors in the answer), else `success`.",
    metrics: Object.values(GATEWAY_METRICS),
  },
  {
    title: 'REST adapter',
    services: ['rest-adapter'],
    about:
      'RED per route template (`/verifications/identity/:id`; the `/v1` form counts under the same template). Paths no route matches share `route="' +
      UNMATCHED_ROUTE +
      '"`. `/health`, `/ready` and `/metrics` are not counted here.',
    metrics: Object.values(REST_METRICS),
  },
  {
    title: 'Jobs, outbox and deliveries',
    services: SUBGRAPHS,
    about:
      `Read from PostgreSQL when scraped, at most once per ${BACKLOG_READ_INTERVAL_MS / 1000} s per process, ` +
      'through the partial indexes the queues already have (pg-boss `job_i5`, `outbox_events_unrelayed_idx`, `deliveries_due_idx`): the cost follows the backlog, not the tables, and counts stop at ' +
      `${BACKLOG_COUNT_CAP.toLocaleString('en')}. ` +
      "The gauges are database-wide: every subgraph instance reports the same value, so aggregate them with `max`, never `sum`. The counters are each process's own work: `sum` them. `jobs_active` is pg-boss's own count, refreshed by its monitor every `JOBS_SUPERVISE_SECONDS`. Deliveries include the callbacks that share the webhook queue (AML batch callbacks). While the database cannot be read, the labelled gauges report no series and the others NaN (never a stale value).",
    metrics: Object.values(BACKLOG_METRICS),
  },
  {
    title: 'Notification dispatch',
    services: ['notify'],
    about: `The deliveries table is the dispatch queue: each channel of an accepted notification waits there until it is sent or fails. Read from PostgreSQL when scraped, at most once per ${BACKLOG_READ_INTERVAL_MS / 1000} s per process; counts stop at ${BACKLOG_COUNT_CAP.toLocaleString('en')}. Database-wide: aggregate with \`max\`. A channel stays \`sending\` for at most \`NOTIFY_CLAIM_LEASE_SECONDS\` when its dispatcher died; it is then due again.`,
    metrics: Object.values(NOTIFY_METRICS),
  },
  {
    title: 'Screening index',
    services: ['verification', 'risk'],
    about:
      'The in-memory index of the sanctions and PEP lists each process screens against (one per process: verification and risk in one process share it). Rebuilt when a list snapshot lands (`npm run lists:import`, `lists:update`).',
    metrics: Object.values(SCREENING_METRICS),
  },
  {
    title: 'Vision workers (face models and OCR)',
    services: ['verification'],
    about:
      "The face models and all text reading (OCR of documents and proofs of address, the machine-readable zone's glyph matching) run in `VISION_WORKERS` processes of their own, started by the first image and stopped after `VISION_IDLE_MS` without work (then `vision_workers` reads 0 and nothing holds their memory); a worker loads the face models on its first face analysis and Tesseract on its first reading. Requests go to the workers in turn; `vision_queued_tasks` counts those waiting behind another on the same worker.",
    metrics: Object.values(VISION_METRICS),
  },
];

/** prom-client's default metrics (`collectDefaultMetrics`) as every service registers them: process CPU, memory, event loop lag, heap, GC. */
export function defaultMetricDefinitions(): MetricDefinition[] {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry.getMetricsAsArray().map((metric) => {
    const m = metric as unknown as { name: string; help: string; type: MetricDefinition['type']; labelNames?: string[] };
    return { name: m.name, help: m.help, type: m.type, labelNames: m.labelNames ?? [] };
  });
}

/** The series names a metric shows in Prometheus: a histogram's `_bucket`, `_sum` and `_count`. */
export function seriesNames(def: Pick<MetricDefinition, 'name' | 'type'>): string[] {
  return def.type === 'histogram' ? [`${def.name}_bucket`, `${def.name}_sum`, `${def.name}_count`] : [def.name];
}

/** Every metric a service reports, prom-client's defaults included. */
export function serviceMetrics(service: MetricService): MetricDefinition[] {
  return [...defaultMetricDefinitions(), ...METRIC_GROUPS.filter((g) => g.services.includes(service)).flatMap((g) => g.metrics)];
}

/** Every series name some service reports: what PromQL may name. */
export function documentedSeriesNames(): Set<string> {
  return new Set(METRIC_SERVICES.flatMap((service) => serviceMetrics(service).flatMap(seriesNames)));
}
