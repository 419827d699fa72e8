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

/** A queue with these settings: created on the first start, its settings brought up to date on every start. */
export async function ensureQueue(boss: PgBoss, queue: string, settings: Parameters<PgBoss['updateQueue']>[1]): Promise<void> {
  await boss.createQueue(queue, settings).catch(() => undefined);
  await boss.updateQueue(queue, settings);
}

/**
 * Works a queue one job at a time, asking for work every `pollSeconds`; the function returned wakes
 * the worker at once (call it after the commit that queued a job). A poll is a query: at 0.5 s, the
 * API process's five queues' workers asked 16 times a second, ≈ 1.7 % of a core with nothing to do.
 */
export async function workQueue<T extends object>(
  boss: PgBoss,
  queue: string,
  pollSeconds: number,
  handler: (job: { id: string; data: T }) => Promise<void>,
): Promise<() => void> {
  const id = await boss.work<T>(queue, { pollingIntervalSeconds: pollSeconds, batchSize: 1 }, ([job]) => handler(job));
  return () => boss.notifyWorker(id);
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
