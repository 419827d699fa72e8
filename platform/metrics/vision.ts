import { gauge, histogram, makeGauge, makeHistogram, secondsSince, type Metric } from './metric.js';

/** The vision worker processes of a verification process (face models and OCR; `VISION_WORKERS`, stopped after `VISION_IDLE_MS` idle). */
export const VISION_METRICS = {
  workers: gauge(
    'vision_workers',
    'Vision worker processes (face models, OCR) running, by state (busy: analysing or reading; idle: started, waiting)',
    ['state'],
  ),
  max: gauge('vision_workers_max', 'Worker processes the pool may run (VISION_WORKERS)', []),
  queued: gauge('vision_queued_tasks', 'Requests (analyses, readings) waiting behind another on their worker', []),
  duration: histogram(
    'vision_task_duration_seconds',
    "Vision worker requests, by operation (analyze: a face analysis; read_document_text: a document image's text and machine-readable zone; read_address: a proof of address) and outcome (ok, error; unavailable: the worker died, timed out or was stopped), and how long they took from the request",
    ['operation', 'outcome'],
  ),
};

export type VisionOutcome = 'ok' | 'error' | 'unavailable';
export const VISION_TASKS = ['analyze', 'read_document_text', 'read_address'] as const;
export type VisionTask = (typeof VISION_TASKS)[number];

export interface WorkerPoolStats {
  max: number;
  /** Requests in flight on each running worker. */
  pending: number[];
}

/** The pool's gauges (read from `stats()` at scrape time) and its task histogram. */
export class WorkerPoolMetrics {
  readonly duration = makeHistogram(VISION_METRICS.duration);
  readonly metrics: Metric[];

  constructor(stats: () => WorkerPoolStats) {
    for (const operation of VISION_TASKS) for (const outcome of ['ok', 'error', 'unavailable']) this.duration.zero({ operation, outcome });
    this.metrics = [
      makeGauge(VISION_METRICS.workers, (g) => {
        const { pending } = stats();
        const busy = pending.filter((n) => n > 0).length;
        g.set({ state: 'busy' }, busy);
        g.set({ state: 'idle' }, pending.length - busy);
      }),
      makeGauge(VISION_METRICS.max, (g) => g.set(stats().max)),
      makeGauge(VISION_METRICS.queued, (g) => g.set(stats().pending.reduce((sum, n) => sum + Math.max(0, n - 1), 0))),
      this.duration,
    ];
  }

  /** Starts timing one task: call the result with its outcome. */
  task(operation: VisionTask): (outcome: VisionOutcome) => void {
    const started = performance.now();
    return (outcome) => this.duration.observe({ operation, outcome }, secondsSince(started));
  }
}
