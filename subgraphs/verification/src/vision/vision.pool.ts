import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { AppError } from '../../../../platform/errors.js';
import type { Logger } from '../../../../platform/logger.js';
import type { VisionAnalysis, VisionRequest, VisionResponse } from './vision.types.js';
import { WorkerPoolMetrics } from '../../../../platform/metrics/vision.js';

/** The built worker (vision.worker.ts): it runs JavaScript, so from `dist/`, found from the working directory as the CLIs are. */
export const VISION_WORKER_PATH = path.resolve(process.env.VISION_WORKER_PATH ?? 'dist/subgraphs/verification/src/vision/vision.worker.js');

export interface VisionPoolOptions {
  /** Worker processes, each with its own copy of the models (≈ 300 MB each). */
  size: number;
  /** An analysis taking longer than this fails (the worker is replaced). */
  timeoutMs: number;
  /** The workers stop after this long without an analysis (their memory goes back; the next one starts them again); never when absent. */
  idleMs?: number;
  logger: Logger;
}

interface Pending {
  resolve(result: VisionAnalysis): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

interface Slot {
  child: ChildProcess;
  pending: Map<number, Pending>;
}

/**
 * Face analysis out of the API process: a few worker processes, started on first use (a process
 * that never judges a face never loads the models) and stopped when idle, each taking requests in
 * turn. The models' memory is theirs, not the API's. A worker that dies or stops answering is
 * replaced; its requests fail with 503, never hang.
 */
export class VisionPool {
  private slots: Slot[] = [];
  private next = 0;
  private ids = 0;
  private closed = false;
  private idleTimer: NodeJS.Timeout | undefined;
  /** Workers busy and idle, analyses waiting, each analysis's time (docs/metrics.md). */
  readonly metrics = new WorkerPoolMetrics(() => ({ max: this.opts.size, pending: this.slots.map((slot) => slot.pending.size) }));

  constructor(private readonly opts: VisionPoolOptions) {}

  /** The image's faces and facts; `expression` for a liveness photo (its mouth and eyes read three ways, averaged). */
  analyze(jpeg: Buffer, { expression = false }: { expression?: boolean } = {}): Promise<VisionAnalysis> {
    if (this.closed) return Promise.reject(new AppError('UNAVAILABLE', 'Face analysis is shutting down'));
    clearTimeout(this.idleTimer);
    const slot = this.slotFor();
    const id = ++this.ids;
    const done = this.metrics.task();
    const analysis = new Promise<VisionAnalysis>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.opts.logger.error({ timeoutMs: this.opts.timeoutMs }, 'face analysis timed out; replacing its worker');
        this.replace(slot, new AppError('UNAVAILABLE', 'Face analysis timed out'));
      }, this.opts.timeoutMs);
      slot.pending.set(id, { resolve, reject, timer });
      // an answer awaited keeps this process alive; an idle worker does not
      slot.child.channel?.ref();
      // serialised once for the channel: the buffer itself, not a copy of it
      slot.child.send({ id, op: 'analyze', image: jpeg, expression } satisfies VisionRequest);
    });
    analysis.then(
      () => done('ok'),
      (error: unknown) => done(error instanceof AppError ? 'unavailable' : 'error'),
    );
    return analysis;
  }

  /** The worker processes' ids (none when idle): for metrics and tests. */
  workerPids(): number[] {
    return this.slots.map((slot) => slot.child.pid).filter((pid): pid is number => pid !== undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    await this.stopAll(new AppError('UNAVAILABLE', 'Face analysis is shutting down'));
  }

  private slotFor(): Slot {
    if (this.slots.length < this.opts.size) this.slots.push(this.start());
    const slot = this.slots[this.next % this.slots.length];
    this.next += 1;
    return slot;
  }

  private start(): Slot {
    // serialization 'advanced': images travel as bytes, not JSON; no inspector or loader flags of this process
    const child = fork(VISION_WORKER_PATH, [], { serialization: 'advanced', execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const slot: Slot = { child, pending: new Map() };
    child.on('message', (response: VisionResponse) => {
      const pending = slot.pending.get(response.id);
      if (!pending) return;
      slot.pending.delete(response.id);
      clearTimeout(pending.timer);
      if (response.ok) pending.resolve(response.result);
      else pending.reject(new Error(response.error));
      this.settled(slot);
    });
    child.on('error', (error) => {
      this.opts.logger.error({ err: error }, 'face analysis worker failed; replacing it');
      this.replace(slot, new AppError('UNAVAILABLE', 'Face analysis failed'));
    });
    child.on('exit', (code, signal) => {
      if (!this.slots.includes(slot)) return; // stopped on purpose
      this.opts.logger.error({ code, signal }, 'face analysis worker exited; replacing it');
      this.replace(slot, new AppError('UNAVAILABLE', 'Face analysis failed'));
    });
    child.unref();
    child.channel?.unref();
    return slot;
  }

  /** A request answered: an idle worker no longer holds this process open, and all idle start the countdown. */
  private settled(slot: Slot): void {
    if (slot.pending.size === 0) slot.child.channel?.unref();
    if (this.opts.idleMs !== undefined && this.slots.every((s) => s.pending.size === 0)) {
      clearTimeout(this.idleTimer);
      this.idleTimer = setTimeout(() => void this.stopAll(null), this.opts.idleMs).unref();
    }
  }

  private async stopAll(error: Error | null): Promise<void> {
    const slots = this.slots.splice(0);
    for (const slot of slots) if (error) this.fail(slot, error);
    await Promise.all(slots.map((slot) => stop(slot.child)));
    if (slots.length && !error) this.opts.logger.debug({ workers: slots.length }, 'face analysis idle: workers stopped');
  }

  private replace(slot: Slot, error: Error): void {
    this.fail(slot, error);
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    void stop(slot.child);
  }

  private fail(slot: Slot, error: Error): void {
    for (const pending of slot.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
    slot.pending.clear();
  }
}

/** Ends a worker process and waits for it to be gone. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
