import { gauge, makeGauge, type Metric } from './metric.js';

/** The screening index a process holds in memory (verification and risk each hold one per process). */
export const SCREENING_METRICS = {
  entries: gauge('screening_index_entries', 'List entries in the screening index, by list (source)', ['list']),
  lists: gauge('screening_index_lists', 'Lists (sources) loaded into the screening index', []),
  names: gauge('screening_index_names', 'Names indexed (primary names and aliases)', []),
  bytes: gauge(
    'screening_index_packed_bytes',
    "Bytes of the index's packed arrays (blocking keys, token lists, weights); the entries and names as JavaScript objects are not counted",
    [],
  ),
  built: gauge('screening_index_built_timestamp_seconds', 'When the index in use was built (Unix time; 0 before the first build)', []),
  buildDuration: gauge('screening_index_build_duration_seconds', 'How long the last build of the index took', []),
};

export interface ScreeningIndexStats {
  /** Entries per list (source) loaded. */
  entries: Record<string, number>;
  names: number;
  bytes: number;
  /** Unix time (seconds) of the build in use; 0 before the first. */
  builtAt: number;
  buildSeconds: number;
}

/** The gauges of one screening engine, read from its `stats()` at scrape time. */
export function screeningIndexMetrics(stats: () => ScreeningIndexStats): Metric[] {
  return [
    makeGauge(SCREENING_METRICS.entries, (g) => {
      g.reset();
      for (const [list, entries] of Object.entries(stats().entries)) g.set({ list }, entries);
    }),
    makeGauge(SCREENING_METRICS.lists, (g) => g.set(Object.keys(stats().entries).length)),
    makeGauge(SCREENING_METRICS.names, (g) => g.set(stats().names)),
    makeGauge(SCREENING_METRICS.bytes, (g) => g.set(stats().bytes)),
    makeGauge(SCREENING_METRICS.built, (g) => g.set(stats().builtAt)),
    makeGauge(SCREENING_METRICS.buildDuration, (g) => g.set(stats().buildSeconds)),
  ];
}
