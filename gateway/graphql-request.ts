import { HeaderMap, type ApolloServer } from '@apollo/server';
import type { RequestHandler } from 'express';
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { header } from '../platform/http/headers.js';
import type { Principal } from '../platform/auth/principal.js';
import { badInput, type AppError } from '../platform/errors.js';
import { responseText } from '../platform/graphql/apollo-http.js';
import { graphqlHasNulEscape, nulMessage, nulPath, urlHasNul } from '../platform/http/nul.js';
import { REQUEST_ID_HEADER, type Logger } from '../platform/logger.js';
import { withHttpStatus } from './apollo-plugins.js';
import { asAppError, type Authenticate } from './edge-auth.js';
import type { SingleFetchShortcut } from './single-fetch.js';
import { IDEMPOTENCY_KEY_HEADER, type GatewayContext } from './subgraph-data-source.js';

/**
 * One GraphQL request as either door hands it over once the caller is authenticated and the body
 * read: `POST /graphql` (express: edge authentication, the JSON or multipart body) or the REST
 * adapter in this process (`RunningGateway.execute`).
 */
export interface GraphqlRequest {
  principal: Principal;
  /** The caller's headers, lower-case names. */
  headers: IncomingHttpHeaders;
  method: string;
  /** `?query=…` of a GET, else ''. */
  search: string;
  /** The JSON body (multipart: its operations, files as FileParts). */
  body: unknown;
  /** The request's path and query, checked for NUL. */
  url: string;
  /** The peer's address (rate limits) and the client's (behind trusted proxies). */
  ip?: string;
  clientIp?: string;
  requestId: string;
}

/** What the HTTP answer is: status, headers and the JSON body's text. */
export interface GraphqlReply {
  status: number;
  headers: Headers;
  body: string;
}

/** An AppError as `sendAppError` answers it over HTTP. */
export function appErrorReply(error: AppError, headers: Record<string, string> = {}): GraphqlReply {
  const { retryAfter, messages } = error.extensions as { retryAfter?: unknown; messages?: unknown };
  const all = new Headers(headers);
  all.set('content-type', 'application/json; charset=utf-8');
  if (error.code === 'RATE_LIMITED' && retryAfter !== undefined) all.set('retry-after', String(retryAfter));
  const extensions = { code: error.code, ...(messages !== undefined && { messages }), ...(retryAfter !== undefined && { retryAfter }) };
  return { status: error.status, headers: all, body: JSON.stringify({ errors: [{ message: error.message, extensions }] }) };
}

/**
 * The one way a GraphQL request runs at the gateway, whichever door it came through: NUL refused
 * (400 here rather than 500 from PostgreSQL), a query one subgraph answers as asked through the
 * single-fetch shortcut, anything else through Apollo's pipeline (validation, limits, plan).
 */
export function graphqlPipeline(opts: {
  apollo: ApolloServer<GatewayContext>;
  shortcut: SingleFetchShortcut;
  authenticate: Authenticate;
  logger: Logger;
}) {
  const context = (request: GraphqlRequest): GatewayContext => ({
    principal: request.principal,
    requestId: request.requestId,
    idempotencyKey: header(request.headers, IDEMPOTENCY_KEY_HEADER),
    clientIp: request.clientIp,
    // a mutation with several root fields is charged the rest once its operation is known
    charge: async (units: number) => {
      try {
        await opts.authenticate({ headers: request.headers, ip: request.ip, units });
      } catch (error) {
        throw withHttpStatus(asAppError(error, opts.logger), (error as { headers?: Record<string, string> }).headers);
      }
    },
  });

  return async (request: GraphqlRequest): Promise<GraphqlReply> => {
    const body = (request.body ?? {}) as { query?: unknown };
    const where = urlHasNul(request.url) ? 'the URL' : nulPath(body);
    if (where !== null || graphqlHasNulEscape(typeof body.query === 'string' ? body.query : '')) {
      return appErrorReply(badInput(nulMessage(where ?? 'query')));
    }
    const ctx = context(request);
    const contentType = header(request.headers, 'content-type') ?? '';
    const shortcutTakes =
      request.method === 'POST' &&
      contentType.startsWith('application/json') &&
      !header(request.headers, 'accept')?.includes('application/graphql-response+json');
    const answered = shortcutTakes ? await opts.shortcut.run(body, ctx) : null;
    if (answered !== null) {
      return { status: 200, headers: new Headers({ 'content-type': 'application/json; charset=utf-8' }), body: answered };
    }
    const headers = new HeaderMap();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const response = await opts.apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: request.method.toUpperCase(), headers, search: request.search, body },
      context: async () => ctx,
    });
    const replyHeaders = new Headers();
    for (const [name, value] of response.headers) replyHeaders.set(name, value);
    return { status: response.status ?? 200, headers: replyHeaders, body: await responseText(response) };
  };
}

/** `POST|GET /graphql` after edge authentication and the body's parsing: the pipeline's reply, as HTTP. */
export function serveGraphql(
  run: ReturnType<typeof graphqlPipeline>,
  clientIp: (req: Parameters<RequestHandler>[0]) => string | undefined,
) {
  const handler: RequestHandler = (req, res, next) => {
    const query = req.originalUrl.indexOf('?');
    run({
      principal: res.locals.principal as Principal,
      headers: req.headers,
      method: req.method,
      search: query < 0 ? '' : req.originalUrl.slice(query),
      body: req.body,
      url: req.originalUrl,
      ip: req.ip,
      clientIp: clientIp(req),
      requestId: header(req.headers, REQUEST_ID_HEADER) ?? randomUUID(), // set by the observability middleware
    }).then((reply) => {
      res.status(reply.status);
      reply.headers.forEach((value, name) => res.setHeader(name, value));
      res.send(reply.body);
    }, next);
  };
  return handler;
}
