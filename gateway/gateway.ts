import { ApolloGateway } from '@apollo/gateway';
import { limitBytes, responseText } from '../platform/graphql/apollo-http.js';
import { ApolloServer, HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import express from 'express';
import { GraphQLError } from 'graphql';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Principal } from '../platform/auth/principal.js';
import { AppError, badInput } from '../platform/errors.js';
import { graphqlHasNulEscape, nulMessage, nulPath, urlHasNul } from '../platform/http/nul.js';
import { mountObservability } from '../platform/http/observability.js';
import { API_SCHEMA_PATH, apiSchemaSdl } from './api-schema.js';
import { REQUEST_ID_HEADER, type Logger } from '../platform/logger.js';
import { asAppError, edgeAuth, type Authenticate } from './edge-auth.js';
import { rateLimitUnits } from './operation-cost.js';
import { createErrorFormatter } from './format-error.js';
import { graphqlHttpErrorHandler, sendAppError } from './http-errors.js';
import { IDEMPOTENCY_KEY_HEADER, SubgraphDataSource, type GatewayContext } from './subgraph-data-source.js';
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
export interface LocalReply {
  status: number;
  headers: Headers;
  body: string;
}

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

/** An AppError thrown inside Apollo's pipeline, answered with its HTTP status and headers. */
function withHttpStatus(error: AppError, headers: Record<string, string> = {}): GraphQLError {
  const { retryAfter } = error.extensions as { retryAfter?: unknown };
  const all = new Map(Object.entries(headers));
  if (retryAfter !== undefined) all.set('Retry-After', String(retryAfter));
  return new GraphQLError(error.message, { extensions: { ...error.extensions, http: { status: error.status, headers: all } } });
}

/** @apollo/gateway cannot run subscriptions; say where they live instead of failing with INTERNAL. */
const subscriptionsOverWebSocket: ApolloServerPlugin<GatewayContext> = {
  async requestDidStart() {
    return {
      async didResolveOperation({ operation }) {
        if (operation?.operation === 'subscription') {
          throw new GraphQLError(`Subscriptions are served over graphql-ws on ${GRAPHQL_PATH}`, {
            extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } },
          });
        }
      },
    };
  },
};

/**
 * The edge counted one request before the body was read; a mutation with several root fields
 * (aliases) is charged the rest here, once the operation is known.
 */
const chargeMutationFields: ApolloServerPlugin<GatewayContext> = {
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
const invalidOperationIsClientError: ApolloServerPlugin<GatewayContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ errors, response }) {
        if (errors?.some((e) => e.extensions?.code === 'INVALID_GRAPHQL')) response.http.status = 400;
      },
    };
  },
};

