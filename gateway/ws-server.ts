import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, Server } from 'node:http';
import { getOperationAST, GraphQLError, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { Context } from 'graphql-ws';
import type { Extra } from 'graphql-ws/use/ws';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocket, WebSocketServer } from 'ws';
import type { Principal } from '../platform/auth/principal.js';
import { REQUEST_ID_HEADER, type Logger } from '../platform/logger.js';
import { asAppError, connectionHeaders, WS_CLOSE_CODES, WS_INTERNAL_ERROR, type Authenticate } from './plugins/authentication.js';
import type { ErrorFormatter } from './format-error.js';
import { rateLimitUnits } from './operation-cost.js';
import type { GatewayContext } from './subgraph-data-source.js';
import type { Deliver, SubscriptionRouter } from './subscriptions.js';

/**
 * Largest graphql-ws message, checked by `ws` before anything is parsed (authentication included).
 * Subscriptions and ordinary operations fit easily; large mutations (batches) go over HTTP.
 */
export const MAX_WS_MESSAGE_BYTES = 256 * 1024;
/** Subscriptions one connection may hold at once. */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 25;
/** Subscriptions one API key (or the admin secret) may hold at once on this gateway instance. */
export const MAX_SUBSCRIPTIONS_PER_CLIENT = 100;
/** How long a new connection may wait before `connection_init` (graphql-ws closes with 4408). */
export const CONNECTION_INIT_TIMEOUT_MS = 3_000;

export interface WebSocketEndpointOptions {
  server: Server;
  path: string;
  router: SubscriptionRouter;
  authenticate: Authenticate;
  formatError: ErrorFormatter;
  logger: Logger;
  production: boolean;
  /** The client's address behind trusted proxies. */
  clientIp: (request: IncomingMessage) => string | undefined;
}

/** One authenticated connection: what every one of its operations is checked against again. */
interface Session {
  principal: Principal;
  requestId: string;
  headers: IncomingHttpHeaders;
  ip?: string;
  /** Ids of its live subscriptions. */
  subscriptions: Set<string>;
  /** A session token's connection closes when the token expires. */
  expiry?: NodeJS.Timeout;
}

type WsContext = Context<Record<string, unknown>, Extra>;

const clientKey = (principal: Principal) => principal.clientId ?? 'admin';

const tooMany = (message: string) => new GraphQLError(message, { extensions: { code: 'RATE_LIMITED' } });

/**
 * graphql-ws on the gateway's HTTP server. A connection is authenticated at `connection_init`, and
 * every operation is authenticated again and counted against the rate limits as on HTTP (a revoked
 * key closes the socket); subscriptions are capped per connection and per client; each operation
 * goes through the SubscriptionRouter, and every error is formatted here because Apollo's
 * formatError does not run on this path.
 */
