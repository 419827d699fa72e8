import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createWorker, PSM, type Worker } from 'tesseract.js';

/**
 * A language's model as shipped by @tesseract.js-data/<lang> (LSTM, integer "best"; English and
 * French are dependencies): read from disk, never downloaded. Resolved from the project (the
 * working directory), as the CLIs find their files.
 */
const modelDir = (lang: string) =>
  path.join(path.dirname(createRequire(path.resolve('package.json')).resolve(`@tesseract.js-data/${lang}/package.json`)), '4.0.0_best_int');

/**
 * Tesseract reads every model of a worker from one folder, and each language ships in a package of
 * its own: several languages get a folder of links to their packages' files.
 */
function langPath(languages: readonly string[], tempDir: string): { dir: string; cleanup: () => void } {
  if (languages.length === 1) return { dir: modelDir(languages[0]), cleanup: () => undefined };
  const dir = mkdtempSync(path.join(tempDir, 'tessdata-'));
  for (const lang of languages) symlinkSync(path.join(modelDir(lang), `${lang}.traineddata.gz`), path.join(dir, `${lang}.traineddata.gz`));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface ReadLine {
  text: string;
  /** Tesseract's confidence, 0–100. */
  confidence: number;
  box: Box;
  /** Each word read, where it was read (a gap between two words can be a gap between two columns). */
  words: Array<{ text: string; confidence: number; box: Box }>;
  /** Each character read, where it was read. */
  symbols: Array<{ text: string; confidence: number; box: Box }>;
}

export interface ReadText {
  text: string;
  /** Lines top to bottom. */
  lines: ReadLine[];
  confidence: number;
}

/**
 * OCR with tesseract.js (its own worker thread, so the event loop stays free): started on first
 * use, one recognition at a time per reader. `languages`: the models read together (`['eng', 'fra']`
 * reads English and French text, accents included); English alone by default.
 */
export class TextReader {
  private worker: Promise<Worker> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private reading = 0;
  private idleTimer: NodeJS.Timeout | undefined;

  /**
   * `idleMs`: the OCR worker stops after this long without a read (its memory goes back; the next
   * read starts it again), never by default. `tempDir`: where several languages' folder of links is
   * made while the worker starts (the OS's by default).
   */
  constructor(
    private readonly languages: readonly string[] = ['eng'],
    private readonly opts: { idleMs?: number; tempDir?: string } = {},
  ) {}

  /** Whether the OCR worker is running (it is started by a read and stopped when idle). */
  get running(): boolean {
    return this.worker !== null;
  }

  private async start(): Promise<Worker> {
    const models = langPath(this.languages, this.opts.tempDir ?? tmpdir());
    try {
      return await createWorker([...this.languages], 1, { langPath: models.dir, gzip: true, cacheMethod: 'none' });
    } finally {
      // the worker has read its models once started: the folder of links goes now, so a process
      // that ends without close() leaves nothing behind in the temporary directory
      models.cleanup();
    }
  }

  /** `charset`: only these characters (a machine-readable zone: `A-Z`, `0-9` and `<`); `line`: the image is one line of text. */
  read(image: Buffer, opts: { charset?: string; line?: boolean } = {}): Promise<ReadText> {
    clearTimeout(this.idleTimer);
    this.reading += 1;
    const run = this.queue.then(async () => {
      const worker = await (this.worker ??= this.start());
      await worker.setParameters({
        tessedit_char_whitelist: opts.charset ?? '',
        tessedit_pageseg_mode: opts.line ? PSM.SINGLE_LINE : PSM.AUTO,
        // photos carry no resolution; without one Tesseract guesses and says so on stderr
        user_defined_dpi: '300',
      });
      const { data } = await worker.recognize(image, {}, { blocks: true, text: true });
      const lines = (data.blocks ?? []).flatMap((block) =>
        block.paragraphs.flatMap((paragraph) =>
          paragraph.lines.map((line) => ({
            text: line.text.trim(),
            confidence: line.confidence,
            box: line.bbox,
            words: line.words.map((w) => ({ text: w.text, confidence: w.confidence, box: w.bbox })),
            symbols: line.words.flatMap((word) => word.symbols.map((s) => ({ text: s.text, confidence: s.confidence, box: s.bbox }))),
          })),
        ),
      );
      return { text: data.text, lines: lines.filter((line) => line.text), confidence: data.confidence };
    });
    this.queue = run
      .catch(() => undefined)
      .then(() => {
        this.reading -= 1;
        if (this.reading === 0 && this.opts.idleMs !== undefined)
          this.idleTimer = setTimeout(() => void this.stopIdle(), this.opts.idleMs).unref();
      });
    return run;
  }

  private async stopIdle(): Promise<void> {
    if (this.reading > 0 || !this.worker) return;
    const worker = this.worker;
    this.worker = null;
    await (await worker).terminate();
  }

  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    this.worker = null;
    if (worker) await (await worker).terminate();
  }
}
