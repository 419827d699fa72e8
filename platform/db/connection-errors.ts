import type { Logger } from '../logger.js';

/** The server is shutting down or gone (Ctrl-C reaches embedded PostgreSQL too; restarts). */
export function isConnectionLoss(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | null;
  return (
    ['57P01', '57P02', '57P03', 'ECONNREFUSED', 'ECONNRESET'].includes(e?.code ?? '') || /Connection terminated/i.test(e?.message ?? '')
  );
}

/** Logs a database error: connection loss is expected at shutdown and is retried, so it is only info. */
export function logDatabaseError(logger: Logger, err: unknown, msg: string): void {
  if (isConnectionLoss(err)) logger.info({ reason: (err as Error).message }, `${msg}: database connection lost`);
  else logger.error({ err }, msg);
}
