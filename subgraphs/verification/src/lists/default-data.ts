import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync } from 'node:zlib';
import type pg from 'pg';
import type { Logger } from '../../../../platform/logger.js';
import { currentVersions, importSnapshot, parseList, type ScreeningEngine } from '../../../../screening/index.js';
import { mergeFeeds, parseFeed } from '../ip/ip-feeds.js';
import { IpFeedStore } from '../ip/ip-feeds.store.js';

/**
 * The reference data shipped in the repository's `data/` folder (see data/README.md): the official
 * OFAC SDN and UN Security Council lists and the public IP feeds, brotli-compressed, described by
 * data/manifest.json. On a start where a list or feed has never been imported, it is imported as
 * version 1 in the background; screening answers 503 + Retry-After until the index holds it.
 */
export interface DataManifest {
  lists: Array<{ source: string; publishedOn: string; files: string[] }>;
  ipFeeds: Array<{ feed: string; files: string[] }>;
}

/** The `data/` folder: found from this module upwards (source tree, dist/ and the Docker image alike). */
export function defaultDataDir(): string | null {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'data', 'manifest.json'))) return path.join(dir, 'data');
    const up = path.dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

export function readManifest(dir: string): DataManifest {
  return JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as DataManifest;
}

/** A shipped file's content and its name without the compression suffix. */
export function readDataFile(dir: string, file: string): { name: string; content: Buffer } {
  const raw = readFileSync(path.join(dir, file));
  return file.endsWith('.br')
    ? { name: path.basename(file, '.br'), content: brotliDecompressSync(raw) }
    : { name: path.basename(file), content: raw };
}

export interface DefaultDataImport {
  /** true while shipped lists are being imported and loaded into this process's index (IP feeds may follow). */
  importing(): boolean;
  /** Settles when the import has finished (or failed: then logged, never thrown). */
  done: Promise<void>;
  /**
   * Shutdown: the list or feed being written is rolled back, the rest is left for the next start
   * (which imports whatever is still missing); settles when nothing is being written.
   */
  stop(): Promise<void>;
}

export interface DefaultDataOptions {
  pool: pg.Pool;
  engine: Pick<ScreeningEngine, 'reload' | 'versions'>;
  logger: Logger;
  dir?: string | null;
}

/** Imports in the background whatever shipped list or feed the database has never had. */
export function importDefaultData(opts: DefaultDataOptions): DefaultDataImport {
  let pending = true;
  const ready = () => {
    pending = false;
  };
  const shutdown = new AbortController();
  const done = run(opts, ready, shutdown.signal)
    .catch((err) => {
      if (shutdown.signal.aborted) opts.logger.info('shipped screening data: the import stops with the process; the next start resumes it');
      else opts.logger.error({ err }, 'could not import the shipped screening data; import lists with npm run lists:import');
    })
    .finally(ready);
  return {
    importing: () => pending,
    done,
    stop: () => {
      shutdown.abort();
      return done;
    },
  };
}

async function run(
  { pool, engine, logger, dir = defaultDataDir() }: DefaultDataOptions,
  listsReady: () => void,
  signal: AbortSignal,
): Promise<void> {
  if (!dir) {
    logger.warn('no data/ folder: the shipped screening lists and IP feeds are not imported');
    return;
  }
  const manifest = readManifest(dir);
  const started = performance.now();
  const versions = await currentVersions(pool);
  const lists = manifest.lists.filter((l) => !versions[l.source]);
  const store = new IpFeedStore(pool);
  const known = new Set((await store.list()).map((f) => f.feed));
  const feeds = manifest.ipFeeds.filter((f) => !known.has(f.feed));
  if (!lists.length && !feeds.length) return;
  logger.info({ lists: lists.map((l) => l.source), feeds: feeds.map((f) => f.feed) }, 'importing the shipped screening data (first start)');
  for (const list of lists) {
    signal.throwIfAborted();
    const [parsed] = parseList(
      list.files.map((f) => readDataFile(dir, f)),
      { source: list.source },
    );
    // a concurrent first start of another process imports the same content: that one is then unchanged
    const r = await importSnapshot(pool, parsed.source, parsed.entries, {
      format: parsed.format,
      importedBy: 'shipped data (first start)',
      publishedOn: list.publishedOn,
      signal,
    });
    logger.info({ source: r.source, version: r.version, total: r.total, publishedOn: list.publishedOn }, 'shipped list imported');
  }
  // screening waits for the lists only: this process's index holds them before it says ready
  if (lists.length) await engine.reload();
  listsReady();
  for (const feed of feeds) {
    signal.throwIfAborted();
    const parts = feed.files.map((f) => parseFeed(readDataFile(dir, f).content.toString('utf8'), { feed: feed.feed }));
    const r = await store.import(mergeFeeds(parts), feed.files.map((f) => path.basename(f, '.br')).join(', '), signal);
    logger.info({ feed: r.feed, entries: r.entries }, 'shipped IP feed imported');
  }
  logger.info({ ms: Math.round(performance.now() - started) }, 'shipped screening data imported');
}
