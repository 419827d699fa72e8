import { createLogger } from './logger.js';
import { PeriodicSweep, together } from './sweep.js';

const logger = createLogger('sweep-test', 'silent');

describe('PeriodicSweep', () => {
  it('sweeps at start, and once more after a sweep during which it was woken (that sweep may have missed the news)', async () => {
    let release: () => void = () => undefined;
    const runs: number[] = [];
    const sweep = new PeriodicSweep({
      sweepMs: 60_000,
      logger,
      what: 'test',
      sweep: async () => {
        runs.push(runs.length + 1);
        if (runs.length === 1) await new Promise<void>((r) => (release = r));
        return 0;
      },
    });
    sweep.start();
    expect(runs).toEqual([1]);
    // woken twice during the first sweep: one more sweep after it, not two
    sweep.wake();
    sweep.wake();
    release();
    await new Promise((r) => setTimeout(r, 20));
    expect(runs).toEqual([1, 2]);
    // woken while idle: at once
    sweep.wake();
    await new Promise((r) => setTimeout(r, 20));
    expect(runs).toEqual([1, 2, 3]);
    await sweep.stop();
    sweep.wake();
    expect(runs).toEqual([1, 2, 3]);
  });

  it('starts workers together in order and stops them in reverse order', async () => {
    const seen: string[] = [];
    const worker = (name: string) => ({ start: () => void seen.push(`start ${name}`), stop: async () => void seen.push(`stop ${name}`) });
    const both = together(worker('a'), worker('b'));
    both.start();
    await both.stop();
    expect(seen).toEqual(['start a', 'start b', 'stop b', 'stop a']);
  });
});
