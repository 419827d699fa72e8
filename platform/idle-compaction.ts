import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Logger } from './logger.js';

/** Below this share of its time busy, a process's event loop counts as idle. */
const IDLE_UTILIZATION = 0.05;
/** How often the loop's utilisation is sampled. */
const SAMPLE_MS = 5_000;

type Collect = (options: { type: 'major'; execution: 'async' }) => Promise<void>;

/**
 * V8's `gc()`, without `--expose-gc` on the command line (a process may be started by any
 * launcher): the flag is process-wide and left on (worker threads of the threaded layout ask too);
 * it only gives new contexts a `gc` function.
 */
function collector(): Collect | null {
  const exposed = (globalThis as { gc?: Collect }).gc;
  if (exposed) return exposed;
  v8.setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as Collect;
  } catch {
    return null;
  }
}

/** The heap grown by this much since the last compaction is worth another. */
const GROWTH_BYTES = 32 * 1024 * 1024;

/** What the sampler remembers between samples. */
export interface CompactionState {
  /** Consecutive idle samples. */
  idleSamples: number;
  /** The heap's committed size after the last compaction (0 before the first). */
  compactedBytes: number;
}

/**
 * One sample's verdict: compact once the loop has been idle for `idleSamplesNeeded` samples in a
 * row and the heap has grown since the last compaction (so an idle process compacts once, not
 * every spell).
 */
export function shouldCompact(
  state: CompactionState,
  sample: { utilization: number; heapBytes: number },
  idleSamplesNeeded: number,
): { state: CompactionState; compact: boolean } {
  if (sample.utilization >= IDLE_UTILIZATION) return { state: { ...state, idleSamples: 0 }, compact: false };
  const idleSamples = state.idleSamples + 1;
  return {
    state: { ...state, idleSamples },
    compact: idleSamples >= idleSamplesNeeded && sample.heapBytes > state.compactedBytes + GROWTH_BYTES,
  };
}

/**
 * A full, compacting collection once the process falls idle with a heap grown since the last one. V8's memory reducer
 * shrinks a heap only when nothing allocates, and the pollers (jobs, outbox relay, sweeps) always
 * allocate a little, so a process kept the heap its busiest minute grew to: measured, the API
 * process held 420 MB of heap for 220 MB live, and one collection took its RSS from 561 to 332 MB
 * (BENCHMARKS.md, issue 31). The collection is V8's incremental one (`execution: 'async'`): the
 * loop keeps answering while it marks.
 */
export function startIdleCompaction(opts: {
  /** The loop idle this long (after work) before the collection; 0 never collects. */
  idleSeconds: number;
  logger: Logger;
  sampleMs?: number;
  /** After each collection (tests). */
  onCompacted?: (heap: { before: number; after: number }) => void;
}): { stop(): void } {
  if (opts.idleSeconds <= 0) return { stop: () => undefined };
  const sampleMs = opts.sampleMs ?? SAMPLE_MS;
  const needed = Math.max(1, Math.round((opts.idleSeconds * 1000) / sampleMs));
  const collect = collector();
  if (!collect) {
    opts.logger.warn('idle heap compaction unavailable: V8 did not expose its collector');
    return { stop: () => undefined };
  }
  let state: CompactionState = { idleSamples: 0, compactedBytes: 0 };
  let last = performance.eventLoopUtilization();
  let collecting = false;
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const before = v8.getHeapStatistics().total_heap_size;
    const verdict = shouldCompact(
      state,
      { utilization: performance.eventLoopUtilization(now, last).utilization, heapBytes: before },
      needed,
    );
    last = now;
    state = verdict.state;
    if (!verdict.compact || collecting) return;
    collecting = true;
    collect({ type: 'major', execution: 'async' })
      .then(() => {
        const after = v8.getHeapStatistics().total_heap_size;
        state = { idleSamples: 0, compactedBytes: after };
        opts.logger.debug({ heapMb: { before: Math.round(before / 1e6), after: Math.round(after / 1e6) } }, 'idle: heap compacted');
        opts.onCompacted?.({ before, after });
      })
      .catch((err: unknown) => opts.logger.warn({ err }, 'idle heap compaction failed'))
      .finally(() => {
        collecting = false;
        // the collection's own work is not the process's
        last = performance.eventLoopUtilization();
      });
  }, sampleMs).unref();
  return { stop: () => clearInterval(timer) };
}
