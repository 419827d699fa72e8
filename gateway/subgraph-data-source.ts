import type { GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { GraphQLError } from 'graphql';
import { isErrorCode } from '../platform/errors.js';
import { principalHeaders, requestDigest, type Principal, type PrincipalScope } from '../platform/auth/principal.js';
import { REQUEST_ID_HEADER } from '../platform/logger.js';
import { traceHeaders } from '../platform/tracing.js';
import { UploadDataSource } from './upload-data-source.js';
import { FilePart } from '../platform/graphql/upload.js';
import type { SubgraphFetchMetrics } from '../platform/metrics/graphql.js';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** What the gateway knows about one client request, for every subgraph call it makes. */
export interface GatewayContext {
  principal: Principal;
  requestId: string;
  idempotencyKey?: string;
  /** The caller's IP: the socket's, or the X-Forwarded-For hop a trusted proxy (the REST adapter) set. */
  clientIp?: string;
  /** Counts more units of this request against the caller's rate limits (throws when refused). */
  charge?: (units: number) => Promise<void>;
  /** The caller's request carried files (multipart): only then may a subgraph call carry any. */
  uploads?: boolean;
}

export const CLIENT_IP_HEADER = 'x-forwarded-for';

/**
 * Headers (HTTP) or connectionParams (graphql-ws) that carry a request's identity to one subgraph:
 * its principal signed for `scope`, or (null) not at all, for a subgraph in this process that is
 * handed the principal itself (`callSubgraph`).
 */
export function forwardedHeaders(context: GatewayContext, internalSecret: string, scope: PrincipalScope | null): Record<string, string> {
  return {
    ...(scope && principalHeaders(context.principal, internalSecret, scope)),
    [REQUEST_ID_HEADER]: context.requestId,
    ...(context.idempotencyKey && { [IDEMPOTENCY_KEY_HEADER]: context.idempotencyKey }),
    ...(context.clientIp && { [CLIENT_IP_HEADER]: context.clientIp }),
    // the subgraph continues the request's trace (HTTP header, or graphql-ws connectionParams)
    ...traceHeaders(),
  };
}

/** A query (the plan's fetches print their operation type, or `{` for a query), never a mutation. */
const isQuery = (document: string | undefined) => document !== undefined && /^\s*(query\b|\{)/.test(document);

/** Who a call is made for, as far as a subgraph can tell: calls only share between the same caller. */
export const callerIdentity = (context: GatewayContext) =>
  JSON.stringify([context.principal, context.clientIp ?? null, context.idempotencyKey ?? null]);

/** A subgraph as the gateway calls it: the signed principal, request id and idempotency key go along. */
export class SubgraphDataSource extends UploadDataSource<GatewayContext> {
  constructor(
    /** The subgraph's name: the audience of the principals signed for it. */
    readonly name: string,
    url: string,
    private readonly internalSecret: string,
    /** Identical queries in flight for the same caller share one call (`joinOrCall`). */
    private readonly shareQueries = true,
    /** The gateway's RED per subgraph call. */
    fetches?: SubgraphFetchMetrics,
  ) {
    super(url, fetches && ((outcome, started) => fetches.observe(name, outcome, started)));
    fetches?.known(name);
  }

  /** Queries for the same caller share a call in flight; mutations never do. */
  protected override sharedAs({ request, context }: GraphQLDataSourceProcessOptions<GatewayContext>): string | undefined {
    return this.shareQueries && context.principal && isQuery(request.query) ? callerIdentity(context as GatewayContext) : undefined;
  }

  /**
   * A subgraph answers some client mistakes (variables its own scalars reject) with HTTP 400 and a
   * GraphQL error body: keep that error's message and code instead of a generic "400: Bad Request",
   * which would reach the client as INTERNAL.
   */
  override async errorFromResponse(response: Parameters<UploadDataSource<GatewayContext>['errorFromResponse']>[0]): Promise<GraphQLError> {
    const generic = await super.errorFromResponse(response);
    const body = (
      generic.extensions.response as { body?: { errors?: { message?: string; extensions?: { code?: unknown } }[] } } | undefined
    )?.body;
    const first = body?.errors?.[0];
    const code = first?.extensions?.code;
    if (response.status >= 400 && response.status < 500 && first?.message && (isErrorCode(code) || code === 'GRAPHQL_VALIDATION_FAILED')) {
      return new GraphQLError(first.message, { extensions: { code: isErrorCode(code) ? code : 'BAD_USER_INPUT' } });
    }
    return generic;
  }

  override willSendRequest({ request, context }: GraphQLDataSourceProcessOptions<GatewayContext>): void {
    // Health checks and schema loads carry no client context.
    if (!context.principal) return;
    for (const [name, value] of Object.entries(forwardedHeaders(context as GatewayContext, this.internalSecret, null))) {
      request.http?.headers.set(name, value);
    }
  }

  protected override principal({ context }: GraphQLDataSourceProcessOptions<GatewayContext>): Principal | undefined {
    return (context as Partial<GatewayContext>).principal;
  }

  protected override signature({ request, context }: GraphQLDataSourceProcessOptions<GatewayContext>): Record<string, string> {
    if (!context.principal) return {};
    const scope = {
      audience: this.name,
      request: requestDigest(request, context.uploads ? (value) => value instanceof FilePart : undefined),
    };
    return principalHeaders(context.principal as Principal, this.internalSecret, scope);
  }
}
