import type { IncomingHttpHeaders } from 'node:http';
import { header } from '../http/headers.js';
import { timingSafeEqual, createHash } from 'node:crypto';
import type pg from 'pg';
import { hashApiKey } from './api-keys.js';
import type { Principal, KeyService } from './principal.js';
import { isSessionToken, readSessionToken } from './session-token.js';
import { rateLimited, unauthenticated } from '../errors.js';
import { ApiClientCache, type ClientLookup, type ClientRow } from './api-client-cache.js';
import { DEFAULT_SYNC_MS, pruneRateLimitWindows, RateLimiter } from './rate-limiter.js';
import { API_CLIENT_CHANGED_CHANNEL, localClientChanges } from './api-client.service.js';
import type { EventStream } from '../events/event-stream.js';
import type { Logger } from '../logger.js';

export interface AuthenticatorOptions {
  pool: pg.Pool;
  adminSecret: string;
  /** Session tokens are signed with a key derived from it (session-token.ts). */
  internalSecret: string;
  /** Requests per minute per organization for the risk and notify services. */
  organizationRateLimit: number;
  /** Known clients (api-client-cache.ts). */
  clients: ApiClientCache;
  /** The counters, synced by whoever holds them (rate-limiter.ts). */
  limits: RateLimiter;
}

export interface Authenticated {
  principal: Principal;
  headers: Record<string, string>;
}

/** Services whose organization shares one budget (an all-services key counts against its own). */
const ORG_LIMITED: KeyService[] = ['risk', 'notify', 'all'];
/** Wrong admin secrets one address may send per minute; then every admin attempt from it gets 429. */
export const ADMIN_FAILURES_PER_MINUTE = 10;

function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * Edge authentication: `X-Admin-Secret`, or an API key in `X-API-Key` / `Authorization: Bearer`,
 * looked up by hash, or a session token (`Bearer st_…`, checked by signature and expiry, and its
 * minting key still active); then the per-client (and per-organization for risk/notify) fixed-window rate
 * limit, counted in memory and shared through PostgreSQL (rate-limiter.ts).
 */
export function createAuthenticator(opts: AuthenticatorOptions) {
  const { clients, limits } = opts;

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
      const { counts, reset } = await limits.count([failures], right ? 0 : 1);
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
      client = await clients.find({ id: session.clientId });
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
      client = await clients.find({ keyHash: hashApiKey(key) });
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

    const budgetKeys: Array<[string, number]> = [[`client:${client.id}`, client.rate_limit]];
    if (ORG_LIMITED.includes(client.service))
      budgetKeys.push([`org:${client.service}:${client.organization_id}`, opts.organizationRateLimit]);
    const { counts, reset } = await limits.count(
      budgetKeys.map(([k]) => k),
      units,
    );
    const budgets = budgetKeys.map(([k, limit]) => ({ limit, count: counts.get(k) ?? 1 }));
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

/** Reads an active client from the table. */
export function loadClient(pool: pg.Pool): (lookup: ClientLookup) => Promise<ClientRow | undefined> {
  return async (lookup) => {
    const [column, value] = 'keyHash' in lookup ? ['key_hash', lookup.keyHash] : ['id', lookup.id];
    const { rows } = await pool.query<ClientRow>(
      `select id, organization_id, service, environment, permissions, rate_limit
         from platform.api_clients where ${column} = $1 and active`,
      [value],
    );
    return rows[0];
  };
}

export interface EdgeAuthenticatorOptions extends Omit<AuthenticatorOptions, 'clients' | 'limits'> {
  /** Client changes arrive over the process's event transport (LISTEN, or the NATS bus). */
  events: Pick<EventStream, 'listen'>;
  logger: Logger;
  /** RATE_LIMIT_SYNC_MS. */
  syncMs?: number;
}

export interface EdgeAuthenticator {
  authenticate: ReturnType<typeof createAuthenticator>;
  /** Called after a client's change (revocation, rotation) is known here, or with none after a reconnect (anything may have changed). */
  onClientChanged(listener: (clientId?: string) => void): void;
  /** Shares this instance's rate-limit counts now (the timer does it every `syncMs`). */
  syncRateLimits(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The gateway's authentication with no database round trip for a known key: clients cached and
 * dropped on their change notification (revocation is effective on every instance as soon as the
 * NOTIFY arrives), rate limits counted in memory and synced every `syncMs`.
 */
export async function startEdgeAuthenticator(opts: EdgeAuthenticatorOptions): Promise<EdgeAuthenticator> {
  const clients = new ApiClientCache(loadClient(opts.pool));
  const limits = new RateLimiter(opts.pool, opts.syncMs);
  const listeners: Array<(clientId?: string) => void> = [];
  const changed = (clientId?: string) => listeners.forEach((listener) => listener(clientId));
  const onChange = (clientId: string | undefined) => {
    if (clientId) clients.drop(clientId);
    else clients.trust();
    changed(clientId || undefined);
  };
  // this process's own changes at once; every process's (this one's again) by NOTIFY
  localClientChanges.on('changed', onChange);
  const listening = await opts.events.listen({
    channel: API_CLIENT_CHANGED_CHANNEL,
    logger: opts.logger,
    onNotification: onChange,
    // notifications sent while disconnected are lost: start again from the table
    onReconnect: () => {
      clients.trust();
      changed();
    },
    onDisconnect: () => clients.distrust(),
  });
  clients.trust();
  const sync = () => limits.sync().catch((err: unknown) => opts.logger.warn({ err }, 'rate-limit sync failed (retried)'));
  const syncTimer = setInterval(() => void sync(), opts.syncMs ?? DEFAULT_SYNC_MS);
  const pruneTimer = setInterval(() => void pruneRateLimitWindows(opts.pool).catch(() => undefined), 60_000);
  syncTimer.unref();
  pruneTimer.unref();
  return {
    authenticate: createAuthenticator({ ...opts, clients, limits }),
    onClientChanged: (listener) => listeners.push(listener),
    syncRateLimits: () => limits.sync(),
    async stop() {
      clearInterval(syncTimer);
      clearInterval(pruneTimer);
      localClientChanges.off('changed', onChange);
      await sync();
      await listening.stop();
    },
  };
}
