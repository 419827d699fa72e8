import type pg from 'pg';
import type { EntityManager } from '@mikro-orm/postgresql';

/** Anything that runs SQL: the pool, or a client inside a transaction. */
export interface Sql {
  query<R = any>(text: string, values?: unknown[]): Promise<{ rows: R[]; rowCount: number | null }>;
}

export interface TransactionOptions {
  /**
   * The statement that opens it: isolation, read only, `set local` settings, and whatever must be
   * read first in the same round trip (its answer is handed to the work).
   */
  begin?: string;
  /** `rollback` for a read-only look that must leave nothing behind. */
  end?: 'commit' | 'rollback';
}

/**
 * Runs `work` in one transaction on a pooled connection: commit when it returns, rollback when it
 * throws. The one place that writes begin/commit/rollback.
 */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient, opened: pg.QueryResult | pg.QueryResult[]) => Promise<T>,
  { begin = 'begin', end = 'commit' }: TransactionOptions = {},
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  // a checked-out client has no error listener (pg-pool removes it): a connection the server ends
  // between two queries must not crash the process
  const onError = (err: Error) => (broken = err);
  client.on('error', onError);
  try {
    const opened = (await client.query(begin)) as pg.QueryResult | pg.QueryResult[];
    const result = await work(client, opened);
    await client.query(end);
    return result;
  } catch (err) {
    await client.query('rollback').catch((e: Error) => (broken = e));
    throw err;
  } finally {
    client.removeListener('error', onError);
    // a connection that failed or cannot even roll back is discarded, not returned to the pool
    client.release(broken);
  }
}

/** MikroORM expands an array parameter into a list: pass it as one PostgreSQL array literal instead. */
function arrayLiteral(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return `{${value.map((v) => (v === null ? 'NULL' : `"${String(v).replace(/(["\\])/g, '\\$1')}"`)).join(',')}}`;
}

/**
 * SQL in the caller's transaction whichever way it holds one: a pg client in `inTransaction`, or an
 * EntityManager in `em.transactional` (which takes `?` placeholders: `$n` values are reordered).
 */
export function sqlOf(tx: Sql | EntityManager): Sql {
  if ('query' in tx) return tx;
  return {
    async query(text, values = []) {
      const ordered: unknown[] = [];
      const sql = text.replace(/\$(\d+)/g, (_m, n: string) => {
        ordered.push(arrayLiteral(values[Number(n) - 1]));
        return '?';
      });
      const rows = await tx.execute(sql, ordered);
      const list = (Array.isArray(rows) ? rows : []) as any[];
      return { rows: list, rowCount: list.length };
    },
  };
}
