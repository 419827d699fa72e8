import express, { type Request, type RequestHandler } from 'express';
import { AppError, notFound, unauthenticated } from '../platform/errors.js';
import { REQUEST_ID_HEADER } from '../platform/logger.js';
import { traceHeaders } from '../platform/tracing.js';
import { nulMessage, nulPath, urlHasNul } from '../platform/http/nul.js';
import { fromGraphQLErrors, fromUserErrors } from './errors.js';
import type { GatewayClient } from './gateway.js';
import { mapResponse } from '../platform/rest/mapping.js';
import busboy from 'busboy';
import { FilePart, MAX_UPLOAD_BYTES } from '../platform/graphql/upload.js';
import type { OperationData, Route, RouteInput } from '../platform/rest/route.js';
import { fetchMagicLink, passBack } from '../platform/http/magic-link.js';
import { UNAVAILABLE_RETRY_AFTER_S } from './gateway.js';

const CREDENTIAL_HEADERS = ['x-api-key', 'authorization', 'x-admin-secret'];
/** Client headers the gateway needs: credentials, idempotency, tracing. */
const FORWARDED_HEADERS = [...CREDENTIAL_HEADERS, 'idempotency-key', REQUEST_ID_HEADER];
/** Gateway headers the REST client needs: rate limiting and tracing. */
const RETURNED_HEADERS = ['retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', REQUEST_ID_HEADER];

const JSON_TYPES = ['application/json', 'application/*+json'];
export const BODY_LIMIT = '2mb';
const parseJson = express.json({ limit: BODY_LIMIT, type: JSON_TYPES });
const jsonParser = (limit?: string) => (limit ? express.json({ limit, type: JSON_TYPES }) : parseJson);

/** The middleware chain serving one route: any route, no domain logic. */
export function routeHandlers(route: Route, gateway: GatewayClient): RequestHandler[] {
  const execute: RequestHandler = async (req, res) => {
    const input: RouteInput = {
      params: req.params as Record<string, string>, // named params only: no wildcard routes
      query: parseQuery(route, req),
      body: pickBody(res.locals.json ? { ...route, body: route.json } : route, req),
      files: (res.locals.files as RouteInput['files'] | undefined) ?? {},
    };
    // what the gateway's body limit sees: the caller's body and the operation's text
    const length = Number(req.headers['content-length']);
    const bodyBytes = Number.isFinite(length) ? length + route.operation.length : undefined;
    const reply = await gateway.execute(route.operation, route.variables(input), forwardedHeaders(req), { bodyBytes });
    for (const name of RETURNED_HEADERS) {
      const value = reply.headers.get(name);
      if (value !== null) res.setHeader(name, value);
    }
    // A REST call succeeds or fails as a whole: any GraphQL error, or user error of a payload, fails it.
    if (reply.errors?.length) throw fromGraphQLErrors(reply.status, reply.errors);
    const data = reply.data ?? {};
    const userErrors = Object.values(data).flatMap((field) => (field as { userErrors?: [] } | null)?.userErrors ?? []);
    if (userErrors.length) throw fromUserErrors(userErrors);

    const body = responseBody(route, data, input);
    if (body === null && route.notFound) throw notFound(route.notFound, Object.values(input.params)[0]);
    if (route.totalCount) res.setHeader('x-total-count', String(route.totalCount(data)));
    const status = route.created?.(data) ? 201 : (route.status ?? 200);
    res.status(status).json(body);
  };
  const parse = [requireJson, jsonParser(route.bodyLimit), refuseNulInBody];
  if (route.files && route.json) {
    // one path, two forms: JSON (Form B) when the body says so, else multipart (415 for anything else)
    const [multipart, json] = [multipartBody(route), jsonParser(route.bodyLimit)];
    const byContentType: RequestHandler = (req, res, next) => {
      if (!req.is(JSON_TYPES)) return multipart(req, res, next);
      res.locals.json = true;
      json(req, res, next);
    };
    return [refuseNulInUrl, credentialsFirst(route, gateway), byContentType, refuseNulInBody, execute];
  }
  if (route.files) return [refuseNulInUrl, credentialsFirst(route, gateway), multipartBody(route), refuseNulInBody, execute];
  return route.body ? [refuseNulInUrl, credentialsFirst(route, gateway), ...parse, execute] : [refuseNulInUrl, execute];
}

/**
 * A body is read only from a caller who sent credentials; for a route that takes more than the
 * default body size, only once the gateway has accepted them (answered without counting a request).
 */
function credentialsFirst(route: Route, gateway: GatewayClient): RequestHandler {
  return async (req, _res, next) => {
    const headers = forwardedHeaders(req);
    if (!CREDENTIAL_HEADERS.some((name) => headers[name]))
      throw unauthenticated('Missing API key: send X-API-Key or Authorization: Bearer');
    if (route.bodyLimit) {
      const refused = await gateway.checkCredentials(headers);
      if (refused) throw fromGraphQLErrors(refused.status, refused.errors ?? []);
    }
    next();
  };
}

// NUL cannot be stored (PostgreSQL text): the client's mistake, said as such (400)
const refuseNulInUrl: RequestHandler = (req, _res, next) => {
  if (urlHasNul(req.originalUrl)) throw new AppError('BAD_USER_INPUT', nulMessage('The path and query string'));
  next();
};
const refuseNulInBody: RequestHandler = (req, _res, next) => {
  const where = nulPath(req.body ?? {});
  if (where !== null) throw new AppError('BAD_USER_INPUT', nulMessage(where || 'The body'));
  next();
};

export function responseBody(route: Route, data: OperationData, input: RouteInput): unknown {
  const body = route.result ? route.result(data, input) : Object.values(data)[0];
  return route.response ? mapResponse(body, route.response) : body;
}

