import { ApolloGateway } from '@apollo/gateway';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import express from 'express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mountObservability } from '../platform/http/observability.js';
import type { Logger } from '../platform/logger.js';
import { asAppError, edgeAuth, type Authenticate } from './plugins/authentication.js';
import { chargeMutationFields } from './plugins/rate-limits.js';
import { invalidOperationIsClientError } from './plugins/invalid-operation.js';
import { subscriptionsOverWebSocket } from './plugins/subscriptions-over-ws.js';
import { jsonBody, operationLimits } from './plugins/limits.js';
import {
  appErrorReply,
  graphqlPipeline,
  serveGraphql,
  serveInProcess,
  type GraphqlReply,
  type LocalRequest,
  type TextReply,
} from './graphql-request.js';
import { createErrorFormatter } from './format-error.js';
import { graphqlHttpErrorHandler } from './http-errors.js';
import { SubgraphDataSource, type GatewayContext } from './subgraph-data-source.js';
import { clientIpOf, trustedProxies } from '../platform/http/trusted-proxies.js';
import { SubscriptionRouter } from './subscriptions.js';
import { PlanShortcut } from './plugins/plan-shortcut.js';
import { multipartUploads } from './uploads.js';
import { serveGraphqlWs } from './ws-server.js';
import { mountSideRoutes } from './side-routes.js';
import { graphiqlPage } from './graphiql.js';
import { OperationMetrics, SubgraphFetchMetrics } from '../platform/metrics/graphql.js';
import { operationMetrics } from './plugins/operation-metrics.js';
import { SERVER_TIMEOUTS } from '../platform/http/server-timeouts.js';

export const GRAPHQL_PATH = '/graphql';

export interface GatewayOptions {
  /** Composed supergraph (schema/supergraph.graphql). */
  supergraphSdl: string;
  /** Subgraph name → HTTP URL overriding the supergraph's; the graphql-ws URL is the same with http→ws. */
  subgraphUrls?: Partial<Record<string, string>>;
  /** Throws AppError UNAUTHENTICATED, FORBIDDEN or RATE_LIMITED (extensions.retryAfter in seconds). */
  authenticate: Authenticate;
  /** Signs the principal forwarded to subgraphs. */
  internalSecret: string;
  /** Bearer token of `/metrics` (closed without one). */
  metricsToken?: string;
  /** Peers whose X-Forwarded-For is believed (proxy-addr names, addresses, CIDRs); default loopback. */
  trustedProxies?: string[];
  logger: Logger;
  /** Introspection off and field suggestions hidden when true. */
  production?: boolean;
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /** Listen with SO_REUSEPORT: gateways in several threads share the port. */
  reusePort?: boolean;
  /**
   * Identical subgraph queries in flight for the same caller share one call (default true; see
   * `joinOrCall`). Mutations never share.
   */
  shareQueries?: boolean;
}

export type { LocalRequest };

/** What the HTTP answer would have been: status, headers and the JSON body's text. */
export type LocalReply = GraphqlReply;

export interface RunningGateway {
  /** http://HOST:PORT/graphql */
  url: string;
  wsUrl: string;
  server: Server;
  /**
   * Runs one request through the same edge authentication, rate limits, body and NUL checks and
   * Apollo pipeline as `POST /graphql`, without the loopback HTTP round trip.
   */
  execute(request: LocalRequest): Promise<LocalReply>;
  /** Checks credentials without counting a request (as `GET /auth/check`): null when valid, else the refusal. */
  checkCredentials(headers: Record<string, string>, ip?: string): Promise<TextReply | null>;
  /** Closes the graphql-ws connections whose key is no longer valid (of one API client, or all). */
  recheckConnections(clientId?: string): Promise<void>;
  /** Subscribers served by another subscriber's upstream subscription (see SubscriptionRouter). */
  sharingSubscribers(): number;
  stop(): Promise<void>;
}

