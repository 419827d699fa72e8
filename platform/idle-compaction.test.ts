import { createLogger } from './logger.js';
import { shouldCompact, startIdleCompaction } from './idle-compaction.js';

const MB = 1024 * 1024;
const idle = { utilization: 0.01, heapBytes: 300 * MB };

describe('shouldCompact', () => {
  it('compacts after enough idle samples in a row; a busy one starts the count again', () => {
    let state = { idleSamples: 0, compactedBytes: 0 };
    const verdicts: boolean[] = [];
    for (const utilization of [0.01, 0.01, 0.3, 0.01, 0.01, 0.01]) {
      const next = shouldCompact(state, { ...idle, utilization }, 3);
      state = next.state;
      verdicts.push(next.compact);
    }
    expect(verdicts).toEqual([false, false, false, false, false, true]);
  });

  it('compacts again only once the heap has grown by 32 MB since the last compaction', () => {
    const after = { idleSamples: 5, compactedBytes: 280 * MB };
    expect(shouldCompact(after, { ...idle, heapBytes: 300 * MB }, 3).compact).toBe(false);
    expect(shouldCompact(after, { ...idle, heapBytes: 320 * MB }, 3).compact).toBe(true);
  });
});

describe('startIdleCompaction', () => {
  it('gives back the heap a busy moment grew to once the process is idle', async () => {
    const compacted = new Promise<{ before: number; after: number }>((resolve) => {
      const compaction = startIdleCompaction({
        idleSeconds: 0.2,
        sampleMs: 50,
        logger: createLogger('idle-compaction-test', 'silent'),
        onCompacted: (heap) => {
          compaction.stop();
          resolve(heap);
        },
      });
    });
    // a burst of work: ≈ 200 MB of short-lived objects, then nothing
    let kept: unknown[] = [];
    for (let i = 0; i < 2_000_000; i++) kept.push({ i, name: `entry ${i}`, tags: [i, i + 1] });
    kept = [];
    const heap = await compacted;
    expect(kept).toHaveLength(0);
    expect(heap.before - heap.after).toBeGreaterThan(100 * MB);
  });
});