/** The answer `sendAppError` gives over HTTP, for an in-process request. */
function appErrorReply(error: AppError, headers: Record<string, string> = {}): LocalReply {
  const { retryAfter, messages } = error.extensions as { retryAfter?: unknown; messages?: unknown };
  const all = new Headers(headers);
  if (error.code === 'RATE_LIMITED' && retryAfter !== undefined) all.set('retry-after', String(retryAfter));
  const extensions = { code: error.code, ...(messages !== undefined && { messages }), ...(retryAfter !== undefined && { retryAfter }) };
  return { status: error.status, headers: all, body: JSON.stringify({ errors: [{ message: error.message, extensions }] }) };
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
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
      subscriptionsOverWebSocket,
      chargeMutationFields,
      invalidOperationIsClientError,
      ApolloServerPluginDrainHttpServer({ httpServer: server }),
      // browsers get GraphiQL (graphiql.ts), served offline; Apollo's landing page loads a CDN
      ApolloServerPluginLandingPageDisabled(),
    ],
    logger,
  });
  await apollo.start();

  const contextOf = (
    principal: Principal,
    headers: IncomingHttpHeaders,
    requestId: string,
    clientIp?: string,
    ip?: string,
  ): GatewayContext => ({
    principal,
    requestId,
    idempotencyKey: header(headers, IDEMPOTENCY_KEY_HEADER),
    clientIp,
    charge: async (units: number) => {
      try {
        await opts.authenticate({ headers, ip, units });
      } catch (error) {
        throw withHttpStatus(asAppError(error, logger), (error as { headers?: Record<string, string> }).headers);
      }
    },
  });

  const parsers = new Map(
    [MAX_JSON_BODY, ...Object.values(SERVICE_MAX_JSON_BODY)].map((limit) => [limit, express.json({ limit })] as const),
  );
  // the body limit depends on who calls: it is read after authentication
  const jsonBody: express.RequestHandler = (req, res, next) => {
    const service = (res.locals.principal as Principal | undefined)?.service ?? '';
    parsers.get(SERVICE_MAX_JSON_BODY[service] ?? MAX_JSON_BODY)!(req, res, next);
  };
  // NUL in a query, its variables or the URL: 400 here rather than 500 from PostgreSQL
  const refuseNul: express.RequestHandler = (req, res, next) => {
    const where = urlHasNul(req.originalUrl) ? 'the URL' : nulPath(req.body ?? {});
    const document = typeof req.body?.query === 'string' ? req.body.query : '';
    if (where !== null || graphqlHasNulEscape(document)) return sendAppError(res, badInput(nulMessage(where ?? 'query')));
    next();
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
    refuseNul,
    multipartUploads(() => router.schema),
    // a query one subgraph answers as asked skips Apollo's pipeline (single-fetch.ts)
    ((req, res, next) => {
      if (req.method !== 'POST' || !req.is('application/json') || req.headers.accept?.includes('application/graphql-response+json'))
        return next();
      const context = contextOf(
        res.locals.principal as Principal,
        req.headers,
        header(req.headers, REQUEST_ID_HEADER)!,
        clientIpOf(req, trust),
        req.ip,
      );
      shortcut
        .run(req.body ?? {}, context)
        .then((text) => (text === null ? next() : void res.type('application/json; charset=utf-8').send(text)), next);
    }) satisfies express.RequestHandler,
    expressMiddleware(apollo, {
      context: async ({ req, res }) =>
        contextOf(
          res.locals.principal as Principal,
          req.headers,
          header(req.headers, REQUEST_ID_HEADER)!, // set by the observability middleware
          clientIpOf(req, trust),
          req.ip,
        ),
    }),
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

  const execute = async (request: LocalRequest): Promise<LocalReply> => {
    const { headers } = request;
    let identity: Awaited<ReturnType<Authenticate>>;
    try {
      identity = await opts.authenticate({ headers, ip: request.ip });
    } catch (error) {
      return appErrorReply(asAppError(error, logger), (error as { headers?: Record<string, string> }).headers);
    }
    const body = { query: request.query, variables: request.variables };
    // the limits of POST /graphql: JSON size by the caller's service (files are limited one by one), NUL anywhere
    const limit = limitBytes(SERVICE_MAX_JSON_BODY[identity.principal.service ?? ''] ?? MAX_JSON_BODY);
    const files = hasFileParts(request.variables);
    if (!files && (request.bodyBytes ?? Buffer.byteLength(JSON.stringify(body))) > limit) {
      return appErrorReply(new AppError('PAYLOAD_TOO_LARGE', 'Request body is too large'), identity.headers);
    }
    const where = nulPath(body);
    if (where !== null) return appErrorReply(badInput(nulMessage(where)), identity.headers);
    const context = contextOf(identity.principal, headers, headers[REQUEST_ID_HEADER] ?? randomUUID(), request.ip, request.ip);
    const answered = files ? null : await shortcut.run(body, context);
    if (answered !== null) {
      const replyHeaders = new Headers(identity.headers);
      replyHeaders.set('content-type', 'application/json; charset=utf-8');
      return { status: 200, headers: replyHeaders, body: answered };
    }
    const response = await apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: {
        method: 'POST',
        // files travel as FilePart values, as the multipart middleware leaves them
        headers: new HeaderMap([
          ['content-type', 'application/json'],
          ...(files ? [['apollo-require-preflight', 'true'] as [string, string]] : []),
        ]),
        search: '',
        body,
      },
      context: async () => context,
    });
    const text = await responseText(response);
    const replyHeaders = new Headers(identity.headers);
    for (const [name, value] of response.headers) replyHeaders.set(name, value);
    return { status: response.status ?? 200, headers: replyHeaders, body: text };
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