/** The federated graph on one port: HTTP GraphQL (queries, mutations, uploads) and graphql-ws (subscriptions) on /graphql. */
export async function startGateway(opts: GatewayOptions): Promise<RunningGateway> {
  const { logger, internalSecret } = opts;
  const production = opts.production ?? false;

  const dataSources = new Map<string, SubgraphDataSource>();
  // RED per operation and per subgraph call (docs/metrics.md)
  const operations = new OperationMetrics();
  const fetches = new SubgraphFetchMetrics();
  const gateway = new ApolloGateway({
    supergraphSdl: opts.supergraphSdl,
    // composed and validated at build time (npm run schema; test/platform.e2e.test.ts holds it to the subgraphs)
    validateSupergraph: false,
    logger: logger.child({ component: 'apollo-gateway' }),
    buildService: ({ name, url }) => {
      const source = new SubgraphDataSource(
        name,
        opts.subgraphUrls?.[name] ?? url ?? '',
        internalSecret,
        opts.shareQueries ?? true,
        fetches,
      );
      dataSources.set(name, source);
      return source;
    },
  });

  const armor = operationLimits(production);
  // graphql-armor's depth limit skips introspection; Apollo Server adds graphql-js's recommended
  // MaxIntrospectionDepthRule over HTTP, and the graphql-ws path applies it too (SubscriptionRouter)
  const validationRules = armor.validationRules;
  // Registered before the gateway loads so it sees the first schema (and every later one).
  const router = new SubscriptionRouter({
    gateway,
    dataSources,
    internalSecret,
    logger,
    validationRules,
    production,
  });
  const formatError = createErrorFormatter({ logger, schema: () => router.schema });
  const shortcut = new PlanShortcut({
    planning: () => router.planning(),
    url: (name) => dataSources.get(name)?.url,
    internalSecret,
    validationRules,
    production,
    formatError,
    shareQueries: opts.shareQueries ?? true,
    operations,
    fetches,
    logger,
  });

  const trust = trustedProxies(opts.trustedProxies ?? ['loopback']);
  const app = express();
  app.set('trust proxy', trust);
  // GraphQL answers are the caller's own and current: no ETag (a SHA-1 of every body) nor 304s
  app.set('etag', false);
  const server = createServer(SERVER_TIMEOUTS, app);
  mountObservability(app, {
    service: 'gateway',
    logger,
    metricsToken: opts.metricsToken,
    ready: async () => router.schema !== undefined,
    metrics: [...operations.metrics, ...fetches.metrics],
  });

  const apollo = new ApolloServer<GatewayContext>({
    gateway,
    formatError,
    csrfPrevention: true,
    introspection: !production,
    includeStacktraceInErrorResponses: false,
    allowBatchedHttpRequests: false,
    validationRules,
    // the process's own shutdown (cli/shutdown.ts) stops the services in order; Apollo's signal
    // handlers would start draining on their own at the same signal, and re-raise it
    stopOnTerminationSignals: false,
    plugins: [
      ...(armor.plugins as ApolloServerPlugin<GatewayContext>[]),
      subscriptionsOverWebSocket(GRAPHQL_PATH),
      chargeMutationFields,
      invalidOperationIsClientError,
      ApolloServerPluginDrainHttpServer({ httpServer: server }),
      // browsers get GraphiQL (graphiql.ts), served offline; Apollo's landing page loads a CDN
      ApolloServerPluginLandingPageDisabled(),
      // after the plugins that change the answer's status
      operationMetrics(operations),
    ],
    logger,
  });
  await apollo.start();
  const run = graphqlPipeline({ apollo, shortcut, authenticate: opts.authenticate, logger });

  mountSideRoutes(app, {
    supergraphSdl: opts.supergraphSdl,
    authenticate: opts.authenticate,
    subgraphUrl: (name) => dataSources.get(name)?.url,
    internalSecret,
    logger,
  });
  app.use(
    GRAPHQL_PATH,
    graphiqlPage,
    // Authenticate before reading a (possibly large) body.
    edgeAuth(opts.authenticate, logger),
    jsonBody(),
    multipartUploads(() => router.schema),
    serveGraphql(run, (req) => clientIpOf(req, trust)),
    graphqlHttpErrorHandler(logger),
  );
  const ws = serveGraphqlWs({
    server,
    path: GRAPHQL_PATH,
    router,
    authenticate: opts.authenticate,
    formatError,
    logger,
    production,
    clientIp: (request) => clientIpOf(request, trust),
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: opts.port, host: opts.host, reusePort: opts.reusePort }, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = !opts.host || opts.host === '0.0.0.0' || opts.host === '::' ? '127.0.0.1' : opts.host;
  const url = `http://${host}:${port}${GRAPHQL_PATH}`;
  logger.info({ url }, 'gateway listening');

  let stopping: Promise<void> | undefined;
  return {
    url,
    wsUrl: url.replace(/^http/, 'ws'),
    server,
    execute: serveInProcess(run, opts.authenticate, logger, GRAPHQL_PATH),
    async checkCredentials(headers, ip) {
      try {
        await opts.authenticate({ headers, ip, units: 0 });
        return null;
      } catch (error) {
        return appErrorReply(asAppError(error, logger));
      }
    },
    recheckConnections: (clientId) => ws.recheck(clientId),
    sharingSubscribers: () => router.sharingSubscribers,
    stop() {
      // WebSockets first (they hold upstream subscriptions), then Apollo, which stops the gateway
      // and drains the HTTP server (ApolloServerPluginDrainHttpServer). Safe to call twice.
      stopping ??= ws.close().then(() => apollo.stop());
      return stopping;
    },
  };
}
