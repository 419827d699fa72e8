import { randomUUID } from 'node:crypto';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { AppError, isErrorCode } from '../errors.js';
import type { Logger } from '../logger.js';

/** GraphQL's own request errors (parse, validation, variable coercion) are the client's. */
const CLIENT_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'PERSISTED_QUERY_NOT_FOUND',
  'BAD_REQUEST',
]);

/**
 * Known errors keep their code (and per-field messages); anything else becomes INTERNAL with an
 * error id that is logged with the real cause. Never a stack trace to a client.
 */
export function formatError(logger: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
    if (original instanceof AppError) {
      return { message: original.message, path: formatted.path, extensions: pick(original.extensions) };
    }
    const code = formatted.extensions?.code;
    if (isErrorCode(code) || (typeof code === 'string' && CLIENT_CODES.has(code))) {
      return {
        message: formatted.message,
        locations: formatted.locations,
        path: formatted.path,
        extensions: pick(formatted.extensions ?? {}),
      };
    }
    const errorId = randomUUID();
    logger.error({ err: original, errorId, path: formatted.path }, 'unexpected error');
    return { message: `Internal error (id ${errorId})`, path: formatted.path, extensions: { code: 'INTERNAL', errorId } };
  };
}

function pick(ext: Record<string, unknown>): Record<string, unknown> {
  const { code, messages, retryAfter } = ext;
  return Object.fromEntries(Object.entries({ code, messages, retryAfter }).filter(([, v]) => v !== undefined));
}
