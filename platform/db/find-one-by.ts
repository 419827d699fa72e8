import { EventType, ReferenceKind, type EntityMetadata, type Platform } from '@mikro-orm/core';
import type { Connection, EntityManager } from '@mikro-orm/postgresql';

type Columns = Record<string, string>;

/** Per entity, per set of criteria: the statement, or null when it must go to `findOne`. */
const statements = new WeakMap<EntityMetadata, Map<string, Statement | null>>();

/** A plain column, read as MikroORM reads it (no SQL-side conversion, relation or formula). */
function plainColumn(meta: EntityMetadata, name: string, platform: Platform): boolean {
  const prop = meta.properties[name as never] as EntityMetadata['props'][number] | undefined;
  // a conversion that leaves the column as it is (JSON on PostgreSQL) is none
  const unchanged = (convert?: (key: string, platform: Platform) => string) =>
    !convert || convert.call(prop!.customType, 'c', platform) === 'c';
  return (
    !!prop &&
    prop.kind === ReferenceKind.SCALAR &&
    prop.persist !== false &&
    !prop.lazy &&
    !prop.formula &&
    unchanged(prop.customType?.convertToJSValueSQL) &&
    unchanged(prop.customType?.convertToDatabaseValueSQL) &&
    prop.fieldNames?.length === 1
  );
}

interface Statement {
  /** The columns read, and `from … where ` up to the criteria. */
  head: string;
  keys: string[];
  /** The key columns in `keys`' order, as rows name them and quoted for SQL. */
  fields: string[];
  columns: string[];
  /** A batch of these reads may share one statement: the keys hold the primary key, and every key's column compares as JS strings do. */
  batchable: boolean;
  /** Key columns of type uuid (PostgreSQL answers them lower-case). */
  uuids: boolean[];
}

function statement(meta: EntityMetadata, keys: string[], platform: Platform): Statement | null {
  const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
  const props = meta.props.filter(
    (p) => p.persist !== false && p.kind !== ReferenceKind.ONE_TO_MANY && p.kind !== ReferenceKind.MANY_TO_MANY,
  );
  // anything MikroORM would read differently (relations, embeddables, SQL conversions, filters) stays with it
  if (
    Object.keys(meta.filters).length ||
    !props.every((p) => plainColumn(meta, p.name, platform)) ||
    !keys.every((k) => plainColumn(meta, k, platform))
  )
    return null;
  const table = `${meta.schema ? `${quote(meta.schema)}.` : ''}${quote(meta.tableName)}`;
  const keyProps = keys.map((k) => meta.properties[k as never] as EntityMetadata['props'][number]);
  const types = keyProps.map((p) => p.columnTypes?.[0]?.toLowerCase());
  return {
    head: `select ${props.map((p) => quote(p.fieldNames[0])).join(', ')} from ${table} where `,
    keys,
    fields: keyProps.map((p) => p.fieldNames[0]),
    columns: keyProps.map((p) => quote(p.fieldNames[0])),
    batchable: meta.primaryKeys.every((k) => keys.includes(k)) && types.every((t) => t === 'uuid' || t === 'text'),
    uuids: types.map((t) => t === 'uuid'),
  };
}

const singleSql = (s: Statement) => `${s.head}${s.columns.map((c) => `${c} = ?`).join(' and ')} limit 1`;

/** Reads waiting for the loop's check phase, per entity and criteria: they go as one statement. */
interface Waiting {
  values: string[];
  resolve(row: Record<string, unknown> | undefined): void;
  reject(error: unknown): void;
}
const MAX_BATCH = 100;
const waiting = new Map<Statement, { connection: Connection; reads: Waiting[] }>();

const readRows = (connection: Connection, sql: string, params: unknown[], transaction?: Parameters<Connection['execute']>[3]) =>
  connection.execute<Record<string, unknown>[]>(sql, params, 'all', transaction);

