/**
 * Things a service loads once and keeps (face models, OCR engines: seconds of CPU to load each),
 * by key. A stack makes its own and closes it when it stops; a process that runs several stacks one
 * after another (a test worker, a benchmark) passes the same one to each, and they share what it
 * holds.
 */
export class LoadedResources {
  private readonly held = new Map<string, { value: unknown; close(): Promise<void> }>();

  /** The resource under `key`, made with `load` the first time; `close` ends it with the holder. */
  get<T>(key: string, load: () => T, close: (value: T) => Promise<void>): T {
    let entry = this.held.get(key);
    if (!entry) {
      const value = load();
      entry = { value, close: () => close(value) };
      this.held.set(key, entry);
    }
    return entry.value as T;
  }

  async close(): Promise<void> {
    const entries = [...this.held.values()];
    this.held.clear();
    await Promise.all(entries.map((entry) => entry.close()));
  }
}
