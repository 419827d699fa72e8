import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError } from 'graphql';
import type { AppError } from '../platform/errors.js';
import { rateLimitUnits } from './operation-cost.js';
import type { GatewayContext } from './subgraph-data-source.js';

/** An AppError thrown inside Apollo's pipeline, answered with its HTTP status and headers. */
export function withHttpStatus(error: AppError, headers: Record<string, string> = {}): GraphQLError {
  const { retryAfter } = error.extensions as { retryAfter?: unknown };
  const all = new Map(Object.entries(headers));
  if (retryAfter !== undefined) all.set('Retry-After', String(retryAfter));
  return new GraphQLError(error.message, { extensions: { ...error.extensions, http: { status: error.status, headers: all } } });
}

/** @apollo/gateway cannot run subscriptions; say where they live instead of failing with INTERNAL. */
export function subscriptionsOverWebSocket(path: string): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation }) {
          if (operation?.operation === 'subscription') {
            throw new GraphQLError(`Subscriptions are served over graphql-ws on ${path}`, {
              extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } },
            });
          }
        },
      };
    },
  };
}

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

/** Apollo Gateway refuses an operationName the document does not hold as INVALID_GRAPHQL, which Apollo Server answers 500: it is the client's mistake. */
export const invalidOperationIsClientError: ApolloServerPlugin<GatewayContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ errors, response }) {
        if (errors?.some((e) => e.extensions?.code === 'INVALID_GRAPHQL')) response.http.status = 400;
      },
    };
  },
};
