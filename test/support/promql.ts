import { documentedSeriesNames, METRIC_GROUPS, seriesNames, defaultMetricDefinitions } from '../../platform/metrics/catalog.js';
import { importNative } from './native-import.js';

/** Labels Prometheus and its scrape configs add to every series (beside the platform's `service`). */
const TARGET_LABELS = ['service', 'instance', 'job', 'namespace', 'pod', 'container', 'endpoint'];

/** Each series name some service reports → the labels it carries. */
function labelsBySeries(): Map<string, Set<string>> {
  const map = new Map<string, Set<string>>();
  for (const def of [...defaultMetricDefinitions(), ...METRIC_GROUPS.flatMap((g) => g.metrics)]) {
    for (const series of seriesNames(def)) {
      map.set(series, new Set([...def.labelNames, ...TARGET_LABELS, ...(series.endsWith('_bucket') ? ['le'] : [])]));
    }
  }
  return map;
}

export interface PromqlProblem {
  expr: string;
  problem: string;
}

/** Grafana's variables as values PromQL reads: `$__rate_interval` → a duration, `$service` → a name. */
export const withoutGrafanaVariables = (expr: string) => expr.replace(/\$__\w+/g, '5m').replace(/\$\{?(\w+)\}?/g, 'x');

/**
 * Checks PromQL with Prometheus's own grammar (@prometheus-io/lezer-promql, the parser of
 * Prometheus's web UI): the expression parses without an error node, every metric it selects is a
 * documented series (docs/metrics.md, from platform/metrics/), every label it matches on is one of
 * that metric's, and every label it groups by is carried by one of the metrics it selects.
 */
export async function promqlProblems(exprs: readonly string[]): Promise<{ problems: PromqlProblem[]; metrics: Set<string> }> {
  const { parser } = await importNative<typeof import('@prometheus-io/lezer-promql')>('@prometheus-io/lezer-promql');
  const documented = documentedSeriesNames();
  const labels = labelsBySeries();
  const problems: PromqlProblem[] = [];
  const metrics = new Set<string>();
  for (const expr of exprs) {
    const tree = parser.parse(expr);
    const selected: string[] = [];
    const grouped: string[] = [];
    tree.iterate({
      enter: (node) => {
        if (node.type.isError)
          problems.push({ expr, problem: `does not parse at ${node.from}: …${expr.slice(node.from, node.from + 20)}` });
        if (node.name === 'VectorSelector') {
          const name = node.node.getChild('Identifier');
          const metric = name ? expr.slice(name.from, name.to) : '';
          if (!name) problems.push({ expr, problem: 'selects series without a metric name' });
          else if (!documented.has(metric)) problems.push({ expr, problem: `names ${metric}, which no service reports` });
          else {
            selected.push(metric);
            metrics.add(metric);
            for (const matcher of node.node.getChild('LabelMatchers')?.getChildren('UnquotedLabelMatcher') ?? []) {
              const label = matcher.getChild('LabelName');
              const labelName = label ? expr.slice(label.from, label.to) : '';
              if (!labels.get(metric)?.has(labelName))
                problems.push({ expr, problem: `matches on ${labelName}, which ${metric} does not carry` });
            }
          }
        }
        if (node.name === 'GroupingLabels') {
          for (const label of node.node.getChildren('LabelName')) grouped.push(expr.slice(label.from, label.to));
        }
      },
    });
    for (const label of grouped) {
      if (!selected.some((metric) => labels.get(metric)?.has(label))) {
        problems.push({ expr, problem: `groups by ${label}, which none of ${selected.join(', ') || 'its metrics'} carries` });
      }
    }
  }
  return { problems, metrics };
}
