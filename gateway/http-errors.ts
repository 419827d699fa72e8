import type { ErrorRequestHandler } from 'express';
import { randomUUID } from 'node:crypto';
import { AppError, clientErrorCodeOf } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import { sendAppError } from '../platform/http/send-error.js';

export { sendAppError };

/** Express error handler for the /graphql route: parser failures → their platform code; the rest → INTERNAL. */
export function graphqlHttpErrorHandler(logger: Logger): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    if (err instanceof AppError) return sendAppError(res, err);
    if (err?.type === 'entity.too.large') return sendAppError(res, new AppError('PAYLOAD_TOO_LARGE', 'Request body is too large'));
    if (err?.type === 'entity.parse.failed') return sendAppError(res, new AppError('BAD_USER_INPUT', 'Request body is not valid JSON'));
    const code = clientErrorCodeOf(err?.status);
    if (code) return sendAppError(res, new AppError(code, String(err.message)));
    const errorId = randomUUID();
    logger.error({ err, errorId }, 'unexpected error before GraphQL execution');
    sendAppError(res, new AppError('INTERNAL', `Internal server error (error id ${errorId})`));
  };
}
