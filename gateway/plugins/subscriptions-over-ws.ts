import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError } from 'graphql';
import type { GatewayContext } from '../subgraph-data-source.js';

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
