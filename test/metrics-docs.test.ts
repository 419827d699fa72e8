import { readFileSync } from 'node:fs';
import { METRICS_DOC, metricsDocument } from '../cli/metrics-docs.js';
import { METRIC_GROUPS } from '../platform/metrics/catalog.js';

describe('the metrics page', () => {
  it('is what platform/metrics/ generates (npm run docs:metrics)', async () => {
    expect(readFileSync(METRICS_DOC, 'utf8')).toBe(await metricsDocument());
  });

  it('names each metric once', () => {
    const names = METRIC_GROUPS.flatMap((group) => group.metrics.map((m) => m.name));
    expect(names.length).toBeGreaterThan(20);
    expect(new Set(names).size).toBe(names.length);
  });
});
