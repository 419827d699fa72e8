import type { ApolloServerPlugin } from '@apollo/server';
import { operationOutcome, type OperationMetrics, type OperationSeen } from '../../platform/metrics/graphql.js';
import { secondsSince } from '../../platform/metrics/metric.js';
import type { GatewayContext } from '../subgraph-data-source.js';

/**
 * RED per operation of what Apollo's pipeline answers (the plan shortcut counts its own):
 * the name once the document validated, the outcome from the answer's status and error codes.
 * Listed after the plugins that change the answer's status.
 */
export function operationMetrics(metrics: OperationMetrics): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      const started = performance.now();
      let seen: OperationSeen = {};
      return {
        async didResolveOperation({ operationName, operation }) {
          seen = { name: operationName, type: operation?.operation };
        },
        async willSendResponse({ response }) {
          const errors = response.body.kind === 'single' ? response.body.singleResult.errors : undefined;
          metrics.observe(seen, operationOutcome(response.http.status ?? 200, errors), secondsSince(started));
        },
      };
    },
  };
}
