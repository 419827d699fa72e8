import 'reflect-metadata';
import http from 'node:http';
import express from 'express';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { getNamedType, GraphQLError, parse, type GraphQLSchema } from 'graphql';
import { buildSchema, createResolversMap, type NonEmptyArray } from 'type-graphql';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import { graphqlUploadExpress, Upload } from 'graphql-upload-minimal';
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_FILES } from './upload.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../db/orm.js';
import { connectionScope, readPrincipal, requestDigest, type Principal, type ServiceName } from '../auth/principal.js';
import { tenantOf, type Tenant } from '../auth/tenant.js';
import type { EventStream } from '../events/event-stream.js';
import { REQUEST_ID_HEADER, type Logger } from '../logger.js';
import { mountObservability } from '../http/observability.js';
import type { Metric } from '../metrics/metric.js';
import { serveInProcess } from '../http/in-process.js';
import { SERVER_TIMEOUTS } from '../http/server-timeouts.js';
import { operationLabel, serveTraced, tracedRequests } from '../tracing.js';
import { formatError } from './format-error.js';
import { executeJsonPost, limitBytes, plainJsonPosts } from './apollo-http.js';
import { answerUserErrorsInPayloads } from './user-errors.js';
import { validateArgument } from './validation.js';

export interface SubgraphContext<Deps = unknown> {
  principal: Principal | null;
  /** The organization and environment an API key acts for (null for the admin secret). */
  tenant: Tenant | null;
  /** Committed outbox events: the source of every subscription (see tenancy.ts `tenantEvents`). */
  events: EventStream;
  /** A fresh EntityManager for this request or subscription event. */
  em: EntityManager;
  requestId: string;
  idempotencyKey?: string;
  /** The caller's IP as the gateway saw it (X-Forwarded-For it sets); absent on graphql-ws. */
  clientIp?: string;
  logger: Logger;
  deps: Deps;
}

export interface SubgraphDefinition<Deps = unknown> {
  name: ServiceName;
  resolvers: NonEmptyArray<Function>;
  /** Entity stubs and types reachable only through federation must be listed or they vanish. */
  orphanedTypes?: Function[];
  /** `__resolveReference` per federated entity type name. */
  referenceResolvers?: Record<string, (ref: { id: string }, ctx: SubgraphContext<Deps>) => unknown>;
  /**
   * Plain HTTP routes the service itself serves (tracking pixels, provider callbacks), mounted
   * before `/graphql`. They are public: they do their own checks and never see a principal.
   */
  routes?: (app: express.Express, deps: Deps) => void;
  /** JSON body limit of `/graphql` (default 2mb); the gateway must let such bodies through too. */
  bodyLimit?: string;
}

const FEDERATION_LINK =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.9", import: ["@key", "@shareable", "@external", "@requires", "@provides", "@listSize"])';

/** Built once per definition in a process: the schema holds no state (resolvers reach a stack's services through the context). */
const builtSubgraphs = new WeakMap<SubgraphDefinition<never>, Promise<{ schema: GraphQLSchema; sdl: string }>>();

/** type-graphql → federation subgraph schema (ARCHITECTURE.md "type-graphql → federation"). */
export function buildSubgraph<Deps>(def: SubgraphDefinition<Deps>): Promise<{ schema: GraphQLSchema; sdl: string }> {
  const key = def as SubgraphDefinition<never>;
  let built = builtSubgraphs.get(key);
  if (!built) builtSubgraphs.set(key, (built = buildSubgraphSchemaOf(def)));
  return built;
}

async function buildSubgraphSchemaOf<Deps>(def: SubgraphDefinition<Deps>): Promise<{ schema: GraphQLSchema; sdl: string }> {
  const base = await buildSchema({
    resolvers: def.resolvers,
    orphanedTypes: def.orphanedTypes,
    skipCheck: true,
    validate: true,
    validateFn: validateArgument,
    // subscriptions use their own `subscribe` over the outbox EventStream; type-graphql insists on a
    // PubSub anyway, so topic-based use fails loudly
    pubSub: {
      publish: () => {
        throw new Error('use recordEvent (outbox) to publish');
      },
      subscribe: () => {
        throw new Error('subscriptions must declare `subscribe`');
      },
    },
  });
  answerUserErrorsInPayloads(base);
  describeInputArguments(base);
  const sdl = `${FEDERATION_LINK}\n\n${printSchemaWithDirectives(base)}`;
  const resolvers = createResolversMap(base) as Record<string, Record<string, unknown>>;
  for (const [type, resolve] of Object.entries(def.referenceResolvers ?? {})) {
    resolvers[type] = { ...resolvers[type], __resolveReference: resolve };
  }
  const schema = buildSubgraphSchema([{ typeDefs: parse(sdl), resolvers: resolvers as never }]);
  return { schema, sdl };
}

