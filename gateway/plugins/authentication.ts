import type { RequestHandler } from 'express';
import type { IncomingHttpHeaders } from 'node:http';
import { AppError } from '../../platform/errors.js';
import type { Principal } from '../../platform/auth/principal.js';
import type { Logger } from '../../platform/logger.js';
import { sendAppError } from '../http-errors.js';

export interface EdgeIdentity {
  principal: Principal;
  /** Response headers the caller should see (RateLimit-Limit/-Remaining/-Reset). */
  headers?: Record<string, string>;
}

/**
 * Verifies the caller's credentials and counts `units` (default 1) against its rate limits; throws
 * AppError UNAUTHENTICATED, FORBIDDEN or RATE_LIMITED (with extensions.retryAfter).
 */
export type Authenticate = (req: { headers: IncomingHttpHeaders; ip?: string; units?: number }) => Promise<EdgeIdentity>;

/** Credentials a graphql-ws client may put in `connectionParams` (browsers cannot set upgrade headers). */
const CREDENTIAL_PARAMS = ['x-api-key', 'authorization', 'x-admin-secret'];

/** graphql-ws close codes, mirroring the HTTP statuses. */
export const WS_CLOSE_CODES: Partial<Record<string, number>> = { UNAUTHENTICATED: 4401, FORBIDDEN: 4403, RATE_LIMITED: 4429 };
export const WS_INTERNAL_ERROR = 4500;

/** Anything but an AppError from `authenticate` is a fault of ours: log it, never show it. */
export function asAppError(error: unknown, logger: Logger): AppError {
  if (error instanceof AppError) return error;
  logger.error({ err: error }, 'edge authentication failed unexpectedly');
  return new AppError('INTERNAL', 'Authentication is unavailable');
}

/**
 * Authenticates every GraphQL HTTP request before its body is read; the principal goes to
 * `res.locals.principal` for the GraphQL context, the limit headers to the response.
 */
export function edgeAuth(authenticate: Authenticate, logger: Logger): RequestHandler {
  return async (req, res, next) => {
    try {
      const identity = await authenticate({ headers: req.headers, ip: req.ip });
      for (const [name, value] of Object.entries(identity.headers ?? {})) res.setHeader(name, value);
      res.locals.principal = identity.principal;
      next();
    } catch (error) {
      // a 429 still tells which budget ran out and when it refills
      for (const [name, value] of Object.entries((error as { headers?: Record<string, string> }).headers ?? {})) res.setHeader(name, value);
      sendAppError(res, asAppError(error, logger));
    }
  };
}

/** Upgrade request headers overlaid with the credentials found in `connectionParams` (any key case). */
export function connectionHeaders(params: Record<string, unknown> | undefined, upgradeHeaders: IncomingHttpHeaders): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = { ...upgradeHeaders };
  for (const [key, value] of Object.entries(params ?? {})) {
    const name = key.toLowerCase();
    if (CREDENTIAL_PARAMS.includes(name) && typeof value === 'string') headers[name] = value;
  }
  return headers;
}
