import { ApolloGateway } from '@apollo/gateway';
import { limitBytes } from '../platform/graphql/apollo-http.js';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import express from 'express';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Principal } from '../platform/auth/principal.js';
import { AppError } from '../platform/errors.js';
import { mountObservability } from '../platform/http/observability.js';
import { API_SCHEMA_PATH, apiSchemaSdl } from './api-schema.js';
import { REQUEST_ID_HEADER, type Logger } from '../platform/logger.js';
import { asAppError, edgeAuth, type Authenticate } from './edge-auth.js';
import { chargeMutationFields, invalidOperationIsClientError, subscriptionsOverWebSocket } from './apollo-plugins.js';
import { appErrorReply, graphqlPipeline, serveGraphql, type GraphqlReply } from './graphql-request.js';
import { createErrorFormatter } from './format-error.js';
import { graphqlHttpErrorHandler, sendAppError } from './http-errors.js';
import { SubgraphDataSource, type GatewayContext } from './subgraph-data-source.js';
import { clientIpOf, trustedProxies } from '../platform/http/trusted-proxies.js';
import { SubscriptionRouter } from './subscriptions.js';
import { SingleFetchShortcut } from './single-fetch.js';
import { multipartUploads } from './uploads.js';
import { CONSOLE_PATH, consoleApp } from './console.js';
import { fileDownloads } from './files.js';
import { FILE_ROUTE } from '../platform/storage/file-routes.js';
import { hasFileParts } from '../platform/graphql/upload.js';
import { forwardMagicLinks, MAGIC_LINK_PATH } from '../platform/http/magic-link.js';
import { serveGraphqlWs } from './ws-server.js';
import { GRAPHIQL_ASSETS_PATH, graphiqlAssets, graphiqlPage } from './graphiql.js';

export const GRAPHQL_PATH = '/graphql';
/** 204 when the request's credentials are valid (counted against no rate limit): the REST adapter asks before reading a large body. */
export const AUTH_CHECK_PATH = '/auth/check';
export const MAX_JSON_BODY = '2mb';
/**
 * Some keys may send larger bodies. Notify: a 10,000-recipient batch (`sendNotificationBatch`)
 * does not fit in 2 MB once each recipient carries its template data (about 1 KB each fits in
 * 10 MB). Verification: images sent as base64 (a selfie and a document of up to 10 MB each).
 */
export const SERVICE_MAX_JSON_BODY: Partial<Record<string, string>> = { notify: '10mb', verification: '28mb', all: '28mb' };
const bodyLimitOf = (principal: Principal | undefined) => SERVICE_MAX_JSON_BODY[principal?.service ?? ''] ?? MAX_JSON_BODY;

/** graphql-armor limits (ARCHITECTURE.md: request limits at the edge). */
/** The limits every operation must pass (graphql-armor): depth, aliases, tokens, cost. */
export const ARMOR = {
  maxDepth: { n: 12 },
  maxAliases: { n: 15 },
  maxTokens: { n: 2000 },
  costLimit: { maxCost: 5000 },
};

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

