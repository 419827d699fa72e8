import { fork, type ChildProcess } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

/**
 * The machine's floor for an event loop's delay: a Node process that does nothing but sample its
 * own loop, as prom-client samples the API's (every 10 ms, the 10 ms taken off), beside the load.
 * On a shared 2-core machine the operating system alone delays an idle process's timers while
 * PostgreSQL, the load generators and the platform take the cores; no process beside them reads
 * better than this.
 */
export interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
}

const RESOLUTION_MS = 10;

export class IdleLoop {
  private constructor(private readonly child: ChildProcess) {}

  static async start(): Promise<IdleLoop> {
    const child = fork(fileURLToPath(import.meta.url), ['--idle-loop'], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    await new Promise<void>((resolve) => child.once('message', () => resolve()));
    return new IdleLoop(child);
  }

  /** Starts the histogram again. */
  reset(): Promise<void> {
    return this.ask<void>('reset');
  }

  /** The delay's percentiles since the last reset, ms. */
  read(): Promise<LoopDelay> {
    return this.ask<LoopDelay>('read');
  }

  stop(): void {
    this.child.kill();
  }

  private ask<T>(what: string): Promise<T> {
    return new Promise((resolve) => {
      this.child.once('message', (answer) => resolve(answer as T));
      this.child.send(what);
    });
  }
}

if (process.argv.includes('--idle-loop')) {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  const ms = (ns: number) => Math.max(0, ns / 1e6 - RESOLUTION_MS);
  process.on('message', (what) => {
    if (what === 'reset') {
      histogram.reset();
      process.send!('ok');
    } else
      process.send!({ p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) } satisfies LoopDelay);
  });
  process.on('disconnect', () => process.exit(0));
  process.send!('ready');
}
