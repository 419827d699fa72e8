import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { AppError, clientErrorCodeOf, ERROR_STATUS, isErrorCode, restErrorBody, type ErrorCode } from '../platform/errors.js';
import { REQUEST_ID_HEADER, type Logger } from '../platform/logger.js';
import { redactUrl } from '../platform/http/observability.js';
import { UNAVAILABLE_RETRY_AFTER_S, type GraphQLErrorShape } from './gateway.js';

/** Apollo's code for an unexpected resolver error (when the gateway did not mask it as INTERNAL). */
const APOLLO_INTERNAL = 'INTERNAL_SERVER_ERROR';

/**
 * Maps a GraphQL error response (non-empty `errors`) to one REST error: the first error's code
 * decides the status, and the message lists every error of that code. Codes outside the error
 * model (GraphQL validation or parse failures of the variables the client sent) are the client's
 * fault: 400, unless the gateway itself answered 5xx.
 */
export function fromGraphQLErrors(httpStatus: number, errors: GraphQLErrorShape[]): AppError {
  const codeOf = (error: GraphQLErrorShape): ErrorCode => {
    const code = error.extensions?.code;
    if (isErrorCode(code)) return code;
    return code === APOLLO_INTERNAL || httpStatus >= 500 ? 'INTERNAL' : 'BAD_USER_INPUT';
  };
  const code = codeOf(errors[0]);
  const messages = errors.filter((error) => codeOf(error) === code).flatMap(messagesOf);
  const retryAfter = errors.find((error) => error.extensions?.retryAfter !== undefined)?.extensions?.retryAfter;
  return new AppError(code, messages, retryAfter === undefined ? {} : { retryAfter });
}

/** A mutation payload's user errors (`{ field, code, message }`) as one REST error, like GraphQL errors. */
export function fromUserErrors(errors: Array<{ code: string; message: string }>): AppError {
  const code: ErrorCode = isErrorCode(errors[0].code) ? errors[0].code : 'BAD_USER_INPUT';
  return new AppError(
    code,
    errors.filter((error) => error.code === errors[0].code).map((error) => error.message),
  );
}

function messagesOf(error: GraphQLErrorShape): string[] {
  const listed = error.extensions?.messages;
  if (Array.isArray(listed) && listed.every((m) => typeof m === 'string')) return listed;
  return [error.message ?? 'Request failed'];
}

export function sendError(res: Response, code: ErrorCode, messages: string[], retryAfter?: unknown): void {
  // A Retry-After copied from the gateway wins; 503 always carries one (COMPATIBILITY.md).
  if (!res.hasHeader('retry-after')) {
    const seconds = retryAfter ?? (code === 'UNAVAILABLE' ? UNAVAILABLE_RETRY_AFTER_S : undefined);
    if (seconds !== undefined) res.setHeader('retry-after', String(seconds));
  }
  res.status(ERROR_STATUS[code]).json(restErrorBody(code, messages));
}

export const notFoundHandler: RequestHandler = (req, res) => {
  sendError(res, 'NOT_FOUND', [`Cannot ${req.method} ${req.path}`]);
};

/** body-parser failures (they carry a `type`) that are the client's fault. */
const BODY_ERRORS: Record<string, [ErrorCode, string]> = {
  'entity.parse.failed': ['BAD_USER_INPUT', 'Malformed JSON body'],
  'entity.too.large': ['PAYLOAD_TOO_LARGE', 'Request body exceeds 2 MB'],
  'encoding.unsupported': ['UNSUPPORTED_MEDIA_TYPE', 'Unsupported content encoding'],
  'charset.unsupported': ['UNSUPPORTED_MEDIA_TYPE', 'Unsupported charset'],
};

/** The one error filter: known errors → their status; anything else → 500 with a logged error id. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (err instanceof AppError) return sendError(res, err.code, err.messages, err.extensions.retryAfter);
    const known = BODY_ERRORS[(err as { type?: string })?.type ?? ''];
    // a route may raise its limit (Route.bodyLimit): name the one that applied
    const limit = typeof err?.limit === 'number' ? `Request body exceeds ${Math.round(err.limit / (1024 * 1024))} MB` : undefined;
    if (known) return sendError(res, known[0], [known[0] === 'PAYLOAD_TOO_LARGE' ? (limit ?? known[1]) : known[1]]);
    // e.g. a path whose percent-escapes do not decode (Express answers it as a 400 URIError)
    const clientError = clientErrorCodeOf(err?.status);
    if (clientError)
      return sendError(res, clientError, [err instanceof URIError ? 'Malformed percent-encoding in the path' : String(err.message)]);

    const errorId = randomUUID();
    logger.error(
      { err, errorId, requestId: req.headers[REQUEST_ID_HEADER], method: req.method, url: redactUrl(req.originalUrl) },
      'unexpected error',
    );
    if (res.headersSent) return;
    sendError(res, 'INTERNAL', [`Internal server error (error id ${errorId})`]);
  };
}
