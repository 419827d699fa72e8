import { EventType, ReferenceKind, type EntityMetadata, type Platform } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

type Columns = Record<string, string>;

/** Per entity, per set of criteria: the statement, or null when it must go to `findOne`. */
const statements = new WeakMap<EntityMetadata, Map<string, { sql: string; keys: string[] } | null>>();

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

function statement(meta: EntityMetadata, keys: string[], platform: Platform): { sql: string; keys: string[] } | null {
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
  const where = keys.map((k) => `${quote(meta.properties[k as never].fieldNames[0])} = ?`).join(' and ');
  return { sql: `select ${props.map((p) => quote(p.fieldNames[0])).join(', ')} from ${table} where ${where} limit 1`, keys };
}

/**
 * `em.findOne(entity, where)` for equality on plain columns (a record by its id and tenant: every
 * read of one record), hydrated by MikroORM into the same managed entity, but without building the
 * query anew on each call: MikroORM's criteria nodes, query builder and kysely cost about a fifth of
 * a record read's CPU (BENCHMARKS.md, issue 31). An entity or criterion MikroORM would read
 * differently (relations, embeddables, SQL-side conversions, filters, load listeners) or a record
 * this context already holds goes to `findOne`.
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
  const rows = await em.getConnection().execute<Record<string, unknown>[]>(
    prepared.sql,
    prepared.keys.map((k) => where[k]),
    'all',
    em.getTransactionContext(),
  );
  return rows.length ? (em.map(entity, rows[0]) as T) : null;
}
