import { createHash, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { inTransaction } from '../../platform/db/transaction.js';
import { badInput, invalid } from '../../platform/errors.js';
import { isValidSource, LIST_KINDS, type ListEntry, type ListKind } from '../types.js';

/**
 * Versioned list snapshots in PostgreSQL (schema `screening`). Each import of a source stores the
 * complete list as a new snapshot (version v1, v2… per source) and the diff against the previous
 * snapshot of that source, by the source's external id: ADDED, REMOVED, CHANGED (any field).
 * Importing content identical to the current snapshot creates no version (`unchanged: true`).
 * On commit, `pg_notify('screening_lists', {source, version, snapshotId})` tells every process to
 * reload its index.
 */

export const LISTS_CHANNEL = 'screening_lists';
/** Entries are kept for this many newest snapshots per source (metadata and diffs forever). */
export const KEEP_ENTRY_SNAPSHOTS = 3;
const CHUNK = 2_000;

export interface ImportResult {
  snapshotId: string;
  source: string;
  version: string;
  total: number;
  added: number;
  removed: number;
  changed: number;
  /** true when the content equals the current snapshot (no new version was created) */
  unchanged?: boolean;
}

export interface ImportOptions {
  format?: string;
  importedBy?: string;
  /** The day the list's authority published this content (YYYY-MM-DD), when known. */
  publishedOn?: string;
  /** Aborted (a shutdown): the import stops between chunks and its transaction rolls back. */
  signal?: AbortSignal;
}

/** Stable JSON (sorted keys) so that equal entries hash equally whatever order fields came in. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    return `{${Object.keys(obj)
      .filter((k) => obj[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

export function entryHash(entry: ListEntry): string {
  return createHash('sha256').update(canonicalJson(entry)).digest('hex');
}

function primaryName(e: ListEntry): string {
  return e.names.find((n) => n.type === 'PRIMARY')?.full ?? e.names[0]?.full ?? '';
}

function lockKey(source: string): number {
  return createHash('sha256').update(`screening:${source}`).digest().readInt32BE(0);
}

export function validateEntries(source: string, entries: ListEntry[]): ListKind {
  if (!isValidSource(source))
    throw invalid(`source must be one of OFAC_SDN, OFAC_CONSOLIDATED, UN_SC, EU_FSF, UK_OFSI or CUSTOM_<NAME> (capitals, digits, _)`);
  if (!entries.length) throw badInput(`The ${source} list has no entries; refusing to replace the current snapshot with an empty one`);
  const ids = new Set<string>();
  const kind = entries[0].kind;
  for (const e of entries) {
    if (e.source !== source) throw badInput(`entry ${e.externalId} belongs to ${e.source}, not ${source}`);
    if (!LIST_KINDS.includes(e.kind)) throw invalid(`entry ${e.externalId}: kind must be one of ${LIST_KINDS.join(', ')}`);
    if (!e.externalId) throw badInput('every entry needs an external id');
    if (ids.has(e.externalId)) throw badInput(`duplicate external id ${e.externalId} in ${source}`);
    if (!e.names.length || !e.names.some((n) => n.full.trim())) throw badInput(`entry ${e.externalId} has no name`);
    ids.add(e.externalId);
  }
  return kind;
}

/** Stores `entries` as the new snapshot of `source` with its diff against the previous one. */
export async function importSnapshot(pool: pg.Pool, source: string, entries: ListEntry[], opts: ImportOptions = {}): Promise<ImportResult> {
  const kind = validateEntries(source, entries);
  const rows = entries
    .map((e) => ({ id: e.externalId, type: e.entityType, name: primaryName(e), hash: entryHash(e), data: JSON.stringify(e) }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const contentHash = createHash('sha256')
    .update(rows.map((r) => `${r.id}\t${r.hash}`).join('\n'))
    .digest('hex');

  return inTransaction(pool, async (client) => {
    await client.query('select pg_advisory_xact_lock($1)', [lockKey(source)]);
    const prev = await client.query<{ id: string; seq: number; version: string; content_hash: string; total: number }>(
      'select id, seq, version, content_hash, total from screening.list_snapshots where source = $1 order by seq desc limit 1',
      [source],
    );
    const previous = prev.rows[0];
    if (previous && previous.content_hash === contentHash) {
      return {
        snapshotId: previous.id,
        source,
        version: previous.version,
        total: previous.total,
        added: 0,
        removed: 0,
        changed: 0,
        unchanged: true,
      };
    }
    const seq = (previous?.seq ?? 0) + 1;
    const version = `v${seq}`;
    const snapshotId = randomUUID();
    await client.query(
      `insert into screening.list_snapshots (id, source, seq, version, kind, format, content_hash, total, added, removed, changed, previous_id, imported_by, published_on)
       values ($1, $2, $3, $4, $5, $6, $7, $8, 0, 0, 0, $9, $10, $11)`,
      [
        snapshotId,
        source,
        seq,
        version,
        kind,
        opts.format ?? null,
        contentHash,
        rows.length,
        previous?.id ?? null,
        opts.importedBy ?? null,
        opts.publishedOn ?? null,
      ],
    );
    for (let i = 0; i < rows.length; i += CHUNK) {
      opts.signal?.throwIfAborted();
      const part = rows.slice(i, i + CHUNK);
      await client.query(
        `insert into screening.list_entries (snapshot_id, external_id, entity_type, primary_name, hash, data)
         select $1, * from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::jsonb[])`,
        [
          snapshotId,
          part.map((r) => r.id),
          part.map((r) => r.type),
          part.map((r) => r.name),
          part.map((r) => r.hash),
          part.map((r) => r.data),
        ],
      );
    }
    let added = rows.length;
    let removed = 0;
    let changed = 0;
    if (previous) {
      // the diff needs the previous snapshot's entries; they are kept for KEEP_ENTRY_SNAPSHOTS versions
      await client.query(
        `insert into screening.list_changes (snapshot_id, external_id, change, primary_name)
         select $1, coalesce(n.external_id, o.external_id),
                case when o.external_id is null then 'ADDED' when n.external_id is null then 'REMOVED' else 'CHANGED' end,
                coalesce(n.primary_name, o.primary_name)
         from (select external_id, hash, primary_name from screening.list_entries where snapshot_id = $1) n
         full join (select external_id, hash, primary_name from screening.list_entries where snapshot_id = $2) o
           on o.external_id = n.external_id
         where o.external_id is null or n.external_id is null or o.hash <> n.hash`,
        [snapshotId, previous.id],
      );
      const counts = await client.query<{ change: string; n: string }>(
        'select change, count(*) as n from screening.list_changes where snapshot_id = $1 group by change',
        [snapshotId],
      );
      const by = Object.fromEntries(counts.rows.map((r) => [r.change, Number(r.n)]));
      added = by.ADDED ?? 0;
      removed = by.REMOVED ?? 0;
      changed = by.CHANGED ?? 0;
    } else {
      await client.query(
        `insert into screening.list_changes (snapshot_id, external_id, change, primary_name)
         select snapshot_id, external_id, 'ADDED', primary_name from screening.list_entries where snapshot_id = $1`,
        [snapshotId],
      );
    }
    await client.query('update screening.list_snapshots set added = $2, removed = $3, changed = $4 where id = $1', [
      snapshotId,
      added,
      removed,
      changed,
    ]);
    // bound storage: entries of older snapshots go (their metadata and diffs stay)
    await client.query(
      `delete from screening.list_entries where snapshot_id in (
         select id from screening.list_snapshots where source = $1 and seq <= $2)`,
      [source, seq - KEEP_ENTRY_SNAPSHOTS],
    );
    await client.query('select pg_notify($1, $2)', [LISTS_CHANNEL, JSON.stringify({ source, version, snapshotId })]);
    return { snapshotId, source, version, total: rows.length, added, removed, changed };
  });
}

export interface SnapshotInfo {
  id: string;
  source: string;
  version: string;
  kind: ListKind;
  format: string | null;
  total: number;
  added: number;
  removed: number;
  changed: number;
  importedBy: string | null;
  publishedOn: string | null;
  createdAt: Date;
  current: boolean;
}

function toInfo(r: any): SnapshotInfo {
  return {
    id: r.id,
    source: r.source,
    version: r.version,
    kind: r.kind,
    format: r.format,
    total: r.total,
    added: r.added,
    removed: r.removed,
    changed: r.changed,
    importedBy: r.imported_by,
    publishedOn: r.published_on,
    createdAt: r.created_at,
    current: r.current,
  };
}

const SNAPSHOT_COLUMNS = `s.id, s.source, s.version, s.kind, s.format, s.total, s.added, s.removed, s.changed, s.imported_by, to_char(s.published_on, 'YYYY-MM-DD') as published_on, s.created_at,
  s.seq = (select max(seq) from screening.list_snapshots x where x.source = s.source) as current`;

/** Snapshots, newest first (optionally of one source). */
export async function listSnapshots(pool: pg.Pool, source?: string, limit = 50): Promise<SnapshotInfo[]> {
  const { rows } = await pool.query(
    `select ${SNAPSHOT_COLUMNS} from screening.list_snapshots s where ($1::text is null or s.source = $1) order by s.created_at desc, s.seq desc limit $2`,
    [source ?? null, limit],
  );
  return rows.map(toInfo);
}

export async function getSnapshot(pool: pg.Pool, id: string): Promise<SnapshotInfo | null> {
  const { rows } = await pool.query(`select ${SNAPSHOT_COLUMNS} from screening.list_snapshots s where s.id = $1`, [id]);
  return rows[0] ? toInfo(rows[0]) : null;
}

export interface SnapshotChange {
  externalId: string;
  change: 'ADDED' | 'REMOVED' | 'CHANGED';
  primaryName: string;
}

export async function snapshotChanges(
  pool: pg.Pool,
  snapshotId: string,
  change?: SnapshotChange['change'],
  limit = 100,
  offset = 0,
): Promise<{ total: number; data: SnapshotChange[] }> {
  const { rows } = await pool.query<{ external_id: string; change: SnapshotChange['change']; primary_name: string; total: string }>(
    `select external_id, change, primary_name, count(*) over () as total from screening.list_changes
     where snapshot_id = $1 and ($2::text is null or change = $2) order by change, external_id limit $3 offset $4`,
    [snapshotId, change ?? null, limit, offset],
  );
  return {
    total: rows.length ? Number(rows[0].total) : 0,
    data: rows.map((r) => ({ externalId: r.external_id, change: r.change, primaryName: r.primary_name })),
  };
}

/** The entries of one snapshot (kept for the newest KEEP_ENTRY_SNAPSHOTS of each source). */
export async function snapshotEntries(pool: pg.Pool, snapshotId: string): Promise<ListEntry[]> {
  const { rows } = await pool.query<{ data: ListEntry }>(
    'select data from screening.list_entries where snapshot_id = $1 order by external_id',
    [snapshotId],
  );
  return rows.map((r) => r.data);
}

/** Newest snapshot id and version per source (cheap; used to skip reloads of unchanged sources). */
export async function currentVersions(pool: pg.Pool): Promise<Record<string, { version: string; snapshotId: string }>> {
  const { rows } = await pool.query<{ id: string; source: string; version: string }>(
    `select distinct on (source) id, source, version from screening.list_snapshots order by source, seq desc`,
  );
  return Object.fromEntries(rows.map((r) => [r.source, { version: r.version, snapshotId: r.id }]));
}