/** One GraphQL request made inside this process (the REST adapter beside the gateway), as if it came over HTTP. */
export interface LocalRequest {
  query: string;
  variables: Record<string, unknown>;
  /** The caller's headers (credentials, idempotency key, request id), lower-case names. */
  headers: Record<string, string>;
  /** The caller's address (for the admin-secret throttle and geolocation). */
  ip?: string;
  /** Size of the caller's body when known; else measured from the variables (the JSON body limits apply). */
  bodyBytes?: number;
}

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
  checkCredentials(headers: Record<string, string>, ip?: string): Promise<LocalReply | null>;
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
  const gateway = new ApolloGateway({
    supergraphSdl: opts.supergraphSdl,
    // composed and validated at build time (npm run schema; test/platform.e2e.test.ts holds it to the subgraphs)
    validateSupergraph: false,
    logger: logger.child({ component: 'apollo-gateway' }),
    buildService: ({ name, url }) => {
      const source = new SubgraphDataSource(name, opts.subgraphUrls?.[name] ?? url ?? '', internalSecret, opts.shareQueries ?? true);
      dataSources.set(name, source);
      return source;
    },
  });

  const armor = new ApolloArmor({ ...ARMOR, blockFieldSuggestion: { enabled: production } }).protect();
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
  const shortcut = new SingleFetchShortcut({
    planning: () => router.planning(),
    url: (name) => dataSources.get(name)?.url,
    internalSecret,
    validationRules,
    production,
    formatError,
    shareQueries: opts.shareQueries ?? true,
  });

  const trust = trustedProxies(opts.trustedProxies ?? ['loopback']);
  const app = express();
  app.set('trust proxy', trust);
  const server = createServer(app);
  mountObservability(app, { service: 'gateway', logger, metricsToken: opts.metricsToken, ready: async () => router.schema !== undefined });

  const apollo = new ApolloServer<GatewayContext>({
    gateway,
    formatError,
    csrfPrevention: true,
    introspection: !production,
    includeStacktraceInErrorResponses: false,
    allowBatchedHttpRequests: false,
    validationRules,
    plugins: [
      ...(armor.plugins as ApolloServerPlugin<GatewayContext>[]),
      subscriptionsOverWebSocket(GRAPHQL_PATH),
      chargeMutationFields,
      invalidOperationIsClientError,
      ApolloServerPluginDrainHttpServer({ httpServer: server }),
      // browsers get GraphiQL (graphiql.ts), served offline; Apollo's landing page loads a CDN
      ApolloServerPluginLandingPageDisabled(),
    ],
    logger,
  });
  await apollo.start();
  const run = graphqlPipeline({ apollo, shortcut, authenticate: opts.authenticate, logger });

  const parsers = new Map(
    [MAX_JSON_BODY, ...Object.values(SERVICE_MAX_JSON_BODY)].map((limit) => [limit, express.json({ limit })] as const),
  );
  // the body limit depends on who calls: it is read after authentication
  const jsonBody: express.RequestHandler = (req, res, next) => {
    parsers.get(bodyLimitOf(res.locals.principal as Principal | undefined))!(req, res, next);
  };
  // the public schema for code generators: what introspection would give, without a key (printed
  // when first asked for: a start does not pay for it)
  let apiSchema: string | undefined;
  app.get(API_SCHEMA_PATH, (_req, res) => {
    res.type('text/plain; charset=utf-8').send((apiSchema ??= apiSchemaSdl(opts.supergraphSdl)));
  });
  app.get(AUTH_CHECK_PATH, async (req, res) => {
    try {
      await opts.authenticate({ headers: req.headers, ip: req.ip, units: 0 });
      res.status(204).end();
    } catch (error) {
      sendAppError(res, asAppError(error, logger));
    }
  });
  // public: a magic link's token is its credential (the verification subgraph checks it)
  app.get(
    MAGIC_LINK_PATH,
    forwardMagicLinks(() => dataSources.get('verification')?.url, logger),
  );
  app.get(
    FILE_ROUTE,
    edgeAuth(opts.authenticate, logger),
    fileDownloads((name) => dataSources.get(name)?.url, internalSecret, logger),
  );
  // public: GraphiQL's page and files carry no data; what it sends is authenticated like any request
  app.use(GRAPHIQL_ASSETS_PATH, graphiqlAssets());
  // the review console: public files likewise, its calls are the graph's own with the reviewer's key
  app.use(CONSOLE_PATH, consoleApp());
  app.use(
    GRAPHQL_PATH,
    graphiqlPage,
    // Authenticate before reading a (possibly large) body.
    edgeAuth(opts.authenticate, logger),
    jsonBody,
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

  // the REST adapter's door: the same authentication and JSON limit as POST /graphql, then the same pipeline
  const execute = async (request: LocalRequest): Promise<LocalReply> => {
    const { headers } = request;
    let identity: Awaited<ReturnType<Authenticate>>;
    try {
      identity = await opts.authenticate({ headers, ip: request.ip });
    } catch (error) {
      return appErrorReply(asAppError(error, logger), (error as { headers?: Record<string, string> }).headers);
    }
    const body = { query: request.query, variables: request.variables };
    // files travel as FilePart values, as the multipart middleware leaves them (each file limited on its own)
    const files = hasFileParts(request.variables);
    const limit = limitBytes(bodyLimitOf(identity.principal));
    if (!files && (request.bodyBytes ?? Buffer.byteLength(JSON.stringify(body))) > limit) {
      return appErrorReply(new AppError('PAYLOAD_TOO_LARGE', 'Request body is too large'), identity.headers);
    }
    const reply = await run({
      principal: identity.principal,
      headers: {
        ...headers,
        'content-type': 'application/json',
        ...(files && { 'apollo-require-preflight': 'true' }),
      },
      method: 'POST',
      search: '',
      body,
      url: GRAPHQL_PATH,
      ip: request.ip,
      clientIp: request.ip,
      requestId: headers[REQUEST_ID_HEADER] ?? randomUUID(),
    });
    for (const [name, value] of Object.entries(identity.headers ?? {})) if (!reply.headers.has(name)) reply.headers.set(name, value);
    return reply;
  };

  let stopping: Promise<void> | undefined;
  return {
    url,
    wsUrl: url.replace(/^http/, 'ws'),
    server,
    execute,
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
