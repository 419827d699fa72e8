import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { AppError } from '../../../../platform/errors.js';
import type { Logger } from '../../../../platform/logger.js';
import type { VisionAnalysis, VisionRequest, VisionResponse } from './vision.types.js';

/** The built worker (vision.worker.ts): workers run JavaScript, so from `dist/`, found from the working directory as the CLIs are. */
export const VISION_WORKER_PATH = path.resolve(process.env.VISION_WORKER_PATH ?? 'dist/subgraphs/verification/src/vision/vision.worker.js');

export interface VisionPoolOptions {
  /** Worker threads, each with its own copy of the models (≈ 150 MB each). */
  size: number;
  /** An analysis taking longer than this fails (the worker is replaced). */
  timeoutMs: number;
  logger: Logger;
}

interface Pending {
  resolve(result: VisionAnalysis): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
}

/**
 * Face analysis off the request thread: a few worker threads, started on first use (a process
 * that never judges a face never loads the models), each taking requests in turn. A worker that
 * dies or stops answering is replaced; its requests fail with 503, never hang.
 */
export class VisionPool {
  private slots: Slot[] = [];
  private next = 0;
  private ids = 0;
  private closed = false;

  constructor(private readonly opts: VisionPoolOptions) {}

  /** The image's faces and facts; `expression` for a liveness photo (its mouth and eyes read three ways, averaged). */
  analyze(jpeg: Buffer, { expression = false }: { expression?: boolean } = {}): Promise<VisionAnalysis> {
    if (this.closed) return Promise.reject(new AppError('UNAVAILABLE', 'Face analysis is shutting down'));
    const slot = this.slotFor();
    const id = ++this.ids;
    return new Promise<VisionAnalysis>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.opts.logger.error({ timeoutMs: this.opts.timeoutMs }, 'face analysis timed out; replacing its worker');
        this.replace(slot, new AppError('UNAVAILABLE', 'Face analysis timed out'));
      }, this.opts.timeoutMs);
      slot.pending.set(id, { resolve, reject, timer });
      const image = new Uint8Array(jpeg);
      slot.worker.postMessage({ id, op: 'analyze', image, expression } satisfies VisionRequest, [image.buffer]);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const slots = this.slots.splice(0);
    for (const slot of slots) this.fail(slot, new AppError('UNAVAILABLE', 'Face analysis is shutting down'));
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  private slotFor(): Slot {
    if (this.slots.length < this.opts.size) this.slots.push(this.start());
    const slot = this.slots[this.next % this.slots.length];
    this.next += 1;
    return slot;
  }

  private start(): Slot {
    const slot: Slot = { worker: new Worker(VISION_WORKER_PATH), pending: new Map() };
    slot.worker.on('message', (response: VisionResponse) => {
      const pending = slot.pending.get(response.id);
      if (!pending) return;
      slot.pending.delete(response.id);
      clearTimeout(pending.timer);
      if (response.ok) pending.resolve(response.result);
      else pending.reject(new Error(response.error));
    });
    slot.worker.on('error', (error) => {
      this.opts.logger.error({ err: error }, 'face analysis worker failed; replacing it');
      this.replace(slot, new AppError('UNAVAILABLE', 'Face analysis failed'));
    });
    slot.worker.unref();
    return slot;
  }

  private replace(slot: Slot, error: Error): void {
    this.fail(slot, error);
    void slot.worker.terminate();
    const index = this.slots.indexOf(slot);
    if (index >= 0 && !this.closed) this.slots[index] = this.start();
  }

  private fail(slot: Slot, error: Error): void {
    for (const pending of slot.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
    slot.pending.clear();
  }
}
