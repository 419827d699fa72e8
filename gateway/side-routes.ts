import type { Express } from 'express';
import type { Logger } from '../platform/logger.js';
import { forwardMagicLinks, MAGIC_LINK_PATH } from '../platform/http/magic-link.js';
import { FILE_ROUTE } from '../platform/storage/file-routes.js';
import { API_SCHEMA_PATH, apiSchemaSdl } from './api-schema.js';
import { CONSOLE_PATH, consoleApp } from './console.js';
import { flowPages } from './flow-page.js';
import { FLOW_PATH } from '../platform/http/flow-links.js';
import { fileDownloads } from './files.js';
import { GRAPHIQL_ASSETS_PATH, graphiqlAssets } from './graphiql.js';
import { sendAppError } from './http-errors.js';
import { asAppError, edgeAuth, type Authenticate } from './plugins/authentication.js';

/** 204 when the request's credentials are valid (counted against no rate limit): the REST adapter asks before reading a large body. */
export const AUTH_CHECK_PATH = '/auth/check';

/**
 * The gateway's HTTP routes beside `/graphql`: the public schema, the credentials check, magic
 * links, file downloads, GraphiQL's files, the review console and hosted verification flows.
 */
export function mountSideRoutes(
  app: Express,
  opts: {
    supergraphSdl: string;
    authenticate: Authenticate;
    /** A subgraph's HTTP URL, once the gateway knows it. */
    subgraphUrl: (name: string) => string | undefined;
    internalSecret: string;
    logger: Logger;
  },
): void {
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
      sendAppError(res, asAppError(error, opts.logger));
    }
  });
  // public: a magic link's token is its credential (the verification subgraph checks it)
  app.get(
    MAGIC_LINK_PATH,
    forwardMagicLinks(() => opts.subgraphUrl('verification'), opts.logger),
  );
  app.get(FILE_ROUTE, edgeAuth(opts.authenticate, opts.logger), fileDownloads(opts.subgraphUrl, opts.internalSecret, opts.logger));
  // public: GraphiQL's page and files carry no data; what it sends is authenticated like any request
  app.use(GRAPHIQL_ASSETS_PATH, graphiqlAssets());
  // the review console: public files likewise, its calls are the graph's own with the reviewer's key
  app.use(CONSOLE_PATH, consoleApp());
  // a hosted verification flow: public files, and its link (the credential) opened by the verification subgraph
  app.use(FLOW_PATH, flowPages({ subgraphUrl: opts.subgraphUrl, logger: opts.logger }));
}
