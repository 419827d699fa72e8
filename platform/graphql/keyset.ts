import type { Sql } from '../db/transaction.js';
import { badInput } from '../errors.js';
import type { Connection, ConnectionArgs } from './connection.js';
import { decodeCursor, encodeCursor } from './cursor.js';

/**
 * Relay connections over SQL (for records kept in plain tables: notify's, risk's): one page of a list in a
 * stable order, after the record a cursor names. The cursor is the platform's (creation time and
 * id, or the REST adapter's offset); the record's place in the list is read back from the table,
 * so any sort key pages without gaps or repeats while records arrive.
 */
export interface KeysetList {
  /** The rows, with an alias (`notify.notifications n`). */
  from: string;
  /** Conditions over `values` ($1, $2…). */
  where: string[];
  values: unknown[];
  /** The sort key, unique per row, every part in the same direction (`['n.created_at', 'n.id']`). */
  key: string[];
  descending: boolean;
  /** SQL giving the sort key of the record with the id in `param` (a subquery, or the id itself). */
  keyOf: (param: string) => string;
  /** Whether a cursor's id can be a record of this list (anything else is not a cursor of it). */
  isId: (id: string) => boolean;
  /** Selected columns; they include `id` and `created_at` (the cursor). */
  select: string;
}

interface Row {
  id: string | number;
  created_at: Date | string;
}

/** A page of `list`, its rows turned into nodes (in their order) by `toNodes`. */
export async function keysetConnection<R extends Row, N>(
  db: Sql,
  list: KeysetList,
  args: ConnectionArgs,
  toNodes: (rows: R[]) => Promise<N[]> | N[],
): Promise<Connection<N>> {
  const cursor = args.after ? decodeCursor(args.after) : null;
  const values = [...list.values];
  const where = [...list.where];
  let offset = 0;
  if (cursor && 'k' in cursor) {
    if (!list.isId(cursor.k[1])) throw badInput('after is not a cursor of this list');
    where.push(`(${list.key.join(', ')}) ${list.descending ? '<' : '>'} (${list.keyOf(`$${values.push(cursor.k[1])}`)})`);
  } else if (cursor) offset = cursor.o + 1;
  const clause = (conditions: string[]) => (conditions.length ? `where ${conditions.join(' and ')}` : '');
  const order = list.key.map((part) => `${part} ${list.descending ? 'desc' : 'asc'}`).join(', ');
  const [{ rows }, counted] = await Promise.all([
    db.query<R>(
      `select ${list.select} from ${list.from} ${clause(where)} order by ${order} limit $${values.length + 1} offset $${values.length + 2}`,
      [...values, args.first + 1, offset],
    ),
    db.query<{ n: number }>(`select count(*)::int as n from ${list.from} ${clause(list.where)}`, list.values),
  ]);
  const page = rows.slice(0, args.first);
  const nodes = await toNodes(page);
  const edges = page.map((row, i) => ({
    cursor: encodeCursor({ k: [new Date(row.created_at).toISOString(), String(row.id)] }),
    node: nodes[i],
  }));
  return {
    edges,
    nodes,
    totalCount: counted.rows[0].n,
    pageInfo: {
      hasNextPage: rows.length > args.first,
      hasPreviousPage: cursor !== null,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}
