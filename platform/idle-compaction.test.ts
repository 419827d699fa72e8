import { execFile } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { shouldCompact } from './idle-compaction.js';

const execFileAsync = promisify(execFile);

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
    // in a process of its own: a jest worker may still run what an earlier test file left behind
    // (timers, pools), and is then never idle (it timed out so in a full run)
    const script = `
      const { startIdleCompaction } = await import(${JSON.stringify(pathToFileURL(path.resolve('dist/platform/idle-compaction.js')).href)});
      const { createLogger } = await import(${JSON.stringify(pathToFileURL(path.resolve('dist/platform/logger.js')).href)});
      const compaction = startIdleCompaction({
        idleSeconds: 0.2,
        sampleMs: 50,
        logger: createLogger('idle-compaction-test', 'silent'),
        onCompacted: (heap) => {
          compaction.stop();
          console.log(JSON.stringify(heap));
          process.exit(0);
        },
      });
      // the sampler's timer does not keep the process alive
      setInterval(() => undefined, 1000);
      // a burst of work: ≈ 200 MB of short-lived objects, then nothing
      let kept = [];
      for (let i = 0; i < 2_000_000; i++) kept.push({ i, name: 'entry ' + i, tags: [i, i + 1] });
      kept = [];`;
    const { stdout } = await execFileAsync(process.execPath, ['--input-type=module', '-e', script], { timeout: 50_000 });
    const heap = JSON.parse(stdout) as { before: number; after: number };
    expect(heap.before - heap.after).toBeGreaterThan(100 * MB);
  });
});