export function serveGraphqlWs(opts: WebSocketEndpointOptions): { close(): Promise<void>; recheck(clientId?: string): Promise<void> } {
  const wss = new WebSocketServer({ server: opts.server, path: opts.path, maxPayload: MAX_WS_MESSAGE_BYTES });
  const sessions = new Map<WsContext, Session>();
  const perClient = new Map<string, number>();
  const format = (error: GraphQLError) => opts.formatError(error.toJSON(), error);
  const formatResult = (result: ExecutionResult) => (result.errors ? { ...result, errors: result.errors.map(format) } : result);
  /** An event shared by many subscribers is formatted and serialized once (the router hands each the same object). */
  const serialized = new WeakMap<ExecutionResult, string>();
  const serialize = (result: ExecutionResult) => {
    let json = serialized.get(result);
    if (json === undefined) serialized.set(result, (json = JSON.stringify(formatResult(result))));
    return json;
  };
  /** A graphql-ws `next` message written straight to the socket (as graphql-ws would: nothing once it is closing). */
  const deliverer =
    (socket: WebSocket, id: string): Deliver =>
    (result) => {
      if (socket.readyState === WebSocket.OPEN) socket.send(`{"id":${JSON.stringify(id)},"type":"next","payload":${serialize(result)}}`);
    };

  const release = (session: Session, id: string) => {
    if (!session.subscriptions.delete(id)) return;
    const key = clientKey(session.principal);
    const left = (perClient.get(key) ?? 1) - 1;
    if (left > 0) perClient.set(key, left);
    else perClient.delete(key);
  };
  const reserve = (session: Session, id: string): GraphQLError | null => {
    const key = clientKey(session.principal);
    if (session.subscriptions.size >= MAX_SUBSCRIPTIONS_PER_CONNECTION) {
      return tooMany(`A connection may hold at most ${MAX_SUBSCRIPTIONS_PER_CONNECTION} subscriptions`);
    }
    if ((perClient.get(key) ?? 0) >= MAX_SUBSCRIPTIONS_PER_CLIENT) {
      return tooMany(`An API key may hold at most ${MAX_SUBSCRIPTIONS_PER_CLIENT} subscriptions at once`);
    }
    session.subscriptions.add(id);
    perClient.set(key, (perClient.get(key) ?? 0) + 1);
    return null;
  };

  /** Authenticates one operation; a key that is no longer valid closes the socket. */
  const authorize = async (ctx: WsContext, session: Session, id: string, units: number): Promise<GraphQLError | null> => {
    try {
      await opts.authenticate({ headers: session.headers, ip: session.ip, units });
      return null;
    } catch (error) {
      const appError = asAppError(error, opts.logger);
      if (appError.code === 'RATE_LIMITED') return appError;
      // nothing is sent for this id: the socket closes with the reason
      delete ctx.subscriptions[id];
      ctx.extra.socket.close(WS_CLOSE_CODES[appError.code] ?? WS_INTERNAL_ERROR, appError.message);
      return appError;
    }
  };

  const onSubscribe = async (ctx: WsContext, id: string, payload: Parameters<SubscriptionRouter['prepare']>[0]) => {
    const session = sessions.get(ctx)!;
    const context: GatewayContext = { principal: session.principal, requestId: session.requestId, clientIp: session.ip };
    const prepared = opts.router.prepare(payload, context, deliverer(ctx.extra.socket, id));
    if (Array.isArray(prepared)) return prepared;
    const operation = getOperationAST(prepared.document, prepared.operationName)!;
    const refused = await authorize(ctx, session, id, rateLimitUnits(prepared.document, operation));
    if (refused) return [refused];
    if (operation.operation === 'subscription') {
      const limited = reserve(session, id);
      if (limited) return [limited];
    }
    return prepared;
  };

  const server = useServer<Record<string, unknown>>(
    {
      isProd: opts.production,
      connectionInitWaitTimeout: CONNECTION_INIT_TIMEOUT_MS,
      onConnect: async (ctx) => {
        const { request, socket } = ctx.extra;
        const headers = connectionHeaders(ctx.connectionParams, request.headers);
        const ip = opts.clientIp(request);
        let principal: Principal;
        try {
          principal = (await opts.authenticate({ headers, ip })).principal;
        } catch (error) {
          const appError = asAppError(error, opts.logger);
          // Closing first makes the client see our code; graphql-ws's own 4403 for `false` is then a no-op.
          socket.close(WS_CLOSE_CODES[appError.code] ?? WS_INTERNAL_ERROR, appError.message);
          return false;
        }
        const given = ctx.connectionParams?.[REQUEST_ID_HEADER] ?? request.headers[REQUEST_ID_HEADER];
        const requestId = typeof given === 'string' ? given : randomUUID();
        const expiry =
          principal.expiresAt === undefined
            ? undefined
            : setTimeout(() => socket.close(WS_CLOSE_CODES.UNAUTHENTICATED!, 'Session token expired'), principal.expiresAt - Date.now());
        expiry?.unref();
        sessions.set(ctx as WsContext, { principal, requestId, headers, ip, subscriptions: new Set(), expiry });
        return true;
      },
      onSubscribe,
      onComplete: (ctx, id) => {
        const session = sessions.get(ctx);
        if (session) release(session, id);
      },
      onClose: (ctx) => {
        const session = sessions.get(ctx);
        if (!session) return;
        sessions.delete(ctx);
        clearTimeout(session.expiry);
        for (const id of [...session.subscriptions]) release(session, id);
      },
      execute: (args: ExecutionArgs) => opts.router.execute(args),
      subscribe: (args: ExecutionArgs) => opts.router.subscribe(args),
      onError: (_ctx, _id, _payload, errors) => errors.map(format),
      onNext: (_ctx, _id, _payload, _args, result) => (result.errors ? formatResult(result) : undefined),
    },
    wss,
  );

  // `ws` reports a client's protocol mistakes (a message over maxPayload, a bad frame) as socket
  // errors and closes the socket itself (1009, 1002…); graphql-ws would print them to stderr as
  // internal errors. Registered after useServer's, this replaces its handler.
  wss.on('connection', (socket) => {
    socket.removeAllListeners('error');
    socket.on('error', (error: Error & { code?: string }) => {
      if (error.code?.startsWith('WS_ERR_')) return opts.logger.info({ code: error.code }, 'graphql-ws client sent an invalid frame');
      opts.logger.error({ err: error }, 'graphql-ws socket error');
      socket.close(WS_INTERNAL_ERROR, 'Internal server error');
    });
  });

  return {
    /**
     * Checks the credentials of open connections again (those of one API client, or all) without
     * counting a request, and closes those now refused: a revoked or rotated key ends its live
     * subscriptions too.
     */
    async recheck(clientId?: string) {
      const open = [...sessions].filter(([, session]) => clientId === undefined || session.principal.clientId === clientId);
      await Promise.all(
        open.map(async ([ctx, session]) => {
          try {
            await opts.authenticate({ headers: session.headers, ip: session.ip, units: 0 });
          } catch (error) {
            const appError = asAppError(error, opts.logger);
            if (appError.code === 'UNAUTHENTICATED' || appError.code === 'FORBIDDEN') {
              ctx.extra.socket.close(WS_CLOSE_CODES[appError.code] ?? WS_INTERNAL_ERROR, appError.message);
            }
          }
        }),
      );
    },
    async close() {
      await server.dispose();
      opts.router.close();
    },
  };
}
