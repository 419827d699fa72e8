import { createRequire } from 'node:module';
import path from 'node:path';
import { createWorker, type Worker } from 'tesseract.js';

/**
 * The English model shipped by @tesseract.js-data/eng (LSTM, integer "best"): read from disk, never
 * downloaded. Resolved from the project (the working directory), as the CLIs find their files.
 */
const LANG_PATH = path.join(
  path.dirname(createRequire(path.resolve('package.json')).resolve('@tesseract.js-data/eng/package.json')),
  '4.0.0_best_int',
);

export interface ReadText {
  text: string;
  /** Lines top to bottom, with Tesseract's confidence 0–100. */
  lines: Array<{ text: string; confidence: number }>;
  confidence: number;
}

/**
 * OCR with tesseract.js (its own worker thread, so the event loop stays free): started on first
 * use, one recognition at a time per reader.
 */
export class TextReader {
  private worker: Promise<Worker> | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  /** `charset`: only these characters (a machine-readable zone: `A-Z`, `0-9` and `<`). */
  read(image: Buffer, opts: { charset?: string } = {}): Promise<ReadText> {
    const run = this.queue.then(async () => {
      const worker = await (this.worker ??= createWorker('eng', 1, { langPath: LANG_PATH, gzip: true, cacheMethod: 'none' }));
      await worker.setParameters({ tessedit_char_whitelist: opts.charset ?? '' });
      const { data } = await worker.recognize(image, {}, { blocks: true, text: true });
      const lines = (data.blocks ?? []).flatMap((block) =>
        block.paragraphs.flatMap((paragraph) => paragraph.lines.map((line) => ({ text: line.text.trim(), confidence: line.confidence }))),
      );
      return { text: data.text, lines: lines.filter((line) => line.text), confidence: data.confidence };
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await (await worker).terminate();
  }
}
