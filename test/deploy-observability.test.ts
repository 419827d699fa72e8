import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import { METRIC_GROUPS } from '../platform/metrics/catalog.js';
import { promqlProblems, withoutGrafanaVariables } from './support/promql.js';

const DASHBOARD = 'deploy/observability/grafana-dashboard.json';
const RULES = 'deploy/observability/prometheus-rules.yaml';

interface Panel {
  type: string;
  title?: string;
  targets?: Array<{ expr?: string }>;
  panels?: Panel[];
}
interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
  uid: string;
  panels: Panel[];
  templating: { list: Array<{ type: string; definition?: string }> };
};
const panelsOf = (panels: Panel[]): Panel[] => panels.flatMap((p) => [p, ...panelsOf(p.panels ?? [])]);
const dashboardExprs = panelsOf(dashboard.panels).flatMap((p) => (p.targets ?? []).map((t) => t.expr ?? ''));
const rules = (YAML.parse(readFileSync(RULES, 'utf8')) as { groups: Array<{ name: string; rules: Rule[] }> }).groups.flatMap(
  (g) => g.rules,
);

describe('the checker of PromQL', () => {
  it('refuses an expression that does not parse, an unknown metric, a label the metric lacks, a grouping by nothing there', async () => {
    const { problems } = await promqlProblems([
      'sum(rate(gateway_operations_total[5m]) by',
      'rate(gateway_operation_total[5m])',
      'sum(rate(rest_requests_total{routes="/x"}[5m]))',
      'sum by (subgraph) (rate(rest_requests_total[5m]))',
      'sum by (route) (rate(rest_requests_total{status=~"5.."}[5m]))',
    ]);
    expect(problems.map((p) => p.expr)).toEqual([
      'sum(rate(gateway_operations_total[5m]) by',
      'rate(gateway_operation_total[5m])',
      'sum(rate(rest_requests_total{routes="/x"}[5m]))',
      'sum by (subgraph) (rate(rest_requests_total[5m]))',
    ]);
  });
});

describe('the Grafana dashboard (deploy/observability/grafana-dashboard.json)', () => {
  it('queries only documented metrics, in PromQL that parses', async () => {
    expect(dashboardExprs.length).toBeGreaterThan(20);
    expect(dashboardExprs.every(Boolean)).toBe(true);
    const { problems } = await promqlProblems(dashboardExprs.map(withoutGrafanaVariables));
    expect(problems).toEqual([]);
  });

  it('shows every metric the platform defines (RED, queues, screening, workers) and the process figures', async () => {
    const { metrics } = await promqlProblems(dashboardExprs.map(withoutGrafanaVariables));
    const shown = new Set([...metrics].map((series) => series.replace(/_(bucket|sum|count)$/, '')));
    const ours = METRIC_GROUPS.flatMap((g) => g.metrics.map((m) => m.name));
    expect(ours.filter((name) => !shown.has(name))).toEqual([]);
    for (const name of ['process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_p99_seconds']) {
      expect(shown).toContain(name);
    }
  });

  it('lists services from a documented metric and picks its data source', async () => {
    const variables = dashboard.templating.list;
    expect(variables.find((v) => v.type === 'datasource')).toBeDefined();
    const query = variables.find((v) => v.type === 'query')?.definition ?? '';
    const metric = /^label_values\((\w+), *service\)$/.exec(query)?.[1];
    expect(metric).toBeDefined();
    expect((await promqlProblems([metric!])).problems).toEqual([]);
  });
});

describe('the alert rules (deploy/observability/prometheus-rules.yaml)', () => {
  it('are alerts with a duration, a severity and a summary, each expression parsing and naming documented metrics only', async () => {
    for (const rule of rules) {
      expect({ alert: rule.alert, ok: Boolean(rule.expr && rule.for && rule.labels?.severity && rule.annotations?.summary) }).toEqual({
        alert: rule.alert,
        ok: true,
      });
      expect(rule.for).toMatch(/^\d+[smh]$/);
    }
    const { problems } = await promqlProblems(rules.map((r) => r.expr));
    expect(problems).toEqual([]);
  });

  it('cover error rates, latency, queue age, the outbox, webhook retries, readiness and memory', async () => {
    const byAlert = new Map(rules.map((r) => [r.alert, r.expr]));
    const covering = async (metric: string) => {
      const names: string[] = [];
      for (const rule of rules) if ((await promqlProblems([rule.expr])).metrics.has(metric)) names.push(rule.alert!);
      return names;
    };
    expect(await covering('gateway_operations_total')).not.toEqual([]);
    expect(await covering('rest_requests_total')).not.toEqual([]);
    expect(await covering('gateway_subgraph_fetches_total')).not.toEqual([]);
    expect(await covering('gateway_operation_duration_seconds_bucket')).not.toEqual([]);
    expect(await covering('rest_request_duration_seconds_bucket')).not.toEqual([]);
    expect(await covering('jobs_oldest_queued_age_seconds')).not.toEqual([]);
    expect(await covering('outbox_oldest_unrelayed_age_seconds')).not.toEqual([]);
    expect(await covering('webhook_deliveries_queued')).not.toEqual([]);
    expect(await covering('service_ready')).toEqual(expect.arrayContaining(['ServiceNotReady', 'ServiceMetricsAbsent']));
    expect(await covering('process_resident_memory_bytes')).toEqual(['MemoryNearLimit']);
    expect(byAlert.size).toBe(rules.length);
  });
});
