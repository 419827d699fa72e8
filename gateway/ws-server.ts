import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { GraphQLError } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { Principal } from '../platform/auth/principal.js';
import { REQUEST_ID_HEADER, type Logger } from '../platform/logger.js';
import { authenticateConnection, connectionHeaders, type Authenticate } from './edge-auth.js';
import type { ErrorFormatter } from './format-error.js';
import type { SubscriptionRouter } from './subscriptions.js';

export interface WebSocketEndpointOptions {
  server: Server;
  path: string;
  router: SubscriptionRouter;
  authenticate: Authenticate;
  formatError: ErrorFormatter;
  logger: Logger;
  production: boolean;
}

interface Session {
  principal: Principal;
  requestId: string;
}

/**
 * graphql-ws on the gateway's HTTP server. Each connection is authenticated once (connection_init),
 * each operation goes through the SubscriptionRouter, and every error is formatted here because
 * Apollo's formatError does not run on this path.
 */
export function serveGraphqlWs(opts: WebSocketEndpointOptions): { close(): Promise<void> } {
  const wss = new WebSocketServer({ server: opts.server, path: opts.path });
  const sessions = new WeakMap<object, Session>();
  const format = (error: GraphQLError) => opts.formatError(error.toJSON(), error);

  const server = useServer(
    {
      isProd: opts.production,
      onConnect: async (ctx) => {
        const { request, socket } = ctx.extra;
        const headers = connectionHeaders(ctx.connectionParams, request.headers);
        const result = await authenticateConnection(opts.authenticate, opts.logger, { headers, ip: request.socket.remoteAddress });
        if ('closeCode' in result) {
          // Closing first makes the client see our code; graphql-ws's own 4403 for `false` is then a no-op.
          socket.close(result.closeCode, result.reason);
          return false;
        }
        const requestId = ctx.connectionParams?.[REQUEST_ID_HEADER] ?? request.headers[REQUEST_ID_HEADER];
        sessions.set(ctx, { principal: result.principal, requestId: typeof requestId === 'string' ? requestId : randomUUID() });
        return true;
      },
      onSubscribe: (ctx, _id, payload) => opts.router.prepare(payload, sessions.get(ctx)!),
      execute: (args) => opts.router.execute(args),
      subscribe: (args) => opts.router.subscribe(args),
      onError: (_ctx, _id, _payload, errors) => errors.map(format),
      onNext: (_ctx, _id, _payload, _args, result) => (result.errors ? { ...result, errors: result.errors.map(format) } : undefined),
    },
    wss,
  );

  return {
    async close() {
      await server.dispose();
      opts.router.close();
    },
  };
}
