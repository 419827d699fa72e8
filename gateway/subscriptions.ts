import { buildOperationContext, executeQueryPlan, type ApolloGateway, type GraphQLDataSource } from '@apollo/gateway';
import { operationFromDocument, Supergraph, type Schema } from '@apollo/federation-internals';
import { QueryPlanner, type QueryPlan, type SubscriptionNode } from '@apollo/query-planner';
import {
  getOperationAST,
  getVariableValues,
  GraphQLError,
  NoSchemaIntrospectionCustomRule,
  parse,
  recommendedRules,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import { createClient, type Client, type FormattedExecutionResult, type SubscribePayload } from 'graphql-ws';
import WebSocket from 'ws';
import { connectionScope } from '../platform/auth/principal.js';
import { MAX_TOKENS } from './operation-cost.js';
import type { Logger } from '../platform/logger.js';
import { PushIterator } from '../platform/events/push-iterator.js';
import { forwardedHeaders, type GatewayContext, type SubgraphDataSource } from './subgraph-data-source.js';

/** Plans are cached by operation text; a full cache starts over rather than growing without bound. */
const MAX_CACHED_PLANS = 1000;

type RequestContext = Parameters<typeof executeQueryPlan>[2];
type OperationContext = Parameters<typeof executeQueryPlan>[3];
type SubgraphResponse = Awaited<ReturnType<GraphQLDataSource['process']>>;

/** Everything derived from one supergraph; replaced as a whole when the gateway loads a new one. */
interface SchemaState {
  apiSchema: GraphQLSchema;
  planningSchema: Schema;
  supergraphSchema: GraphQLSchema;
  planner: QueryPlanner;
  plans: Map<string, QueryPlan>;
}

/**
 * The upstream graphql-ws clients of one client connection, one per subgraph: that connection's
 * subscriptions share one socket per subgraph (lazy: opened by the first subscription, closed
 * after the last, signed afresh at each opening).
 */
export class UpstreamConnections {
  private readonly clients = new Map<string, Client>();

  constructor(
    private readonly connectionParams: (serviceName: string) => Record<string, string>,
    private readonly onDispose: (self: UpstreamConnections) => void,
  ) {}

  client(serviceName: string, httpUrl: string): Client {
    let client = this.clients.get(serviceName);
    if (!client) {
      client = createClient({
        url: httpUrl.replace(/^http/, 'ws'),
        webSocketImpl: WebSocket,
        connectionParams: () => this.connectionParams(serviceName),
        retryAttempts: 0,
      });
      this.clients.set(serviceName, client);
    }
    return client;
  }

  dispose(): void {
    for (const client of this.clients.values()) void client.dispose();
    this.clients.clear();
    this.onDispose(this);
  }
}

/** One client operation, validated and planned; graphql-ws passes it back as the contextValue. */
interface PreparedOperation {
  context: GatewayContext;
  upstreams: UpstreamConnections;
  state: SchemaState;
  plan: QueryPlan;
  document: DocumentNode;
  operationName?: string;
  variables: Record<string, unknown>;
  operationContext: OperationContext;
}

export interface SubscriptionRouterOptions {
  gateway: ApolloGateway;
  /** The gateway's subgraph data sources by service name (filled by its buildService). */
  dataSources: ReadonlyMap<string, SubgraphDataSource>;
  internalSecret: string;
  logger: Logger;
  /** graphql-armor's rules, as on the HTTP path. */
  validationRules: ValidationRule[];
  production: boolean;
}

const badInput = (message: string, error?: GraphQLError) =>
  new GraphQLError(message, { nodes: error?.nodes, extensions: { code: 'BAD_USER_INPUT' } });

/**
 * Runs graphql-ws operations through the federated graph, which @apollo/gateway cannot do for
 * subscriptions ("Execution of subscriptions not supported"). A subscription's plan is
 * SubscriptionNode { primary, rest }: the primary subgraph is subscribed to over graphql-ws with
 * `primary.operation`, and every event it sends is completed by executing Sequence[primary, rest]
 * with the primary fetch answered by that event, so the other subgraphs' fields are fetched,
 * merged and shaped exactly as for a query. Queries and mutations sent over the socket run their
 * plan directly.
 */
export class SubscriptionRouter {
  private state?: SchemaState;
  private readonly connections = new Set<UpstreamConnections>();

  constructor(private readonly opts: SubscriptionRouterOptions) {
    opts.gateway.onSchemaLoadOrUpdate(({ apiSchema, coreSupergraphSdl }) => this.load(apiSchema, coreSupergraphSdl));
  }

  /** The API schema clients see; undefined until the gateway has loaded the supergraph. */
  get schema(): GraphQLSchema | undefined {
    return this.state?.apiSchema;
  }

  /** The current schema and its (cached) planner, for the HTTP path's single-fetch shortcut. */
  planning(): { apiSchema: GraphQLSchema; plan(document: DocumentNode, text: string, operationName?: string): QueryPlan } | undefined {
    const state = this.state;
    return (
      state && { apiSchema: state.apiSchema, plan: (document, text, operationName) => this.plan(state, document, text, operationName) }
    );
  }

  private load(apiSchema: GraphQLSchema, supergraphSdl: string): void {
    const supergraph = Supergraph.build(supergraphSdl);
    this.state = {
      apiSchema,
      planningSchema: supergraph.apiSchema(),
      supergraphSchema: supergraph.schema.toGraphQLJSSchema(),
      planner: new QueryPlanner(supergraph),
      plans: new Map(),
    };
  }

  /** The upstream sockets of a new client connection (dispose them when it closes). */
  openConnection(context: GatewayContext): UpstreamConnections {
    const connections = new UpstreamConnections(
      (serviceName) => forwardedHeaders(context, this.opts.internalSecret, connectionScope(serviceName, context.requestId)),
      (self) => this.connections.delete(self),
    );
    this.connections.add(connections);
    return connections;
  }

  /**
   * graphql-ws onSubscribe: parse, validate, coerce variables and plan; errors go back to the client.
   * Nothing may throw from here: graphql-ws would close the whole socket (4500) for it.
   */
  prepare(payload: SubscribePayload, context: GatewayContext, upstreams: UpstreamConnections): ExecutionArgs | GraphQLError[] {
    const state = this.state;
    if (!state) return [new GraphQLError('The gateway is starting', { extensions: { code: 'UNAVAILABLE' } })];
    try {
      return this.prepareWith(state, payload, context, upstreams);
    } catch (error) {
      // Planning failed on a valid operation: ours to fix, so INTERNAL (logged by the formatter).
      return [new GraphQLError('The operation could not be planned', { originalError: error as Error })];
    }
  }

  private prepareWith(
    state: SchemaState,
    payload: SubscribePayload,
    context: GatewayContext,
    upstreams: UpstreamConnections,
  ): ExecutionArgs | GraphQLError[] {
    let document: DocumentNode;
    let invalid: readonly GraphQLError[];
    try {
      document = parse(payload.query, { maxTokens: MAX_TOKENS });
      const rules = [
        ...specifiedRules,
        ...recommendedRules,
        ...this.opts.validationRules,
        ...(this.opts.production ? [NoSchemaIntrospectionCustomRule] : []),
      ];
      invalid = validate(state.apiSchema, document, rules);
    } catch (error) {
      // Syntax errors, and graphql-js rules that throw (e.g. @skip(if: $var) on a subscription's root field).
      return [badInput((error as Error).message)];
    }
    if (invalid.length > 0) return invalid.map((error) => badInput(this.maskSuggestions(error.message), error));

    const operationName = payload.operationName ?? undefined;
    const operation = getOperationAST(document, operationName);
    if (!operation) return [badInput('Unable to identify the operation to run')];
    const variables = payload.variables ?? {};
    const coerced = getVariableValues(state.apiSchema, operation.variableDefinitions ?? [], variables);
    if (coerced.errors) return [...coerced.errors];

    const prepared: PreparedOperation = {
      context,
      upstreams,
      state,
      plan: this.plan(state, document, payload.query, operationName),
      document,
      operationName,
      variables,
      operationContext: buildOperationContext({ schema: state.apiSchema, operationDocument: document, operationName }),
    };
    return { schema: state.apiSchema, document, operationName, variableValues: variables, contextValue: prepared };
  }

  /** graphql-ws `execute` (queries and mutations over the socket). */
  execute(args: ExecutionArgs): Promise<ExecutionResult> {
    const op = args.contextValue as PreparedOperation;
    return this.run(op.plan, this.services(), op);
  }

  /** graphql-ws `subscribe`: an iterator of fully resolved events whose `return()` closes the upstream. */
  subscribe(args: ExecutionArgs): AsyncIterableIterator<ExecutionResult> | Promise<ExecutionResult> | ExecutionResult {
    const op = args.contextValue as PreparedOperation;
    const node = op.plan.node;
    // Defensive: a validated subscription always plans to a SubscriptionNode.
    if (node?.kind !== 'Subscription') return this.execute(args);
    const { primary } = node;
    const source = this.opts.dataSources.get(primary.serviceName);
    if (!source) return { errors: [new GraphQLError(`No data source for subgraph ${primary.serviceName}`)] };

    const client = op.upstreams.client(primary.serviceName, source.url);
    let unsubscribe = () => {};
    const close = () => unsubscribe();
    const events = new PushIterator<ExecutionResult>(close);
    const variables = Object.fromEntries(
      (primary.variableUsages ?? []).filter((name) => name in op.variables).map((name) => [name, op.variables[name]]),
    );
    unsubscribe = client.subscribe<Record<string, unknown>>(
      { query: primary.operation, operationName: primary.operationName, variables },
      {
        next: (event) => events.push(this.resolveEvent(event, node, op)),
        error: (error) => {
          events.push({ errors: this.upstreamErrors(error, primary.serviceName) });
          events.end();
          close();
        },
        complete: () => {
          events.end();
          close();
        },
      },
    );
    return events;
  }

  /** Closes every upstream socket (gateway shutdown). */
  close(): void {
    for (const connections of [...this.connections]) connections.dispose();
  }

  private plan(state: SchemaState, document: DocumentNode, text: string, operationName?: string): QueryPlan {
    const key = `${operationName ?? ''}\n${text}`;
    let plan = state.plans.get(key);
    if (!plan) {
      plan = state.planner.buildQueryPlan(operationFromDocument(state.planningSchema, document, { operationName }));
      if (state.plans.size >= MAX_CACHED_PLANS) state.plans.clear();
      state.plans.set(key, plan);
    }
    return plan;
  }

  private services(): Record<string, GraphQLDataSource> {
    return Object.fromEntries(this.opts.dataSources);
  }

  /** Completes one upstream event: the primary fetch answers with the event, `rest` fetches the other subgraphs. */
  private async resolveEvent(
    event: FormattedExecutionResult<Record<string, unknown>, unknown>,
    node: SubscriptionNode,
    op: PreparedOperation,
  ): Promise<ExecutionResult> {
    const eventSource: GraphQLDataSource = { process: async () => event as SubgraphResponse };
    const plan: QueryPlan = {
      kind: 'QueryPlan',
      node: { kind: 'Sequence', nodes: node.rest ? [node.primary, node.rest] : [node.primary] },
    };
    try {
      return await this.run(plan, { ...this.services(), [node.primary.serviceName]: eventSource }, op);
    } catch (error) {
      // The formatter turns this into INTERNAL with a logged error id.
      return { errors: [new GraphQLError('Subscription event could not be resolved', { originalError: error as Error })] };
    }
  }

  private run(plan: QueryPlan, services: Record<string, GraphQLDataSource>, op: PreparedOperation): Promise<ExecutionResult> {
    const requestContext = {
      request: { query: undefined, variables: op.variables, operationName: op.operationName },
      context: op.context,
      document: op.document,
      operationName: op.operationName ?? null,
      logger: this.opts.logger,
      // executeQueryPlan records fetch errors into metrics; without this object it throws.
      metrics: {},
    } as unknown as RequestContext;
    return executeQueryPlan(plan, services, requestContext, op.operationContext, op.state.supergraphSchema, op.state.planningSchema);
  }

  /** An upstream failure as GraphQL errors: the subgraph's own errors keep their codes; a dropped socket is UNAVAILABLE. */
  private upstreamErrors(error: unknown, serviceName: string): GraphQLError[] {
    if (Array.isArray(error)) {
      return error.map(
        (e: { message: string; extensions?: Record<string, unknown> }) => new GraphQLError(e.message, { extensions: e.extensions }),
      );
    }
    const { code, reason } = (error ?? {}) as { code?: unknown; reason?: unknown };
    this.opts.logger.warn(
      { serviceName, code, reason, err: error instanceof Error ? error : undefined },
      'upstream subscription ended with an error',
    );
    return [new GraphQLError('The subscription source closed unexpectedly', { extensions: { code: 'UNAVAILABLE' } })];
  }

  /** Field suggestions reveal the schema; production hides them as graphql-armor does over HTTP. */
  private maskSuggestions(message: string): string {
    return this.opts.production ? message.replace(/ ?Did you mean .+\?$/, '') : message;
  }
}
