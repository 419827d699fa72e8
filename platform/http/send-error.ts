import type { Response } from 'express';
import type { AppError } from '../errors.js';

/**
 * Answers a request refused outside GraphQL (the gateway's auth and body limits, file downloads)
 * with the error's status and a GraphQL-shaped body: clients parse one error format whatever
 * stopped them.
 */
export function sendAppError(res: Response, error: AppError): void {
  const { retryAfter, messages } = error.extensions as { retryAfter?: unknown; messages?: unknown };
  if (error.code === 'RATE_LIMITED' && retryAfter !== undefined) res.setHeader('Retry-After', String(retryAfter));
  res.status(error.status).json({
    errors: [
      {
        message: error.message,
        extensions: { code: error.code, ...(messages !== undefined && { messages }), ...(retryAfter !== undefined && { retryAfter }) },
      },
    ],
  });
}
