import { PgBoss } from 'pg-boss';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from './logger.js';
import { sqlOf, type Sql } from './db/transaction.js';
import { logDatabaseError } from './db/connection-errors.js';

export type { PgBoss };

/** pg-boss in its own `pgboss` schema; one instance per process that runs workers. */
export async function startJobs(url: string, logger: Logger, superviseSeconds = 60): Promise<PgBoss> {
  // supervision also expires jobs whose worker died: its interval bounds crash recovery time
  const boss = new PgBoss({
    connectionString: url,
    schema: 'pgboss',
    max: 5,
    superviseIntervalSeconds: superviseSeconds,
    monitorIntervalSeconds: superviseSeconds,
  });
  boss.on('error', (err) => logDatabaseError(logger, err, 'job queue'));
  await boss.start();
  return boss;
}

/** pg-boss's `db` option: where it runs its SQL. */
export interface JobDb {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
}

/**
 * pg-boss's `db` option inside the caller's transaction (a pg client in `inTransaction`, or an
 * EntityManager in `em.transactional`), so a job is committed with the rows it works on, or not at all.
 */
export function jobDb(tx: Sql | EntityManager): JobDb {
  const sql = sqlOf(tx);
  return { executeSql: (text, values) => sql.query(text, values) };
}
