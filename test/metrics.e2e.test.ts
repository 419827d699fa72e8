import {
  defaultMetricDefinitions,
  METRIC_GROUPS,
  METRIC_SERVICES,
  seriesNames,
  serviceMetrics,
  type MetricService,
} from '../platform/metrics/catalog.js';
import { OTHER_OPERATION } from '../platform/metrics/graphql.js';
import type { MetricDefinition } from '../platform/metrics/metric.js';
import { listIndividuals } from './support/lists.js';
import { eventually, METRICS_TOKEN, startTestStack, type TestStack } from './support/stack.js';

/** The stack's URL of each service, as its metrics' `service` label names it. */
const URL_OF: Record<MetricService, keyof TestStack['urls']> = {
  gateway: 'gateway',
  'rest-adapter': 'rest',
  verification: 'verification',
  risk: 'risk',
  notify: 'notify',
};

describe('every documented metric (docs/metrics.md)', () => {
  let stack: TestStack;
  const scrape = async (service: MetricService) => {
    const res = await fetch(`${new URL(stack.urls[URL_OF[service]]!).origin}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(res.status).toBe(200);
    return res.text();
  };
  /** The sample lines of a metric (a histogram's `_bucket`, `_sum`, `_count`), with their labels and value. */
  const samples = (text: string, def: MetricDefinition) =>
    text.split('\n').filter((line) => seriesNames(def).some((series) => line.startsWith(`${series} `) || line.startsWith(`${series}{`)));

  beforeAll(async () => {
    stack = await startTestStack();
    const { apiKey } = await stack.createClient();
    const headers = { 'x-api-key': apiKey };
    // a REST call (a mutation through the single-fetch shortcut), a query planned over three subgraphs,
    // an unnamed one, an invalid one, a path no route has
    expect((await stack.rest('POST', '/v1/verifications/identity', { userId: 'metrics-1', tier: 'BASIC' }, headers)).status).toBe(201);
    expect(
      (await stack.gql('query Everyone { verificationStatus { service } riskStatus { service } notifyStatus { service } }', {}, headers))
        .status,
    ).toBe(200);
    expect((await stack.gql('{ verificationStatus { service } }', {}, headers)).status).toBe(200);
    expect((await stack.gql('query Broken { noSuchField }', {}, headers)).status).toBe(400);
    expect((await fetch(`${stack.urls.rest}/v1/no/such/route`)).status).toBe(404);
    // a list in the screening index of the processes that screen
    await listIndividuals(stack.databaseUrl, ['Metrics Listed Person']);
    await eventually(async () => /screening_index_entries\{list="UN_SC"[^}]*\} 1/.test(await scrape('risk')));
  });
  afterAll(() => stack?.stop());

  it.each(METRIC_SERVICES)('%s reports each of its metrics, and none of the others’', async (service) => {
    const text = await scrape(service);
    // ours with a value; prom-client's defaults declared (some have series only while there is something to count: active requests…)
    const defaults = new Set(defaultMetricDefinitions().map((def) => def.name));
    const missing = serviceMetrics(service)
      .filter((def) => (defaults.has(def.name) ? !text.includes(`# HELP ${def.name} `) : samples(text, def).length === 0))
      .map((def) => def.name);
    expect(missing).toEqual([]);
    const foreign = METRIC_GROUPS.filter((group) => !group.services.includes(service))
      .flatMap((group) => group.metrics)
      .filter((def) => text.includes(`# HELP ${def.name} `))
      .map((def) => def.name);
    expect(foreign).toEqual([]);
    // every series carries its service
    for (const line of text.split('\n').filter((l) => l && !l.startsWith('#'))) expect(line).toContain(`service="${service}"`);
  });

  it('count what the requests did where it happened', async () => {
    const gateway = await scrape('gateway');
    expect(gateway).toMatch(
      /gateway_operations_total\{operation="CreateIdentityVerification",type="mutation",outcome="success",service="gateway"\} 1/,
    );
    expect(gateway).toMatch(/gateway_operations_total\{operation="Everyone",type="query",outcome="success",service="gateway"\} 1/);
    expect(gateway).toContain(
      `gateway_operations_total{operation="${OTHER_OPERATION}",type="query",outcome="success",service="gateway"} 1`,
    );
    expect(gateway).toContain(
      `gateway_operations_total{operation="${OTHER_OPERATION}",type="unknown",outcome="client_error",service="gateway"} 1`,
    );
    expect(gateway).not.toContain('operation="Broken"');
    for (const subgraph of ['verification', 'risk', 'notify']) {
      expect(
        Number(new RegExp(`gateway_subgraph_fetches_total\\{subgraph="${subgraph}",outcome="success"[^}]*\\} (\\d+)`).exec(gateway)?.[1]),
      ).toBeGreaterThan(0);
    }
    const rest = await scrape('rest-adapter');
    expect(rest).toContain('rest_requests_total{route="/verifications/identity",method="POST",status="201",service="rest-adapter"} 1');
    expect(rest).toContain('rest_requests_total{route="(unmatched)",method="GET",status="404",service="rest-adapter"} 1');
    const verification = await scrape('verification');
    expect(verification).toMatch(/screening_index_entries\{list="UN_SC",service="verification"\} 1/);
    expect(verification).toMatch(/vision_workers_max\{service="verification"\} 1/);
    // the identity verification's events were relayed by the stack's relay
    await eventually(async () => /outbox_unrelayed_events\{service="notify"\} 0/.test(await scrape('notify')));
    // the notification dispatch queue, by state (nothing was sent: all 0)
    const notify = await scrape('notify');
    for (const state of ['due', 'sending', 'scheduled'])
      expect(notify).toContain(`notify_deliveries_queued{state="${state}",service="notify"} 0`);
    expect(notify).toContain('notify_deliveries_oldest_due_age_seconds{service="notify"} 0');
    expect(Number(/outbox_relayed_events_total\{service="verification"\} (\d+)/.exec(await scrape('verification'))?.[1])).toBeGreaterThan(
      0,
    );
  });
});
