import { randomUUID } from 'node:crypto';
import type { GraphQLFormattedError, GraphQLSchema } from 'graphql';
import { isErrorCode } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import { rewriteCoercionError } from './coercion-errors.js';

/** Apollo's and graphql-js's codes for a bad request document: the client's mistake, safe to show. */
const REQUEST_DOCUMENT_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_REQUEST',
  'OPERATION_RESOLUTION_FAILURE',
  // Apollo Gateway: an operationName the document does not hold
  'INVALID_GRAPHQL',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
]);

/** Network failures reaching a subgraph: the graph is degraded, not broken. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_SOCKET']);

/** Whether `error` or anything it wraps (GraphQLError.originalError, Error.cause) failed to reach a subgraph. */
function isUnreachable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  const { code, originalError, cause } = error as { code?: unknown; originalError?: unknown; cause?: unknown };
  return UNREACHABLE_CODES.has(code as string) || isUnreachable(originalError, depth + 1) || isUnreachable(cause, depth + 1);
}

/** Extensions a client may see; everything else (stack traces, subgraph bodies, serviceName) stays inside. */
const PUBLIC_EXTENSIONS = ['messages', 'retryAfter'] as const;

export type ErrorFormatter = (formatted: GraphQLFormattedError, error?: unknown) => GraphQLFormattedError;

export interface ErrorFormatterOptions {
  logger: Logger;
  /** The current API schema (enum values for coercion messages). */
  schema: () => GraphQLSchema | undefined;
}

/**
 * The gateway's one error formatter, used for HTTP (Apollo's formatError) and graphql-ws alike:
 * platform codes pass with their message, coercion failures are reworded, anything unknown becomes
 * INTERNAL (or UNAVAILABLE when a subgraph could not be reached) with an error id that is logged
 * together with the original error.
 */
export function createErrorFormatter({ logger, schema }: ErrorFormatterOptions): ErrorFormatter {
  return (formatted, error) => {
    const where = { ...(formatted.locations && { locations: formatted.locations }), ...(formatted.path && { path: formatted.path }) };
    const coercion = rewriteCoercionError(formatted.message, schema());
    if (coercion) return { message: coercion.message, ...where, extensions: { code: coercion.code } };

    const code = formatted.extensions?.code;
    if (isErrorCode(code) && code !== 'INTERNAL') {
      const extensions: Record<string, unknown> = { code };
      for (const key of PUBLIC_EXTENSIONS) {
        if (formatted.extensions?.[key] !== undefined) extensions[key] = formatted.extensions[key];
      }
      return { message: formatted.message, ...where, extensions };
    }
    if (typeof code === 'string' && REQUEST_DOCUMENT_CODES.has(code)) {
      return { message: formatted.message, ...where, extensions: { code: 'BAD_USER_INPUT' } };
    }

    const errorId = randomUUID();
    if (isUnreachable(error)) {
      logger.warn({ errorId, err: error }, 'subgraph unreachable');
      return { message: `A backing service is unavailable (error id ${errorId})`, ...where, extensions: { code: 'UNAVAILABLE', errorId } };
    }
    logger.error({ errorId, err: error, formatted }, 'unexpected GraphQL error');
    return { message: `Internal server error (error id ${errorId})`, ...where, extensions: { code: 'INTERNAL', errorId } };
  };
}
