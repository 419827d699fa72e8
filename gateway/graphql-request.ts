import { HeaderMap, type ApolloServer } from '@apollo/server';
import type { RequestHandler } from 'express';
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { header } from '../platform/http/headers.js';
import type { Principal } from '../platform/auth/principal.js';
import { AppError } from '../platform/errors.js';
import { responseText } from '../platform/graphql/apollo-http.js';
import { hasFileParts } from '../platform/graphql/upload.js';
import { operationLabel, serveTraced } from '../platform/tracing.js';
import { REQUEST_ID_HEADER, type Logger } from '../platform/logger.js';
import { asAppError, type Authenticate } from './plugins/authentication.js';
import { bodyTooLarge } from './plugins/limits.js';
import { nulRefusal } from './plugins/nul.js';
import { chargeCaller } from './plugins/rate-limits.js';
import type { GraphqlResult, PlanShortcut } from './plugins/plan-shortcut.js';
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

/**
 * What the HTTP answer is: status, headers and the JSON body — its text, or (the plan
 * shortcut's answer) its value, which the REST adapter in this process reads without a JSON round
 * trip and `replyText` writes for HTTP.
 */
export type GraphqlReply = TextReply | (Omit<TextReply, 'body'> & { result: GraphqlResult });
export interface TextReply {
  status: number;
  headers: Headers;
  body: string;
}

/** The body's text; a value is written as Apollo Server writes its answers (a newline after the JSON), whichever path answered. */
export const replyText = (reply: GraphqlReply): string => ('body' in reply ? reply.body : `${JSON.stringify(reply.result)}\n`);

/** An AppError as `sendAppError` answers it over HTTP. */
export function appErrorReply(error: AppError, headers: Record<string, string> = {}): TextReply {
  const { retryAfter, messages } = error.extensions as { retryAfter?: unknown; messages?: unknown };
  const all = new Headers(headers);
  all.set('content-type', 'application/json; charset=utf-8');
  if (error.code === 'RATE_LIMITED' && retryAfter !== undefined) all.set('retry-after', String(retryAfter));
  const extensions = { code: error.code, ...(messages !== undefined && { messages }), ...(retryAfter !== undefined && { retryAfter }) };
  return { status: error.status, headers: all, body: JSON.stringify({ errors: [{ message: error.message, extensions }] }) };
}

/**
 * The one way a GraphQL request runs at the gateway, whichever door it came through: NUL refused
 * (400 here rather than 500 from PostgreSQL), a query whose plan the plan shortcut takes (one
 * subgraph answering as asked, or a compiled plan) without Apollo's pipeline, anything else through
 * Apollo's (validation, limits, plan).
 */
export function graphqlPipeline(opts: {
  apollo: ApolloServer<GatewayContext>;
  shortcut: PlanShortcut;
  authenticate: Authenticate;
  logger: Logger;
}) {
  const context = (request: GraphqlRequest): GatewayContext => ({
    principal: request.principal,
    requestId: request.requestId,
    idempotencyKey: header(request.headers, IDEMPOTENCY_KEY_HEADER),
    clientIp: request.clientIp,
    uploads: hasFileParts(request.body),
    // a mutation with several root fields is charged the rest once its operation is known
    charge: chargeCaller(opts.authenticate, opts.logger, request),
  });

  return (request: GraphqlRequest): Promise<GraphqlReply> =>
    serveTraced(
      'gateway',
      () => operationLabel(request.body),
      request.headers,
      () => runGraphql(request),
    );

  async function runGraphql(request: GraphqlRequest): Promise<GraphqlReply> {
    const body = (request.body ?? {}) as { query?: unknown };
    const refused = nulRefusal(request.url, body);
    if (refused) return appErrorReply(refused);
    const ctx = context(request);
    const contentType = header(request.headers, 'content-type') ?? '';
    const shortcutTakes =
      request.method === 'POST' &&
      contentType.startsWith('application/json') &&
      !header(request.headers, 'accept')?.includes('application/graphql-response+json');
    const answered = shortcutTakes ? await opts.shortcut.run(body, ctx) : null;
    if (answered !== null) {
      return { status: 200, headers: new Headers({ 'content-type': 'application/json; charset=utf-8' }), result: answered };
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
  }
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

/**
 * The REST adapter's door in this process: the same authentication and JSON body limit as
 * `POST /graphql`, then the same pipeline, without the loopback HTTP round trip.
 */
export function serveInProcess(run: ReturnType<typeof graphqlPipeline>, authenticate: Authenticate, logger: Logger, path: string) {
  return async (request: LocalRequest): Promise<GraphqlReply> => {
    const { headers } = request;
    let identity: Awaited<ReturnType<Authenticate>>;
    try {
      identity = await authenticate({ headers, ip: request.ip });
    } catch (error) {
      return appErrorReply(asAppError(error, logger), (error as { headers?: Record<string, string> }).headers);
    }
    const body = { query: request.query, variables: request.variables };
    // files travel as FilePart values, as the multipart middleware leaves them (each file limited on its own)
    const files = hasFileParts(request.variables);
    const tooLarge = files ? null : bodyTooLarge(identity.principal, request.bodyBytes ?? Buffer.byteLength(JSON.stringify(body)));
    if (tooLarge) return appErrorReply(tooLarge, identity.headers);
    const reply = await run({
      principal: identity.principal,
      headers: { ...headers, 'content-type': 'application/json', ...(files && { 'apollo-require-preflight': 'true' }) },
      method: 'POST',
      search: '',
      body,
      url: path,
      ip: request.ip,
      clientIp: request.ip,
      requestId: headers[REQUEST_ID_HEADER] ?? randomUUID(),
    });
    for (const [name, value] of Object.entries(identity.headers ?? {})) if (!reply.headers.has(name)) reply.headers.set(name, value);
    return reply;
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
      res.send(replyText(reply));
    }, next);
  };
  return handler;
}
