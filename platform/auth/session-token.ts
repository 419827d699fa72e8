import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Environment } from './principal.js';

/**
 * Short-lived session tokens for browsers and apps: minted by an API key for one of the
 * organization's users, usable over HTTP and graphql-ws as `Authorization: Bearer st_…`, limited to
 * that user's records and to the scopes given, and never valid past `exp` (an open subscription
 * is closed then). Signed with a key derived from the internal secret the gateway and the
 * subgraphs share; revoking the key that minted a token ends the token too.
 */

export const SESSION_TOKEN_PREFIX = 'st_';
export const DEFAULT_SESSION_TTL_SECONDS = 15 * 60;
export const MAX_SESSION_TTL_SECONDS = 24 * 60 * 60;

/** Reads of records that belong to one user. */
export const SESSION_READ_SCOPES = ['identity:read', 'screening:read', 'monitoring:read', 'intelligence:read', 'flow:read'] as const;

/**
 * Submissions of one user's own checks: create one for the session's user, and continue it (send
 * a code, a challenge photo). An area's `:write` also reviews and deletes, so a session gets a
 * scope of its own that only the submitting fields check (a key's `area:write` grants it): a
 * session can never reach a review or a decision.
 */
export const SESSION_SUBMIT_SCOPES = ['document:submit', 'liveness:submit', 'phone:submit', 'email:submit', 'address:submit'] as const;

/**
 * What a session may be granted. Every service that answers these scopes filters on the session's
 * user (the tenant carries it), and a submission for another user is refused.
 */
export const SESSION_SCOPES = [...SESSION_READ_SCOPES, ...SESSION_SUBMIT_SCOPES] as const;

export interface SessionClaims {
  /** The API client that minted it (its revocation ends the session). */
  clientId: string;
  organizationId: string;
  environment: Environment;
  userId: string;
  scopes: string[];
  /** Seconds since the epoch. */
  exp: number;
}

const signingKey = (internalSecret: string) => createHmac('sha256', internalSecret).update('session-token').digest();
const sign = (value: string, internalSecret: string) => createHmac('sha256', signingKey(internalSecret)).update(value).digest('base64url');

export function mintSessionToken(claims: SessionClaims, internalSecret: string): string {
  const value = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${SESSION_TOKEN_PREFIX}${value}.${sign(value, internalSecret)}`;
}

export const isSessionToken = (credential: string) => credential.startsWith(SESSION_TOKEN_PREFIX);

/** The claims of a token signed with this secret and not expired; null otherwise. */
export function readSessionToken(token: string, internalSecret: string, now = Date.now()): SessionClaims | null {
  const [value, signature] = token.slice(SESSION_TOKEN_PREFIX.length).split('.');
  if (!value || !signature) return null;
  const expected = Buffer.from(sign(value, internalSecret));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const claims = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as SessionClaims;
    return claims.exp * 1000 > now ? claims : null;
  } catch {
    return null;
  }
}