/**
 * The reads of one statement that arrived in the same turn of the event loop (the requests of one
 * poll phase), read by one statement: one round trip to PostgreSQL instead of one each (a write to
 * its socket and its parse and plan: BENCHMARKS.md, issue 31). Each read gets the row of its keys
 * or none; if the shared statement fails, each read runs alone and meets its own error.
 */
function readBatched(statement: Statement, connection: Connection, values: string[]): Promise<Record<string, unknown> | undefined> {
  return new Promise((resolve, reject) => {
    let batch = waiting.get(statement);
    if (!batch) {
      waiting.set(statement, (batch = { connection, reads: [] }));
      setImmediate(() => void flush(statement));
    }
    batch.reads.push({ values, resolve, reject });
    if (batch.reads.length >= MAX_BATCH) void flush(statement);
  });
}

async function flush(statement: Statement): Promise<void> {
  const batch = waiting.get(statement);
  if (!batch) return;
  waiting.delete(statement);
  const { connection, reads } = batch;
  const alone = (read: Waiting) =>
    readRows(connection, singleSql(statement), read.values).then((rows) => read.resolve(rows[0]), read.reject);
  if (reads.length === 1) return alone(reads[0]);
  const tuple = `(${statement.columns.map(() => '?').join(', ')})`;
  const sql = `${statement.head}(${statement.columns.join(', ')}) in (${reads.map(() => tuple).join(', ')})`;
  let rows: Record<string, unknown>[];
  try {
    rows = await readRows(
      connection,
      sql,
      reads.flatMap((r) => r.values),
    );
  } catch {
    await Promise.all(reads.map(alone));
    return;
  }
  const byKey = new Map(rows.map((row) => [statement.fields.map((f) => String(row[f])).join('\0'), row]));
  for (const read of reads) read.resolve(byKey.get(read.values.join('\0')));
}

/**
 * `em.findOne(entity, where)` for equality on plain columns (a record by its id and tenant: every
 * read of one record), hydrated by MikroORM into the same managed entity, but without building the
 * query anew on each call: MikroORM's criteria nodes, query builder and kysely cost about a fifth of
 * a record read's CPU (BENCHMARKS.md, issue 31). An entity or criterion MikroORM would read
 * differently (relations, embeddables, SQL-side conversions, filters, load listeners) or a record
 * this context already holds goes to `findOne`. Outside a transaction, reads by primary key that
 * arrive in the same turn of the event loop share one statement (`readBatched`).
 */
export async function findOneBy<T extends object>(
  em: EntityManager,
  entity: new (...args: never[]) => T,
  where: Columns,
): Promise<T | null> {
  const meta = em.getMetadata().get(entity) as EntityMetadata;
  let byKeys = statements.get(meta);
  if (!byKeys) statements.set(meta, (byKeys = new Map()));
  const keys = Object.keys(where);
  const signature = keys.join(',');
  let prepared = byKeys.get(signature);
  if (prepared === undefined) byKeys.set(signature, (prepared = statement(meta, keys, em.getPlatform())));
  // a record this context already holds is MikroORM's to return (with its unflushed changes)
  const held = where.id !== undefined && em.getUnitOfWork().getById(entity, where.id);
  // an entity whose loading others hear of (sealed columns are opened on load) is loaded by MikroORM
  const listened = em.getEventManager().hasListeners(EventType.onLoad, meta);
  if (!prepared || held || listened) return em.findOne(entity, where as never) as Promise<T | null>;
  const values = prepared.keys.map((k) => where[k]);
  const transaction = em.getTransactionContext();
  // a read in a transaction sees that transaction; a uuid not written lower-case is matched by PostgreSQL alone
  const alone = transaction !== undefined || !prepared.batchable || values.some((v, i) => prepared.uuids[i] && v !== v.toLowerCase());
  const row = alone
    ? (await readRows(em.getConnection(), singleSql(prepared), values, transaction))[0]
    : await readBatched(prepared, em.getConnection(), values);
  return row ? (em.map(entity, row) as T) : null;
}
