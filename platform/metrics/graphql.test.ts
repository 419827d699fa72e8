import { Registry } from 'prom-client';
import { fetchOutcome, MAX_OPERATION_NAMES, OperationMetrics, operationOutcome, OTHER_OPERATION, SubgraphFetchMetrics } from './graphql.js';

const scrape = async (metrics: { metrics: Parameters<Registry['registerMetric']>[0][] }) => {
  const registry = new Registry();
  for (const m of metrics.metrics) registry.registerMetric(m);
  return registry.metrics();
};

describe('operation metrics', () => {
  it('label each valid name once seen, and fold unnamed, invalid and names past the cap into one value', () => {
    const metrics = new OperationMetrics(3);
    expect(metrics.label('Person')).toBe('Person');
    expect(metrics.label(undefined)).toBe(OTHER_OPERATION);
    expect(metrics.label(null)).toBe(OTHER_OPERATION);
    expect(metrics.label('')).toBe(OTHER_OPERATION);
    expect(metrics.label('not a name{}')).toBe(OTHER_OPERATION);
    expect(metrics.label('x'.repeat(101))).toBe(OTHER_OPERATION);
    expect(metrics.label('Two')).toBe('Two');
    expect(metrics.label('Three')).toBe('Three');
    // the cap is reached: new names fold, names already seen keep their label
    expect(metrics.label('Four')).toBe(OTHER_OPERATION);
    expect(metrics.label('Person')).toBe('Person');
  });

  it('bound the series a flood of distinct names can make', async () => {
    const metrics = new OperationMetrics();
    for (let i = 0; i < MAX_OPERATION_NAMES * 3; i++) metrics.observe({ name: `Op${i}`, type: 'query' }, 'success', 0.01);
    const text = await scrape(metrics);
    const names = new Set([...text.matchAll(/gateway_operations_total\{operation="([^"]+)"/g)].map((m) => m[1]));
    expect(names.size).toBe(MAX_OPERATION_NAMES + 1);
    expect(text).toContain(
      `gateway_operations_total{operation="${OTHER_OPERATION}",type="query",outcome="success"} ${MAX_OPERATION_NAMES * 2}`,
    );
  });

  it('count each operation by name, type and outcome, with its duration', async () => {
    const metrics = new OperationMetrics();
    metrics.observe({ name: 'Person', type: 'query' }, 'success', 0.02);
    metrics.observe({ name: 'Person', type: 'query' }, 'client_error', 0.003);
    metrics.observe({}, 'client_error', 0.001);
    const text = await scrape(metrics);
    expect(text).toContain('gateway_operations_total{operation="Person",type="query",outcome="success"} 1');
    expect(text).toContain('gateway_operations_total{operation="Person",type="query",outcome="client_error"} 1');
    expect(text).toContain(`gateway_operations_total{operation="${OTHER_OPERATION}",type="unknown",outcome="client_error"} 1`);
    expect(text).toContain('gateway_operation_duration_seconds_count{operation="Person",type="query"} 2');
    expect(text).toContain('gateway_operation_duration_seconds_bucket{le="0.005",operation="Person",type="query"} 1');
  });

  it('judge an outcome by status and error codes', () => {
    expect(operationOutcome(200, undefined)).toBe('success');
    expect(operationOutcome(200, [])).toBe('success');
    expect(operationOutcome(200, [{ extensions: { code: 'NOT_FOUND' } }])).toBe('client_error');
    expect(operationOutcome(400, [{ extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }])).toBe('client_error');
    expect(operationOutcome(429, undefined)).toBe('client_error');
    expect(operationOutcome(200, [{ extensions: { code: 'NOT_FOUND' } }, { extensions: { code: 'INTERNAL' } }])).toBe('server_error');
    expect(operationOutcome(200, [{ extensions: { code: 'DOWNSTREAM_SERVICE_ERROR' } }])).toBe('server_error');
    expect(operationOutcome(200, [{}])).toBe('server_error');
    expect(operationOutcome(503, undefined)).toBe('server_error');
  });
});

describe('subgraph fetch metrics', () => {
  it('judge a call by what came back', () => {
    expect(fetchOutcome(null)).toBe('network_error');
    expect(fetchOutcome({ status: 502 })).toBe('http_error');
    expect(fetchOutcome({ status: 200, errors: [{ message: 'x' }] })).toBe('graphql_error');
    expect(fetchOutcome({ status: 200, errors: [] })).toBe('success');
    expect(fetchOutcome({ status: 200 })).toBe('success');
  });

  it('start every outcome of a known subgraph at 0, then count calls and their time', async () => {
    const metrics = new SubgraphFetchMetrics();
    metrics.known('risk');
    let text = await scrape(metrics);
    for (const outcome of ['success', 'graphql_error', 'http_error', 'network_error']) {
      expect(text).toContain(`gateway_subgraph_fetches_total{subgraph="risk",outcome="${outcome}"} 0`);
    }
    metrics.observe('risk', 'network_error', performance.now() - 20);
    text = await scrape(metrics);
    expect(text).toContain('gateway_subgraph_fetches_total{subgraph="risk",outcome="network_error"} 1');
    expect(text).toContain('gateway_subgraph_fetch_duration_seconds_count{subgraph="risk"} 1');
    expect(Number(/gateway_subgraph_fetch_duration_seconds_sum\{subgraph="risk"\} ([\d.]+)/.exec(text)?.[1])).toBeGreaterThanOrEqual(0.019);
  });
});