/** A mutation's `input` argument says what its input type says (the convention puts everything there). */
function describeInputArguments(schema: GraphQLSchema): void {
  for (const field of Object.values(schema.getMutationType()?.getFields() ?? {})) {
    for (const arg of field.args) {
      if (arg.name === 'input' && !arg.description) arg.description = getNamedType(arg.type).description;
    }
  }
}

export interface SubgraphServerOptions<Deps> {
  definition: SubgraphDefinition<Deps>;
  orm: Orm;
  events: EventStream;
  deps: Deps;
  internalSecret: string;
  metricsToken?: string;
  /** The service's metrics beyond HTTP and the process's defaults (docs/metrics.md). */
  metrics?: readonly Metric[];
  logger: Logger;
  port: number;
  host?: string;
}

export interface RunningSubgraph {
  url: string;
  server: http.Server;
  stop(): Promise<void>;
}

/** The gateway's subscriptions and small operations; large mutations go over HTTP. */
const MAX_WS_PAYLOAD = 2 * 1024 * 1024;

function untrusted(): GraphQLError {
  return new GraphQLError('Subgraphs accept only requests forwarded by the gateway', {
    extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } },
  });
}

/** HTTP (`/graphql`, uploads included) and graphql-ws on the same path; trusts only the gateway. */
export async function startSubgraph<Deps>(opts: SubgraphServerOptions<Deps>): Promise<RunningSubgraph> {
  const { schema } = await buildSubgraph(opts.definition);
  const logger = opts.logger.child({ service: opts.definition.name });
  const app = express();
  // idle keep-alive sockets are closed by the gateway first (a query on one the server had just closed failed with ECONNRESET)
  const server = http.createServer(SERVER_TIMEOUTS, app);
  const registry = mountObservability(app, {
    service: opts.definition.name,
    logger,
    metricsToken: opts.metricsToken,
    metrics: opts.metrics,
    ready: async () => (await opts.orm.em.getConnection().execute('select 1')).length === 1,
  });

  const name = opts.definition.name;
  const wss = new WebSocketServer({ server, path: '/graphql', maxPayload: MAX_WS_PAYLOAD });
  // a connection's principal is checked once, when it opens (its signature expires soon after)
  const principals = new WeakMap<object, Principal>();
  const ws = useServer(
    {
      schema,
      onConnect: (ctx) => {
        const params = ctx.connectionParams;
        const principal = readPrincipal(params, opts.internalSecret, connectionScope(name, params?.[REQUEST_ID_HEADER]));
        if (principal) principals.set(ctx, principal);
        return principal !== null;
      },
      context: (ctx): SubgraphContext<Deps> => {
        const params = ctx.connectionParams ?? {};
        const principal = principals.get(ctx) ?? null;
        return {
          principal,
          tenant: tenantOf(principal),
          events: opts.events,
          em: opts.orm.em.fork(),
          requestId: String(params[REQUEST_ID_HEADER] ?? ''),
          logger,
          deps: opts.deps,
        };
      },
      onError: (_ctx, _id, _payload, errors) => {
        // graphql-ws sends these as they are: keep only message and code
        return errors.map((e) => new GraphQLError(e.message, { extensions: { code: e.extensions?.code ?? 'INTERNAL' } }));
      },
    },
    wss,
  );

  const apollo = new ApolloServer<SubgraphContext<Deps>>({
    schema,
    formatError: formatError(logger),
    includeStacktraceInErrorResponses: false,
    // stopped by the process's own shutdown (cli/shutdown.ts), not by Apollo's signal handlers
    stopOnTerminationSignals: false,
    // no cache hints (the API answers no-store): Apollo's cache-control plugin would otherwise run on every field
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer: server }),
      ApolloServerPluginInlineTraceDisabled(),
      ApolloServerPluginCacheControlDisabled(),
    ],
  });
  await apollo.start();
  opts.definition.routes?.(app, opts.deps);
  const contextOf = (principal: Principal, headers: http.IncomingHttpHeaders): SubgraphContext<Deps> => ({
    principal,
    tenant: tenantOf(principal),
    events: opts.events,
    em: opts.orm.em.fork(),
    requestId: String(headers[REQUEST_ID_HEADER] ?? ''),
    idempotencyKey: headers['idempotency-key'] as string | undefined,
    clientIp: (headers['x-forwarded-for'] as string | undefined)?.split(',')[0]?.trim() || undefined,
    logger: logger.child({ requestId: headers[REQUEST_ID_HEADER] }),
    deps: opts.deps,
  });
  /** The gateway's caller, when the request is signed for this subgraph and this body (Uploads: `isUpload`). */
  const signedPrincipal = (
    headers: http.IncomingHttpHeaders,
    body: Parameters<typeof requestDigest>[0],
    isUpload?: (value: unknown) => boolean,
  ) => readPrincipal(headers, opts.internalSecret, { audience: name, request: requestDigest(body, isUpload) });
  const bodyLimit = opts.definition.bodyLimit ?? '2mb';
  app.use(
    '/graphql',
    express.json({ limit: bodyLimit }),
    tracedRequests(name, (req) => operationLabel(req.body)),
    // what the gateway sends, signed, without Apollo's HTTP integration (see plainJsonPosts)
    plainJsonPosts(apollo, (req) => {
      const principal = signedPrincipal(req.headers, req.body);
      return principal && contextOf(principal, req.headers);
    }),
    graphqlUploadExpress({ maxFileSize: MAX_UPLOAD_BYTES, maxFiles: MAX_UPLOAD_FILES }),
    expressMiddleware(apollo, {
      context: async ({ req }) => {
        const body = (req.body ?? {}) as { query?: string; operationName?: string; variables?: unknown };
        // only a multipart body holds Uploads
        const principal = signedPrincipal(
          req.headers,
          body,
          req.is('multipart/form-data') ? (value) => value instanceof Upload : undefined,
        );
        if (!principal) throw untrusted();
        return contextOf(principal, req.headers);
      },
    }),
  );

  // loopback unless told otherwise: only the gateway should ever call a subgraph
  await new Promise<void>((resolve) => server.listen(opts.port, opts.host ?? '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  const url = `http://127.0.0.1:${port}/graphql`;
  // the gateway in this process calls without HTTP; what that path would refuse (an unsigned call
  // without the caller handed over, a body over the limit, anything but JSON) goes over HTTP and is
  // refused there as always
  const duration = registry.getSingleMetric('http_request_duration_seconds') as { startTimer(labels: object): (labels: object) => void };
  const maxBytes = limitBytes(bodyLimit);
  const unserve = serveInProcess(url, async (call) => {
    if (Buffer.byteLength(call.body) > maxBytes) return null;
    const headers: http.IncomingHttpHeaders = Object.fromEntries(Object.entries(call.headers).map(([k, v]) => [k.toLowerCase(), v]));
    if (!headers['content-type']?.startsWith('application/json')) return null;
    let body: { query?: string; operationName?: string; variables?: unknown };
    try {
      body = JSON.parse(call.body) as typeof body;
    } catch {
      return null;
    }
    // the gateway of this process hands its caller over as is; a signed one is checked as over HTTP
    const principal = call.principal ?? signedPrincipal(headers, body);
    if (!principal) return null;
    const end = duration.startTimer({ method: 'POST' });
    const answer = await serveTraced(
      name,
      () => operationLabel(body),
      headers,
      () => executeJsonPost(apollo, body, contextOf(principal, headers)),
    );
    end({ status: String(answer.status) });
    return answer;
  });
  return {
    url,
    server,
    stop: async () => {
      unserve();
      await ws.dispose();
      wss.close();
      await apollo.stop();
    },
  };
}
