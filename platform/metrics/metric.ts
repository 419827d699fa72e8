import { Counter, Gauge, Histogram, type Metric } from 'prom-client';

export type { Metric };

/** One metric as `docs/metrics.md` documents it and prom-client builds it: the definition is the single source of both. */
export interface MetricDefinition<L extends string = string> {
  name: string;
  type: 'counter' | 'gauge' | 'histogram';
  /** The meaning (prom-client's HELP line; the docs' "meaning" column). */
  help: string;
  labelNames: readonly L[];
  /** Histograms: upper bounds in seconds. */
  buckets?: readonly number[];
}

/** Request and task durations, 5 ms to 30 s. */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30] as const;

/** Definitions, typed for their labels. */
export const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]): MetricDefinition<L> => ({
  name,
  type: 'counter',
  help,
  labelNames,
});
export const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[]): MetricDefinition<L> => ({
  name,
  type: 'gauge',
  help,
  labelNames,
});
export const histogram = <L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[],
  buckets: readonly number[] = DURATION_BUCKETS,
): MetricDefinition<L> => ({ name, type: 'histogram', help, labelNames, buckets });

/**
 * prom-client metrics made from their definitions and registered nowhere: the owner (a gateway, a
 * worker pool, a screening engine…) keeps them, and each service's registry that reports them
 * registers them (`mountObservability`'s `metrics`). A `collect` reads a gauge's value at scrape time.
 */
export const makeCounter = <L extends string>(def: MetricDefinition<L>) =>
  new Counter<L>({ name: def.name, help: def.help, labelNames: def.labelNames, registers: [] });
export const makeHistogram = <L extends string>(def: MetricDefinition<L>) =>
  new Histogram<L>({
    name: def.name,
    help: def.help,
    labelNames: def.labelNames,
    buckets: [...(def.buckets ?? DURATION_BUCKETS)],
    registers: [],
  });
export const makeGauge = <L extends string>(def: MetricDefinition<L>, collect?: (gauge: Gauge<L>) => void | Promise<void>) =>
  new Gauge<L>({
    name: def.name,
    help: def.help,
    labelNames: def.labelNames,
    registers: [],
    ...(collect && {
      collect(this: Gauge<L>) {
        return collect(this);
      },
    }),
  });

/** Seconds since `started` (a `performance.now()` reading). */
export const secondsSince = (started: number): number => (performance.now() - started) / 1000;
