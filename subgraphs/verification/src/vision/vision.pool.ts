import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { AppError } from '../../../../platform/errors.js';
import type { Logger } from '../../../../platform/logger.js';
import type { AddressReading } from '../address/address-reader.js';
import type { DocumentText } from '../document/document-text.js';
import type { VisionAnalysis, VisionOperation, VisionOperations, VisionRequest, VisionResponse } from './vision.types.js';
import { WorkerPoolMetrics, type VisionTask } from '../../../../platform/metrics/vision.js';

/** The built worker (vision.worker.ts): it runs JavaScript, so from `dist/`, found from the working directory as the CLIs are. */
export const VISION_WORKER_PATH = path.resolve(process.env.VISION_WORKER_PATH ?? 'dist/subgraphs/verification/src/vision/vision.worker.js');

export interface VisionPoolOptions {
  /** Worker processes, each with its own copy of the models it was asked to use (face models ≈ 300 MB). */
  size: number;
  /** A request taking longer than this fails (the worker is replaced). */
  timeoutMs: number;
  /**
   * The workers stop after this long without a request (their memory goes back; the next one starts
   * them again), and a worker's OCR engines after this long without a read; never when absent.
   */
  idleMs?: number;
  logger: Logger;
}

interface Pending {
  resolve(result: VisionOperations[VisionOperation]['result']): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
  /** What the request is called in its error (`TASKS`). */
  name: string;
}

interface Slot {
  child: ChildProcess;
  pending: Map<number, Pending>;
}

/** What a request is called in logs and errors, and in the metrics' `operation` label. */
const TASKS: Record<VisionOperation, { name: string; task: VisionTask }> = {
  analyze: { name: 'Face analysis', task: 'analyze' },
  readDocumentText: { name: 'Document reading', task: 'read_document_text' },
  readAddress: { name: 'Address document reading', task: 'read_address' },
};

/**
 * Face analysis and text reading (documents, their machine-readable zones, proofs of address) out
 * of the API process: a few worker processes, started on first use (a process that never judges a
 * face or reads a document never loads the models, and a worker loads only the models of what it
 * is asked) and stopped when idle, each taking requests in turn. The models' memory and CPU are
 * theirs, not the API's. A worker that dies or stops answering is replaced; its requests fail with
 * 503, never hang.
 */
export class VisionPool {
  private slots: Slot[] = [];
  private next = 0;
  private ids = 0;
  private closed = false;
  private idleTimer: NodeJS.Timeout | undefined;
  /** Workers busy and idle, requests waiting, each request's time by operation (docs/metrics.md). */
  readonly metrics = new WorkerPoolMetrics(() => ({ max: this.opts.size, pending: this.slots.map((slot) => slot.pending.size) }));

  constructor(private readonly opts: VisionPoolOptions) {}

  /** The image's faces and facts; `expression` for a liveness photo (its mouth and eyes read three ways, averaged). */
  analyze(jpeg: Buffer, { expression = false }: { expression?: boolean } = {}): Promise<VisionAnalysis> {
    return this.run({ op: 'analyze', image: jpeg, expression });
  }

  /** A document image's lines, their OCR confidence and its machine-readable zone (`today`: the zone's dates are read around it). */
  readDocumentText(jpeg: Buffer, today: Date): Promise<DocumentText> {
    return this.run({ op: 'readDocumentText', image: jpeg, today });
  }

  /** A proof of address (an image's bytes) read with the English and French models. */
  readAddress(image: Buffer): Promise<AddressReading> {
    return this.run({ op: 'readAddress', image });
  }

  private run<Op extends VisionOperation>(request: { op: Op } & VisionOperations[Op]['request']): Promise<VisionOperations[Op]['result']> {
    const { name, task } = TASKS[request.op];
    if (this.closed) return Promise.reject(new AppError('UNAVAILABLE', `${name} is shutting down`));
    clearTimeout(this.idleTimer);
    const slot = this.slotFor();
    const id = ++this.ids;
    const done = this.metrics.task(task);
    const result = new Promise<VisionOperations[Op]['result']>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.opts.logger.error({ timeoutMs: this.opts.timeoutMs, operation: task }, `${name} timed out; replacing its worker`);
        this.replace(slot, 'timed out');
      }, this.opts.timeoutMs);
      slot.pending.set(id, { resolve: resolve as Pending['resolve'], reject, timer, name });
      // an answer awaited keeps this process alive; an idle worker does not
      slot.child.channel?.ref();
      // serialised once for the channel: the buffer itself, not a copy of it
      slot.child.send({ id, ...request } as VisionRequest);
    });
    result.then(
      () => done('ok'),
      (error: unknown) => done(error instanceof AppError ? 'unavailable' : 'error'),
    );
    return result;
  }

  /** The worker processes' ids (none when idle): for metrics and tests. */
  workerPids(): number[] {
    return this.slots.map((slot) => slot.child.pid).filter((pid): pid is number => pid !== undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    await this.stopAll('is shutting down');
  }

  private slotFor(): Slot {
    if (this.slots.length < this.opts.size) this.slots.push(this.start());
    const slot = this.slots[this.next % this.slots.length];
    this.next += 1;
    return slot;
  }

  private start(): Slot {
    // serialization 'advanced': images travel as bytes, not JSON; no inspector or loader flags of this process
    const child = fork(VISION_WORKER_PATH, this.opts.idleMs === undefined ? [] : [String(this.opts.idleMs)], {
      serialization: 'advanced',
      execArgv: [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
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
      this.opts.logger.error({ err: error }, 'vision worker failed; replacing it');
      this.replace(slot, 'failed');
    });
    child.on('exit', (code, signal) => {
      if (!this.slots.includes(slot)) return; // stopped on purpose
      this.opts.logger.error({ code, signal }, 'vision worker exited; replacing it');
      this.replace(slot, 'failed');
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

  /** `why` the requests still waiting fail (none when idle). */
  private async stopAll(why: string | null): Promise<void> {
    const slots = this.slots.splice(0);
    for (const slot of slots) if (why) this.fail(slot, why);
    await Promise.all(slots.map((slot) => stop(slot.child)));
    if (slots.length && !why) this.opts.logger.debug({ workers: slots.length }, 'vision idle: workers stopped');
  }

  private replace(slot: Slot, why: string): void {
    this.fail(slot, why);
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    void stop(slot.child);
  }

  /** The slot's requests fail with 503: "Face analysis failed", "Document reading timed out"… */
  private fail(slot: Slot, why: string): void {
    for (const pending of slot.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(new AppError('UNAVAILABLE', `${pending.name} ${why}`));
    }
    slot.pending.clear();
  }
}

/** Ends a worker process and waits for it to be gone. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    // an idle worker is unref'd: without this a process awaiting close() (a shutdown, a bench) ends before the exit arrives
    child.ref();
    child.kill('SIGKILL');
  });
}
