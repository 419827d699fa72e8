import type { Logger } from './logger.js';

/**
 * Runs `sweep` on a timer in every process (and once at start): work whose state is a table (rows
 * come due by time), so a restart loses nothing. One sweep at a time per process; a tick during a
 * sweep is skipped (the next one comes soon).
 */
export class PeriodicSweep {
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;
  private again = false;

  constructor(private readonly opts: { sweepMs: number; logger: Logger; what: string; sweep: () => Promise<number> }) {}

  start(): void {
    this.timer = setInterval(() => this.sweepSoon(), this.opts.sweepMs);
    this.timer.unref();
    this.sweepSoon();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.sweeping;
  }

  /**
   * Sweeps now, for work that was just made due (an event said so); during a sweep, once more right
   * after it (its queries may have run before the work was committed).
   */
  wake(): void {
    if (this.sweeping) this.again = true;
    else this.sweepSoon();
  }

  private sweepSoon(): void {
    if (this.sweeping || !this.timer) return;
    this.again = false;
    this.sweeping = this.opts
      .sweep()
      .then((done) => {
        if (done) this.opts.logger.info({ done }, `${this.opts.what}: swept`);
      })
      .catch((err) => this.opts.logger.error({ err }, `${this.opts.what}: sweep failed`))
      .finally(() => {
        this.sweeping = null;
        if (this.again) this.sweepSoon();
      });
  }
}

export interface BackgroundWorker {
  start(): void;
  stop(): Promise<void>;
}

/** Background workers as one: started in order, stopped in reverse order. */
export function together(...workers: BackgroundWorker[]): BackgroundWorker {
  return {
    start: () => workers.forEach((w) => w.start()),
    stop: async () => {
      for (const w of [...workers].reverse()) await w.stop();
    },
  };
}
