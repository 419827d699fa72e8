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
import { connectionScope, type Principal } from '../platform/auth/principal.js';
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

/** The last supergraph planned in this process: the gateways of one process (a test run's stacks) share its planner and plans. */
let lastPlanning: { supergraphSdl: string; planning: Omit<SchemaState, 'apiSchema'> } | undefined;

function planningOf(supergraphSdl: string): Omit<SchemaState, 'apiSchema'> {
  if (lastPlanning?.supergraphSdl !== supergraphSdl) {
    // validated at build time, as the gateway's own (gateway.ts)
    const supergraph = Supergraph.build(supergraphSdl, { validateSupergraph: false });
    const planning = {
      planningSchema: supergraph.apiSchema(),
      supergraphSchema: supergraph.schema.toGraphQLJSSchema(),
      planner: new QueryPlanner(supergraph),
      plans: new Map<string, QueryPlan>(),
    };
    lastPlanning = { supergraphSdl, planning };
  }
  return lastPlanning.planning;
}

/**
 * Who a subscription is for, as far as the subgraph can tell: what filters and authorizes its
 * events (organization, environment, service, permissions, a session's user). Subscribers with the
 * same one and the same operation get the same events, so they share one upstream subscription.
 */
function audienceOf(principal: Principal | null | undefined): string {
  if (!principal) return 'anonymous';
  const { kind, organizationId, environment, service, permissions, userId } = principal;
  return JSON.stringify([kind, organizationId, environment, service, [...permissions].sort(), userId ?? null]);
}

/** An upstream graphql-ws client of one subgraph for one audience, shared by that audience's subscriptions. */
interface UpstreamClient {
  client: Client;
  subscriptions: number;
}

/**
 * Sends one resolved event to one subscriber. The socket server gives one so that an event shared
 * by a thousand subscribers is serialized once and written to each socket, instead of going
 * through graphql-ws's per-subscriber iteration, serialization and awaited send.
 */
export type Deliver = (result: ExecutionResult) => void;

/** One client's subscription: its events go to `deliver`; the iterator graphql-ws reads carries only the last result and the end. */
interface Subscriber {
  events: PushIterator<ExecutionResult>;
  deliver: Deliver;
}

/** The subscribers of one operation for one audience: one upstream subscription, each event resolved once. */
interface SharedSubscription {
  subscribers: Set<Subscriber>;
  stop(): void;
}

/** One client operation, validated and planned; graphql-ws passes it back as the contextValue. */
interface PreparedOperation {
  context: GatewayContext;
  state: SchemaState;
  /** The operation's text, as sent (with the variables and the audience: what subscribers share on) */
  text: string;
  plan: QueryPlan;
  document: DocumentNode;
  operationName?: string;
  variables: Record<string, unknown>;
  operationContext: OperationContext;
  deliver: Deliver;
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
 * merged and shaped exactly as for a query. Subscribers of the same operation (text, variables)
 * for the same audience (`audienceOf`) share one upstream subscription and each event is resolved
 * once for all of them: a thousand screens following one record cost the subgraph one
 * subscription. Queries and mutations sent over the socket run their plan directly.
 */
export class SubscriptionRouter {
  private state?: SchemaState;
  /** By subgraph and audience. */
  private readonly upstreams = new Map<string, UpstreamClient>();
  /** By audience, subgraph, operation and variables. */
  private readonly shared = new Map<string, SharedSubscription>();

  constructor(private readonly opts: SubscriptionRouterOptions) {
    opts.gateway.onSchemaLoadOrUpdate(({ apiSchema, coreSupergraphSdl }) => this.load(apiSchema, coreSupergraphSdl));
  }

  /** The API schema clients see; undefined until the gateway has loaded the supergraph. */
  get schema(): GraphQLSchema | undefined {
    return this.state?.apiSchema;
  }

  /** The current schema and its (cached) planner, for the HTTP path's plan shortcut. */
  planning(): { apiSchema: GraphQLSchema; plan(document: DocumentNode, text: string, operationName?: string): QueryPlan } | undefined {
    const state = this.state;
    return (
      state && { apiSchema: state.apiSchema, plan: (document, text, operationName) => this.plan(state, document, text, operationName) }
    );
  }

  private load(apiSchema: GraphQLSchema, supergraphSdl: string): void {
    this.state = { apiSchema, ...planningOf(supergraphSdl) };
  }

  /** Subscribers served by another's upstream subscription (the subgraph counts one for all of them). */
  get sharingSubscribers(): number {
    let n = 0;
    for (const shared of this.shared.values()) n += shared.subscribers.size - 1;
    return n;
  }

