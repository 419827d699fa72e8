import type pg from 'pg';

/** The tenant a caller acts for: rows of other organizations or environments do not exist for it. */
export interface Tenant {
  organizationId: string;
  environment: string;
}

export const tenantKey = (t: Tenant): string => `${t.organizationId}/${t.environment}`;

/** Runs `work` in one transaction on a pooled connection (rollback on any error). */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>, begin = 'begin'): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  // a checked-out client has no error listener (pg-pool removes it): a connection the server ends
  // between two queries must not crash the process
  const onError = (err: Error) => (broken = err);
  client.on('error', onError);
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query('commit');
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

/** PostgreSQL's unique_violation. */
export const isUniqueViolation = (err: unknown): boolean => (err as { code?: string })?.code === '23505';
