import { tracedRequests } from '../platform/tracing.js';
import express from 'express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mountObservability } from '../platform/http/observability.js';
import { trustedProxies } from '../platform/http/trusted-proxies.js';
import type { Logger } from '../platform/logger.js';
import { errorHandler, notFoundHandler } from './errors.js';
import { createGatewayClient, createLocalGatewayClient, type LocalGateway } from './gateway.js';
import { fileDownload, magicLink, routeHandlers } from './handler.js';
import { MAGIC_LINK_PATH } from '../platform/http/magic-link.js';
import { mountDocs } from './docs.js';
import { readOpenApiDocument } from './openapi.js';
import { routes } from './routes.js';
import { RouteMetrics } from '../platform/metrics/http.js';
import { SERVER_TIMEOUTS } from '../platform/http/server-timeouts.js';

export interface RestAdapterOptions {
  /** The gateway's GraphQL endpoint, e.g. http://127.0.0.1:4000/graphql. */
  gatewayUrl: string;
  /** The gateway of this process, when it runs beside the adapter: operations run in-process (no loopback HTTP). */
  localGateway?: LocalGateway;
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /** Listen with SO_REUSEPORT: adapters in several threads share the port. */
  reusePort?: boolean;
  /** Bearer token of `/metrics` (closed without one). */
  metricsToken?: string;
  /** Peers whose X-Forwarded-For is believed (proxy-addr names, addresses, CIDRs); default loopback. */
  trustedProxies?: string[];
  logger: Logger;
}

export interface RunningRestAdapter {
  url: string;
  server: Server;
  stop(): Promise<void>;
}

/** The REST face of the graph: every route of the table, with and without `/v1`, plus OpenAPI. */
export async function startRestAdapter(opts: RestAdapterOptions): Promise<RunningRestAdapter> {
  const host = opts.host ?? '127.0.0.1';
  const http = createGatewayClient(opts.gatewayUrl);
  const gateway = opts.localGateway ? createLocalGatewayClient(opts.localGateway, http) : http;
  const app = express();
  // each call a span of its own (or of the caller's trace), named by its route
  app.use(tracedRequests('rest'));
  // an API answer is the caller's own and current: no ETag (a SHA-1 of every body) nor 304s
  app.set('etag', false);
  // the caller's address (req.ip) is forwarded to the gateway, which trusts this adapter for it
  app.set('trust proxy', trustedProxies(opts.trustedProxies ?? ['loopback']));
  // RED per route template (docs/metrics.md)
  const routeMetrics = new RouteMetrics();
  mountObservability(app, {
    service: 'rest-adapter',
    logger: opts.logger,
    metricsToken: opts.metricsToken,
    ready: () => gateway.reachable(),
    metrics: routeMetrics.metrics,
  });
  app.use(routeMetrics.middleware);

  // the committed document (a test keeps it in step with the route table and the graph)
  const openApi = readOpenApiDocument();
  app.get(['/openapi.json', '/v1/openapi.json'], (_req, res) => {
    res.json(openApi);
  });
  mountDocs(app);
  // before the table: `/verifications/email/:id` would take it for an id
  app.get([MAGIC_LINK_PATH, `/v1${MAGIC_LINK_PATH}`], ...magicLink(opts.gatewayUrl));
  for (const route of routes) {
    const method = route.method.toLowerCase() as Lowercase<typeof route.method>;
    app[method]([route.path, `/v1${route.path}`], ...routeHandlers(route, gateway));
  }
  app.get(['/files/:id', '/v1/files/:id'], ...fileDownload(gateway));
  app.use(notFoundHandler);
  app.use(errorHandler(opts.logger));

  const server = await new Promise<Server>((resolve, reject) => {
    const listening = createServer(SERVER_TIMEOUTS, app);
    listening.once('error', reject);
    listening.listen({ port: opts.port, host, reusePort: opts.reusePort }, () => resolve(listening));
  });
  const { port } = server.address() as AddressInfo;
  opts.logger.info({ port, gatewayUrl: opts.gatewayUrl, routes: routes.length }, 'rest adapter listening');
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    server,
    // Idle keep-alive connections are closed at once; requests in flight finish first.
    stop: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
