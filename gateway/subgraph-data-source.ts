import type { GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { principalHeaders, type Principal } from '../platform/auth/principal.js';
import { REQUEST_ID_HEADER } from '../platform/logger.js';
import { UploadDataSource } from './upload-data-source.js';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** What the gateway knows about one client request, for every subgraph call it makes. */
export interface GatewayContext {
  principal: Principal;
  requestId: string;
  idempotencyKey?: string;
}

/** Headers (HTTP) or connectionParams (graphql-ws) that carry a request's identity to a subgraph. */
export function forwardedHeaders(context: GatewayContext, internalSecret: string): Record<string, string> {
  return {
    ...principalHeaders(context.principal, internalSecret),
    [REQUEST_ID_HEADER]: context.requestId,
    ...(context.idempotencyKey && { [IDEMPOTENCY_KEY_HEADER]: context.idempotencyKey }),
  };
}

/** A subgraph as the gateway calls it: the signed principal, request id and idempotency key go along. */
export class SubgraphDataSource extends UploadDataSource<GatewayContext> {
  constructor(
    url: string,
    private readonly internalSecret: string,
  ) {
    super({ url });
  }

  override willSendRequest({ request, context }: GraphQLDataSourceProcessOptions<GatewayContext>): void {
    // Health checks and schema loads carry no client context.
    if (!context.principal) return;
    for (const [name, value] of Object.entries(forwardedHeaders(context as GatewayContext, this.internalSecret))) {
      request.http?.headers.set(name, value);
    }
  }
}
