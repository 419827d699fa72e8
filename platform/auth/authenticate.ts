import type { IncomingHttpHeaders } from 'node:http';
import { timingSafeEqual, createHash } from 'node:crypto';
import type pg from 'pg';
import { hashApiKey } from './api-keys.js';
import type { Principal, KeyService, Environment } from './principal.js';
import { isSessionToken, readSessionToken } from './session-token.js';
import { rateLimited, unauthenticated } from '../errors.js';

export interface AuthenticatorOptions {
  pool: pg.Pool;
  adminSecret: string;
  /** Session tokens are signed with a key derived from it (session-token.ts). */
  internalSecret: string;
  /** Requests per minute per organization for the risk and notify services. */
  organizationRateLimit: number;
}

export interface Authenticated {
  principal: Principal;
  headers: Record<string, string>;
}

const WINDOW_SECONDS = 60;
/** Services whose organization shares one budget (an all-services key counts against its own). */
const ORG_LIMITED: KeyService[] = ['risk', 'notify', 'all'];
/** Wrong admin secrets one address may send per minute; then every admin attempt from it gets 429. */
export const ADMIN_FAILURES_PER_MINUTE = 10;

/** Adds `units` to each key's current window (0 only reads it); the counts and seconds until the window resets. */
async function countInWindow(pool: pg.Pool, keys: string[], units: number) {
  const { rows } = await pool.query<{ key: string; count: number; reset: number }>(
    `insert into platform.rate_limit_windows (key, window_start, count)
       select k, to_timestamp(floor(extract(epoch from now()) / ${WINDOW_SECONDS}) * ${WINDOW_SECONDS}), $2 from unnest($1::text[]) as k
     on conflict (key, window_start) do update set count = platform.rate_limit_windows.count + $2
     returning key, count, ceil(extract(epoch from window_start) + ${WINDOW_SECONDS} - extract(epoch from now()))::int as reset`,
    [keys, units],
  );
  return { counts: new Map(rows.map((r) => [r.key, r.count])), reset: Math.max(1, rows[0]?.reset ?? WINDOW_SECONDS) };
}

interface ClientRow {
  id: string;
  organization_id: string;
  service: KeyService;
  environment: Environment;
  permissions: string[];
  rate_limit: number;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * Edge authentication: `X-Admin-Secret`, or an API key in `X-API-Key` / `Authorization: Bearer`,
 * looked up by hash, or a session token (`Bearer st_…`, checked by signature and expiry, and its
 * minting key still active); then the per-client (and per-organization for risk/notify) fixed-window rate
 * limit, counted in PostgreSQL so every gateway instance shares it.
 */
export function createAuthenticator(opts: AuthenticatorOptions) {
  const clientWhere = async (condition: string, value: string) =>
    (
      await opts.pool.query<ClientRow>(
        `select id, organization_id, service, environment, permissions, rate_limit
           from platform.api_clients where ${condition} and active`,
        [value],
      )
    ).rows;

  /**
   * `units` is what the request costs against the rate limits (a mutation: one per root field);
   * 0 only checks the credentials (the REST adapter, before it reads a large body). A session token
   * counts against the budget of the key that minted it.
   */
  return async function authenticate(req: { headers: IncomingHttpHeaders; ip?: string; units?: number }): Promise<Authenticated> {
    const units = Math.max(0, Math.floor(req.units ?? 1));
    const admin = header(req.headers, 'x-admin-secret');
    if (admin !== undefined) {
      // guessing is throttled per address: past the limit even the right secret waits for the next window
      const failures = `admin-failures:${req.ip ?? 'unknown'}`;
      const right = sameSecret(admin, opts.adminSecret);
      const { counts, reset } = await countInWindow(opts.pool, [failures], right ? 0 : 1);
      if ((counts.get(failures) ?? 0) > ADMIN_FAILURES_PER_MINUTE - (right ? 1 : 0)) throw rateLimited(reset);
      if (!right) throw unauthenticated('Invalid admin secret');
      const principal: Principal = {
        kind: 'admin',
        organizationId: null,
        clientId: null,
        service: null,
        environment: 'live',
        permissions: [],
      };
      return { principal, headers: {} };
    }
    const bearer = header(req.headers, 'authorization')?.match(/^Bearer\s+(\S+)$/i)?.[1];
    const key = header(req.headers, 'x-api-key') ?? bearer;
    if (!key) throw unauthenticated('Missing API key: send X-API-Key or Authorization: Bearer');

    let principal: Principal;
    let client: ClientRow | undefined;
    if (isSessionToken(key)) {
      // a session lives only as long as its token and the key that minted it
      const session = readSessionToken(key, opts.internalSecret);
      if (!session) throw unauthenticated('Invalid or expired session token');
      client = (await clientWhere('id = $1', session.clientId))[0];
      if (!client) throw unauthenticated('Invalid or expired session token');
      principal = {
        kind: 'session',
        organizationId: session.organizationId,
        clientId: session.clientId,
        service: 'all',
        environment: session.environment,
        permissions: session.scopes,
        userId: session.userId,
        expiresAt: session.exp * 1000,
      };
    } else {
      client = (await clientWhere('key_hash = $1', hashApiKey(key)))[0];
      if (!client) throw unauthenticated('Invalid API key');
      principal = {
        kind: 'client',
        organizationId: client.organization_id,
        clientId: client.id,
        service: client.service,
        environment: client.environment,
        permissions: client.permissions,
      };
    }
    if (units === 0) return { principal, headers: {} };

    const limits: Array<[string, number]> = [[`client:${client.id}`, client.rate_limit]];
    if (ORG_LIMITED.includes(client.service)) limits.push([`org:${client.service}:${client.organization_id}`, opts.organizationRateLimit]);
    const { counts, reset } = await countInWindow(
      opts.pool,
      limits.map(([k]) => k),
      units,
    );
    const budgets = limits.map(([k, limit]) => ({ limit, count: counts.get(k) ?? 1 }));
    // the headers describe the budget closest to running out (the client's or the organization's)
    const tightest = budgets.reduce((a, b) => (b.limit - b.count < a.limit - a.count ? b : a));
    const headers = {
      'RateLimit-Limit': String(tightest.limit),
      'RateLimit-Remaining': String(Math.max(0, tightest.limit - tightest.count)),
      'RateLimit-Reset': String(reset),
    };
    if (budgets.some((b) => b.count > b.limit)) throw Object.assign(rateLimited(reset), { headers });
    return { principal, headers };
  };
}

/** Old windows are useless after a minute; the gateway prunes them now and then. */
export async function pruneRateLimitWindows(pool: pg.Pool): Promise<void> {
  await pool.query(`delete from platform.rate_limit_windows where window_start < now() - interval '10 minutes'`);
}
