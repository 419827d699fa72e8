import type { ApolloServerPlugin } from '@apollo/server';
import type { GatewayContext } from '../subgraph-data-source.js';

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
