import { pino, type Logger } from 'pino';

export type { Logger };

/** pino JSON logs; LOG_LEVEL controls verbosity (tests default to `silent`). */
export function createLogger(name: string, level = process.env.LOG_LEVEL ?? (process.env.JEST_WORKER_ID ? 'silent' : 'info')): Logger {
  return pino({ name, level, redact: ['req.headers["x-api-key"]', 'req.headers.authorization', 'req.headers["x-admin-secret"]'] });
}

export const REQUEST_ID_HEADER = 'x-request-id';
