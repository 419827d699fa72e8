import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local fake of MTN MoMo's Collection API, the parts the account lookup speaks: the token
 * endpoint (Basic auth with the API user and key, the subscription key; bearer tokens that expire
 * after `tokenLifeSeconds` on the fake's clock) and the account-holder endpoints (`active`,
 * `basicuserinfo`), which check the bearer token, `X-Target-Environment` and the subscription key
 * the way the real API does (401 for a missing, unknown or expired token).
 */

export interface FakeMtnAccount {
  /** `result` of /active */
  active: boolean;
  /** The body of /basicuserinfo; absent: 404 */
  info?: Record<string, unknown>;
}

/** What a number's /active (or /basicuserinfo with `…Info`) answers instead of the account's state. */
export type FakeMtnFault = 'server_error' | 'hang' | 'malformed' | 'info_server_error';

export interface MtnMomoFakeOptions {
  subscriptionKey: string;
  apiUser: string;
  apiKey: string;
  targetEnvironment: string;
  tokenLifeSeconds?: number;
  /** The fake's clock in ms (tests move it to expire tokens). */
  now?: () => number;
}

export interface FakeMtnRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
}

export interface MtnMomoFake {
  url: string;
  /** By MSISDN (E.164 without the plus). */
  accounts: Map<string, FakeMtnAccount>;
  faults: Map<string, FakeMtnFault>;
  requests: FakeMtnRequest[];
  tokensIssued(): number;
  /** Every token issued so far is refused from now on (as after a key rotation). */
  revokeTokens(): void;
  close(): Promise<void>;
}

export async function startMtnMomoFake(opts: MtnMomoFakeOptions): Promise<MtnMomoFake> {
  const now = opts.now ?? Date.now;
  const life = opts.tokenLifeSeconds ?? 3600;
  const tokens = new Map<string, number>();
  const accounts = new Map<string, FakeMtnAccount>();
  const faults = new Map<string, FakeMtnFault>();
  const requests: FakeMtnRequest[] = [];
  const hanging = new Set<http.ServerResponse>();
  let issued = 0;

  const json = (res: http.ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    requests.push({ method: req.method ?? '', path, headers: req.headers });
    req.resume();
    if (req.headers['ocp-apim-subscription-key'] !== opts.subscriptionKey) {
      return json(res, 401, { statusCode: 401, message: 'Access denied due to invalid subscription key.' });
    }
    if (req.method === 'POST' && path === '/collection/token/') {
      const expected = `Basic ${Buffer.from(`${opts.apiUser}:${opts.apiKey}`).toString('base64')}`;
      if (req.headers.authorization !== expected) return json(res, 401, { error: 'login_failed' });
      const token = `fake-token-${++issued}`;
      tokens.set(token, now() + life * 1000);
      return json(res, 200, { access_token: token, token_type: 'access_token', expires_in: life });
    }
    const holder = /^\/collection\/v1_0\/accountholder\/msisdn\/(\d+)\/(active|basicuserinfo)$/.exec(path);
    if (req.method !== 'GET' || !holder)
      return json(res, 404, { code: 'RESOURCE_NOT_FOUND', message: 'Requested resource was not found.' });
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const expiresAt = bearer ? tokens.get(bearer) : undefined;
    if (expiresAt === undefined || expiresAt <= now()) {
      return json(res, 401, { code: 'UNAUTHORIZED', message: 'Access token is missing, invalid or expired' });
    }
    if (req.headers['x-target-environment'] !== opts.targetEnvironment) {
      return json(res, 400, { code: 'INVALID_TARGET_ENVIRONMENT', message: 'Unknown X-Target-Environment' });
    }
    const [, msisdn, what] = holder;
    const fault = faults.get(msisdn);
    if (what === 'active' && fault === 'server_error')
      return json(res, 500, { code: 'INTERNAL_PROCESSING_ERROR', message: 'An internal error occurred' });
    if (what === 'basicuserinfo' && fault === 'info_server_error')
      return json(res, 503, { code: 'SERVICE_UNAVAILABLE', message: 'Try later' });
    if (what === 'active' && fault === 'hang') {
      hanging.add(res);
      return;
    }
    if (what === 'active' && fault === 'malformed') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"result": tru');
    const account = accounts.get(msisdn);
    if (!account) return json(res, 404, { code: 'RESOURCE_NOT_FOUND', message: 'Account holder not found' });
    if (what === 'active') return json(res, 200, { result: account.active });
    if (!account.info) return json(res, 404, { code: 'RESOURCE_NOT_FOUND', message: 'User info not found' });
    return json(res, 200, account.info);
  });
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '::', ipv6Only: false }, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    // a host name, not an address literal: resolved as in production (the listener is dual-stack)
    url: `http://localhost:${port}`,
    accounts,
    faults,
    requests,
    tokensIssued: () => issued,
    revokeTokens: () => tokens.clear(),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** An MTN basicuserinfo body as the sandbox shows it. */
export const userInfo = (given: string, family: string): Record<string, unknown> => ({
  sub: '0',
  name: `${given} ${family}`,
  given_name: given,
  family_name: family,
  birthdate: '1976-08-13',
  locale: 'en_GH',
  gender: 'MALE',
  updated_at: 1700000000,
});