/** GET /files/<id>: an uploaded file (a document image) of the caller's organization, from the gateway. */
export function fileDownload(gateway: GatewayClient): RequestHandler[] {
  return [
    refuseNulInUrl,
    async (req, res) => {
      const file = await gateway.getFile(String(req.params.id), forwardedHeaders(req));
      if (!file.ok) throw fromGraphQLErrors(file.status, file.errors);
      res
        .set({ 'content-type': file.contentType, 'cache-control': 'private, no-store', 'x-content-type-options': 'nosniff' })
        .send(file.bytes);
    },
  ];
}

/**
 * GET /verifications/email/magic-link?token=…: public (the token is the credential), passed to the
 * gateway as is; its 302 (or page) goes back to the browser, its errors as REST error bodies.
 */
export function magicLink(gatewayUrl: string): RequestHandler[] {
  return [
    refuseNulInUrl,
    async (req, res) => {
      const response = await fetchMagicLink(gatewayUrl, req.query.token);
      if (!response) throw new AppError('UNAVAILABLE', 'The service is temporarily unavailable', { retryAfter: UNAVAILABLE_RETRY_AFTER_S });
      if (response.status < 400) return passBack(response, res);
      const text = await response.text();
      let errors: Array<{ message?: string; extensions?: { code?: unknown } }> = [];
      try {
        errors = (JSON.parse(text) as { errors?: typeof errors }).errors ?? [];
      } catch {
        // not JSON: a gateway fault, answered below
      }
      if (!errors.length) throw new Error(`Gateway answered a magic link with HTTP ${response.status}: ${text.slice(0, 200)}`);
      throw fromGraphQLErrors(response.status, errors);
    },
  ];
}

/**
 * A multipart route's body (busboy): text fields as the body, the route's files read in full (10 MB
 * each: 413 beyond), other files skipped; anything but `multipart/form-data` is a 415, a cut or
 * malformed body a 400.
 */
function multipartBody(route: Route): RequestHandler {
  const names = new Set((route.files ?? []).map((file) => file.name));
  return (req, res, next) => {
    if (!req.is('multipart/form-data')) {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Content-Type must be multipart/form-data${route.json ? ' or application/json' : ''}`);
    }
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { fileSize: MAX_UPLOAD_BYTES, files: names.size, fields: 50, fieldSize: 64 * 1024 },
      });
    } catch {
      throw new AppError('BAD_USER_INPUT', 'Malformed multipart body');
    }
    const body: Record<string, string> = {};
    const files: Record<string, FilePart> = {};
    const reading: Array<Promise<void>> = [];
    let failure: AppError | null = null;
    parser.on('field', (name, value) => {
      body[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      // a body cut inside a file fails the file's stream too (skipped files included)
      stream.on('error', () => (failure ??= new AppError('BAD_USER_INPUT', 'Malformed multipart body')));
      if (!names.has(name) || failure) return stream.resume();
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => (failure ??= new AppError('PAYLOAD_TOO_LARGE', `${name} exceeds the ${MAX_UPLOAD_BYTES} byte limit`)));
      reading.push(
        new Promise((resolve) =>
          stream.on('close', () => {
            files[name] = new FilePart(info.filename, info.mimeType, Buffer.concat(chunks));
            resolve();
          }),
        ),
      );
    });
    parser.on('filesLimit', () => (failure ??= new AppError('BAD_USER_INPUT', `At most ${names.size} files: ${[...names].join(', ')}`)));
    // kept for the parser's whole life: a second error after the first must not go unheard (a crash)
    parser.on('error', () => (failure ??= new AppError('BAD_USER_INPUT', 'Malformed multipart body')));
    parser.on('close', () => {
      void Promise.all(reading).then(() => {
        if (failure) return next(failure);
        req.body = body;
        res.locals.files = files;
        next();
      });
    });
    req.pipe(parser);
  };
}

/** 415 for a body that is not JSON; an empty body is fine (GraphQL then names the missing fields). */
const requireJson: RequestHandler = (req, _res, next) => {
  const hasContent = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (hasContent && !req.is(JSON_TYPES)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
  next();
};

/** Keeps the route's known fields; their values go to GraphQL as sent, so GraphQL judges their types. */
function pickBody(route: Route, req: Request): Record<string, unknown> {
  if (!route.body || req.body === undefined) return {};
  const body: unknown = req.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError('BAD_USER_INPUT', 'Request body must be a JSON object');
  }
  return Object.fromEntries(
    route.body.filter((f) => Object.hasOwn(body, f.name)).map((f) => [f.name, (body as Record<string, unknown>)[f.name]]),
  );
}

/** Integer query params are parsed here: a query string has no types for GraphQL to check. */
function parseQuery(route: Route, req: Request): RouteInput['query'] {
  const query: RouteInput['query'] = {};
  for (const { name, type } of route.query ?? []) {
    const raw = req.query[name];
    if (raw === undefined) continue;
    if (typeof raw !== 'string') throw new AppError('BAD_USER_INPUT', `${name} must be given once`);
    if (type !== 'integer') query[name] = raw;
    else if (/^-?\d+$/.test(raw)) query[name] = Number(raw);
    else throw new AppError('BAD_USER_INPUT', `${name} must be an integer`);
  }
  return query;
}

function forwardedHeaders(req: Request): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_HEADERS) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  // The gateway rate-limits and geolocates by client IP; it sees the adapter's socket otherwise.
  const ip = req.ip ?? req.socket.remoteAddress;
  if (ip) headers['x-forwarded-for'] = ip.replace(/^::ffff:/, '');
  // the gateway continues this request's trace
  return { ...headers, ...traceHeaders(req) };
}
