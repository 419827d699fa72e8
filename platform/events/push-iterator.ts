/**
 * An async iterator fed by callbacks (an upstream subscription's events), written by hand because
 * an `async function*` cannot be stopped while a `next()` is pending: its `return()` would wait for
 * the next event, and on a quiet topic the upstream subscription would never be closed.
 * Values may be promises; they are delivered in push order.
 */
export class PushIterator<T> implements AsyncIterableIterator<T> {
  private readonly queue: Array<Promise<T>> = [];
  private readonly waiting: Array<(result: IteratorResult<T>) => void> = [];
  private ended = false;
  private returned = false;

  /** `onReturn` runs once, when the consumer stops early (e.g. the client unsubscribed). */
  constructor(private readonly onReturn: () => void) {}

  push(value: T | Promise<T>): void {
    if (this.ended) return;
    const next = Promise.resolve(value);
    const waiter = this.waiting.shift();
    if (waiter) void next.then((v) => waiter({ value: v, done: false }));
    else this.queue.push(next);
  }

  /** No more values: pending consumers finish once the queue has drained. */
  end(): void {
    this.ended = true;
    if (this.queue.length === 0) for (const waiter of this.waiting.splice(0)) waiter({ value: undefined, done: true });
  }

  async next(): Promise<IteratorResult<T>> {
    const head = this.queue.shift();
    if (head) return { value: await head, done: false };
    if (this.ended) return { value: undefined, done: true };
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  async return(): Promise<IteratorResult<T>> {
    this.ended = true;
    this.queue.length = 0;
    for (const waiter of this.waiting.splice(0)) waiter({ value: undefined, done: true });
    if (!this.returned) {
      this.returned = true;
      this.onReturn();
    }
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