  /**
   * graphql-ws onSubscribe: parse, validate, coerce variables and plan; errors go back to the client.
   * Nothing may throw from here: graphql-ws would close the whole socket (4500) for it.
   */
  prepare(payload: SubscribePayload, context: GatewayContext, deliver: Deliver): ExecutionArgs | GraphQLError[] {
    const state = this.state;
    if (!state) return [new GraphQLError('The gateway is starting', { extensions: { code: 'UNAVAILABLE' } })];
    try {
      return this.prepareWith(state, payload, context, deliver);
    } catch (error) {
      // Planning failed on a valid operation: ours to fix, so INTERNAL (logged by the formatter).
      return [new GraphQLError('The operation could not be planned', { originalError: error as Error })];
    }
  }

  private prepareWith(
    state: SchemaState,
    payload: SubscribePayload,
    context: GatewayContext,
    deliver: Deliver,
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
      state,
      text: payload.query,
      plan: this.plan(state, document, payload.query, operationName),
      document,
      operationName,
      variables,
      operationContext: buildOperationContext({ schema: state.apiSchema, operationDocument: document, operationName }),
      deliver,
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

    const variables = Object.fromEntries(
      (primary.variableUsages ?? []).filter((name) => name in op.variables).map((name) => [name, op.variables[name]]),
    );
    const audience = audienceOf(op.context.principal);
    const key = JSON.stringify([audience, primary.serviceName, op.operationName ?? null, op.text, op.variables]);
    const shared = this.shared.get(key) ?? this.share(key, audience, node, op, source.url, variables);
    const subscriber: Subscriber = {
      events: new PushIterator(() => {
        shared.subscribers.delete(subscriber);
        if (shared.subscribers.size === 0) shared.stop();
      }),
      deliver: op.deliver,
    };
    shared.subscribers.add(subscriber);
    return subscriber.events;
  }

  /** Opens the upstream subscription a new operation's subscribers will share (`op` resolves every event for all). */
  private share(
    key: string,
    audience: string,
    node: SubscriptionNode,
    op: PreparedOperation,
    url: string,
    variables: Record<string, unknown>,
  ): SharedSubscription {
    const { primary } = node;
    const upstream = this.upstream(primary.serviceName, audience, url, op.context);
    const subscribers = new Set<Subscriber>();
    /** Events are resolved as they come and delivered in order, each once resolved. */
    let delivered: Promise<void> = Promise.resolve();
    let unsubscribe = () => {};
    let stopped = false;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      if (this.shared.get(key) === shared) this.shared.delete(key);
      unsubscribe();
      this.release(primary.serviceName, audience);
    };
    /** The upstream ended: every subscriber gets `last` (if any) and ends. */
    const end = (last?: ExecutionResult) => {
      stop();
      delivered = delivered.then(() => {
        for (const { events } of subscribers) {
          if (last) events.push(last);
          events.end();
        }
        subscribers.clear();
      });
    };
    const shared: SharedSubscription = { subscribers, stop };
    this.shared.set(key, shared);
    upstream.subscriptions += 1;
    unsubscribe = upstream.client.subscribe<Record<string, unknown>>(
      { query: primary.operation, operationName: primary.operationName, variables },
      {
        next: (event) => {
          const resolved = this.resolveEvent(event, node, op);
          delivered = delivered
            .then(async () => {
              const result = await resolved;
              for (const { deliver } of subscribers) deliver(result);
            })
            // a failed delivery must not stop the events after it
            .catch((error: Error) => this.opts.logger.error({ err: error }, 'subscription event not delivered'));
        },
        error: (error) => end({ errors: this.upstreamErrors(error, primary.serviceName) }),
        complete: () => end(),
      },
    );
    return shared;
  }

  /**
   * The graphql-ws client of one subgraph for one audience (lazy: its socket opens with the first
   * subscription and closes after the last, signed afresh at each opening).
   */
  private upstream(serviceName: string, audience: string, url: string, context: GatewayContext): UpstreamClient {
    const key = `${serviceName}\n${audience}`;
    let upstream = this.upstreams.get(key);
    if (!upstream) {
      upstream = {
        client: createClient({
          url: url.replace(/^http/, 'ws'),
          webSocketImpl: WebSocket,
          connectionParams: () => forwardedHeaders(context, this.opts.internalSecret, connectionScope(serviceName, context.requestId)),
          retryAttempts: 0,
        }),
        subscriptions: 0,
      };
      this.upstreams.set(key, upstream);
    }
    return upstream;
  }

  private release(serviceName: string, audience: string): void {
    const key = `${serviceName}\n${audience}`;
    const upstream = this.upstreams.get(key);
    if (!upstream || --upstream.subscriptions > 0) return;
    this.upstreams.delete(key);
    void upstream.client.dispose();
  }

  /** Ends every subscription and closes every upstream socket (gateway shutdown). */
  close(): void {
    for (const shared of [...this.shared.values()]) shared.stop();
    for (const upstream of this.upstreams.values()) void upstream.client.dispose();
    this.upstreams.clear();
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
