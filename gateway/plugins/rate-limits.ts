import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError } from 'graphql';
import type { IncomingHttpHeaders } from 'node:http';
import type { AppError } from '../../platform/errors.js';
import type { Logger } from '../../platform/logger.js';
import { rateLimitUnits } from '../operation-cost.js';
import type { GatewayContext } from '../subgraph-data-source.js';
import { asAppError, type Authenticate } from './authentication.js';

/**
 * The edge counted one request before the body was read; a mutation with several root fields
 * (aliases) is charged the rest here, once the operation is known.
 */
export const chargeMutationFields: ApolloServerPlugin<GatewayContext> = {
  async requestDidStart() {
    return {
      async didResolveOperation({ document, operation, contextValue }) {
        const extra = operation ? rateLimitUnits(document, operation) - 1 : 0;
        if (extra > 0) await contextValue.charge?.(extra);
      },
    };
  },
};

/** The context's `charge`: more units on the caller's limits; over a limit, the 429 with its headers. */
export function chargeCaller(authenticate: Authenticate, logger: Logger, request: { headers: IncomingHttpHeaders; ip?: string }) {
  return async (units: number) => {
    try {
      await authenticate({ headers: request.headers, ip: request.ip, units });
    } catch (error) {
      throw withHttpStatus(asAppError(error, logger), (error as { headers?: Record<string, string> }).headers);
    }
  };
}

/** An AppError thrown inside Apollo's pipeline, answered with its HTTP status and headers. */
function withHttpStatus(error: AppError, headers: Record<string, string> = {}): GraphQLError {
  const { retryAfter } = error.extensions as { retryAfter?: unknown };
  const all = new Map(Object.entries(headers));
  if (retryAfter !== undefined) all.set('Retry-After', String(retryAfter));
  return new GraphQLError(error.message, { extensions: { ...error.extensions, http: { status: error.status, headers: all } } });
}
