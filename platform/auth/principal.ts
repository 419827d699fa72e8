import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export const SERVICES = ['verification', 'risk', 'notify'] as const;
export type ServiceName = (typeof SERVICES)[number];
/** What an API key is for: one service, or `all` (a backend that reads and writes the whole graph). */
export const KEY_SERVICES = [...SERVICES, 'all'] as const;
export type KeyService = (typeof KEY_SERVICES)[number];
export const ENVIRONMENTS = ['live', 'test'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/**
 * Who is calling, as verified by the gateway's edge authentication.
 * `admin` principals come from a valid `X-Admin-Secret`; they belong to no organization.
 * `session` principals come from a session token: one user's records, the token's scopes
 * (`permissions`), until `expiresAt`; `clientId` is the key that minted the token.
 */
export interface Principal {
  kind: 'client' | 'admin' | 'session';
  organizationId: string | null;
  clientId: string | null;
  service: KeyService | null;
  environment: Environment;
  permissions: string[];
  /** Sessions only: the user whose records they may read. */
  userId?: string;
  /** Sessions only: when the token expires (milliseconds since the epoch). */
  expiresAt?: number;
}

export const PRINCIPAL_HEADER = 'x-principal';
export const PRINCIPAL_SIGNATURE_HEADER = 'x-principal-signature';

/** How long a signed principal is accepted: long enough for one subgraph call, too short to collect. */
export const PRINCIPAL_TTL_SECONDS = 30;

/**
 * What a signed principal is good for: one subgraph (`audience`) and one request (`request`, a
 * digest of the operation it travels with, see `requestDigest`; for a graphql-ws connection, the
 * connection's request id).
 */
export interface PrincipalScope {
  audience: string;
  request: string;
}

/** The claims the gateway signs; `exp` is in seconds since the epoch. */
interface PrincipalClaims {
  principal: Principal;
  aud: string;
  req: string;
  exp: number;
}

function sign(value: string, secret: string): string {
  return createHmac('sha256', secret).update(value).digest('hex');
}

/**
 * The digest that binds a signed principal to one GraphQL request: its document, operation name and
 * variables. Files travel as multipart parts, so both sides count them as null (`isFile` says which
 * values are files on that side: the gateway's buffered uploads, the subgraph's Upload; given only for
 * a request that may carry files, since a replacer makes the serialisation several times slower).
 */
export function requestDigest(
  request: { query?: string; operationName?: string | null; variables?: unknown },
  isFile?: (value: unknown) => boolean,
): string {
  return requestDigestOfJson(
    JSON.stringify(request.query ?? ''),
    JSON.stringify(request.operationName ?? null),
    JSON.stringify(request.variables ?? null, isFile && ((_key, value: unknown) => (isFile(value) ? null : value))),
  );
}

/**
 * `requestDigest` of a request whose parts are already JSON text (`JSON.stringify` of the query, of
 * the operation name or null, of the variables or null): the same digest, without serialising the
 * variables (an entity fetch's representations) a second time.
 */
export function requestDigestOfJson(query: string, operationName: string, variables: string): string {
  return createHash('sha256').update(`[${query},${operationName},${variables}]`).digest('base64url');
}

/** The scope of a graphql-ws connection's principal: checked once, when the connection opens. */
export function connectionScope(audience: string, requestId: unknown): PrincipalScope {
  return { audience, request: `ws:${String(requestId ?? '')}` };
}

/** Headers the gateway adds to a subgraph call (HTTP headers or graphql-ws connectionParams). */
export function principalHeaders(
  principal: Principal,
  internalSecret: string,
  scope: PrincipalScope,
  now = Date.now(),
): Record<string, string> {
  const claims: PrincipalClaims = {
    principal,
    aud: scope.audience,
    req: scope.request,
    exp: Math.floor(now / 1000) + PRINCIPAL_TTL_SECONDS,
  };
  const value = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return { [PRINCIPAL_HEADER]: value, [PRINCIPAL_SIGNATURE_HEADER]: sign(value, internalSecret) };
}

/**
 * Subgraphs trust only principals signed with the shared internal secret, unexpired, addressed to
 * them and signed for this very request; anything else is null.
 */
export function readPrincipal(
  headers: Record<string, unknown> | undefined,
  internalSecret: string,
  scope: PrincipalScope,
  now = Date.now(),
): Principal | null {
  const value = headers?.[PRINCIPAL_HEADER];
  const signature = headers?.[PRINCIPAL_SIGNATURE_HEADER];
  if (typeof value !== 'string' || typeof signature !== 'string') return null;
  const expected = Buffer.from(sign(value, internalSecret));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  let claims: PrincipalClaims;
  try {
    claims = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as PrincipalClaims;
  } catch {
    return null;
  }
  if (claims.aud !== scope.audience || claims.req !== scope.request) return null;
  if (!(claims.exp * 1000 > now)) return null;
  return claims.principal ?? null;
}
