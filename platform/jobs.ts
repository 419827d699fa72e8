import { PgBoss } from 'pg-boss';
import type { Logger } from './logger.js';
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
