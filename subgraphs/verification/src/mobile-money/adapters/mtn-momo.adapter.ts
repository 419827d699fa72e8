import { MobileMoneyProviderError, type AccountLookup, type LookupRequest, type MobileMoneyAdapter } from './adapter.js';

export const MTN_MOMO = 'mtn_momo';

export interface MtnMomoOptions {
  /** https://sandbox.momodeveloper.mtn.com, https://proxy.momoapi.mtn.com (live), or a local fake; a path prefix is kept. */
  baseUrl: string;
  /** The Collection product's subscription key (`Ocp-Apim-Subscription-Key`). */
  subscriptionKey: string;
  /** The API user (a UUID) and its API key: Basic credentials of the token endpoint. */
  apiUser: string;
  apiKey: string;
  /**
   * `X-Target-Environment`: one value for every country (`sandbox`, `mtnghana`…), or one per
   * country, `GH=mtnghana,UG=mtnuganda` (a country without one cannot be looked up).
   */
  targetEnvironment: string;
  /** Deadline of each HTTP request (the lookup as a whole is bounded by its signal). */
  timeoutMs?: number;
  /** Clock (tests). */
  now?: () => number;
}

export const MTN_MOMO_DEFAULT_TIMEOUT_MS = 8_000;
/** A cached token is renewed this long before the operator says it expires (at most 10 % of its life). */
const TOKEN_RENEW_MARGIN_MS = 60_000;

interface Token {
  value: string;
  expiresAt: number;
}

interface Answer {
  status: number;
  text: string;
}

/** `GH=mtnghana,UG=mtnuganda` → per-country map; a single value → every country. */
export function parseTargetEnvironment(value: string): (country: string) => string | null {
  if (!value.includes('=')) return () => value;
  const map = new Map(
    value
      .split(',')
      .map((pair) => pair.split('=').map((part) => part.trim()))
      .filter(([country, target]) => country && target)
      .map(([country, target]) => [country.toUpperCase(), target]),
  );
  return (country) => map.get(country) ?? null;
}

/**
 * MTN MoMo's account-holder endpoints of the Collection API (MoMo Open API):
 *
 * - `POST /collection/token/` with Basic auth (API user : API key) and `Ocp-Apim-Subscription-Key`
 *   → `{access_token, token_type, expires_in}`; the token is cached until shortly before it
 *   expires, one request fetching it for all, and fetched again when a call answers 401;
 * - `GET /collection/v1_0/accountholder/msisdn/{msisdn}/active` → `{result: true|false}`
 *   (404 or `false`: NOT_FOUND);
 * - `GET /collection/v1_0/accountholder/msisdn/{msisdn}/basicuserinfo` → `{given_name,
 *   family_name, name, …}` (404: no name given).
 *
 * Both with the bearer token, `X-Target-Environment` and the subscription key. The MSISDN is the
 * E.164 number without its plus. A 5xx, a timeout, an unreachable host, a body that is not the
 * protocol's JSON or refused credentials throw MobileMoneyProviderError.
 */
export class MtnMomoAdapter implements MobileMoneyAdapter {
  readonly name = MTN_MOMO;
  private token: Token | null = null;
  private fetching: Promise<Token> | null = null;
  private readonly base: string;
  private readonly targetOf: (country: string) => string | null;
  private readonly timeoutMs: number;
  private readonly now: () => number;

  constructor(private readonly opts: MtnMomoOptions) {
    this.base = opts.baseUrl.replace(/\/+$/, '');
    this.targetOf = parseTargetEnvironment(opts.targetEnvironment);
    this.timeoutMs = opts.timeoutMs ?? MTN_MOMO_DEFAULT_TIMEOUT_MS;
    this.now = opts.now ?? Date.now;
  }

  async lookup(account: LookupRequest, signal: AbortSignal): Promise<AccountLookup> {
    const target = this.targetOf(account.country);
    if (!target) throw new MobileMoneyProviderError(`MTN MoMo is not configured for ${account.country} (no target environment)`);
    const msisdn = account.phoneNumber.replace(/^\+/, '');
    const holder = `/collection/v1_0/accountholder/msisdn/${encodeURIComponent(msisdn)}`;

    const active = await this.get(`${holder}/active`, target, signal);
    if (active.status === 404) {
      return { outcome: 'not_found', accountStatus: null, reason: `MTN MoMo knows no account holder ${account.phoneNumber}` };
    }
    this.expectOk(active, 'account holder status');
    const { result } = this.json(active, 'account holder status') as { result?: unknown };
    if (typeof result !== 'boolean')
      throw new MobileMoneyProviderError('MTN MoMo answered the account holder status without a boolean result');
    if (!result) {
      return { outcome: 'not_found', accountStatus: 'INACTIVE', reason: `The MTN MoMo account of ${account.phoneNumber} is not active` };
    }

    const info = await this.get(`${holder}/basicuserinfo`, target, signal);
    // an active account whose holder information is not given out: no name to return
    if (info.status === 404) return { outcome: 'found', accountStatus: 'ACTIVE', holderName: null };
    this.expectOk(info, 'basic user info');
    const body = this.json(info, 'basic user info') as Record<string, unknown>;
    return { outcome: 'found', accountStatus: 'ACTIVE', holderName: holderNameOf(body) };
  }

  /** A GET with the bearer token; a 401 drops the cached token and tries once more with a new one. */
  private async get(path: string, target: string, signal: AbortSignal): Promise<Answer> {
    for (let attempt = 0; ; attempt++) {
      const token = await this.bearer(signal);
      const answer = await this.request(
        path,
        {
          method: 'GET',
          headers: {
            authorization: `Bearer ${token.value}`,
            'x-target-environment': target,
            'ocp-apim-subscription-key': this.opts.subscriptionKey,
            accept: 'application/json',
          },
        },
        signal,
      );
      if (answer.status !== 401 || attempt > 0) return answer;
      if (this.token === token) this.token = null;
    }
  }

  /** The cached token, or a new one (one request at a time for every caller; a caller's signal only stops its own wait). */
  private async bearer(signal: AbortSignal): Promise<Token> {
    if (this.token && this.token.expiresAt > this.now()) return this.token;
    this.fetching ??= this.fetchToken().finally(() => (this.fetching = null));
    return abortable(this.fetching, signal, () => this.deadlineError());
  }

  private async fetchToken(): Promise<Token> {
    const basic = Buffer.from(`${this.opts.apiUser}:${this.opts.apiKey}`).toString('base64');
    const answer = await this.request(
      '/collection/token/',
      {
        method: 'POST',
        headers: { authorization: `Basic ${basic}`, 'ocp-apim-subscription-key': this.opts.subscriptionKey, accept: 'application/json' },
      },
      new AbortController().signal,
    );
    if (answer.status === 401 || answer.status === 403)
      throw new MobileMoneyProviderError(`MTN MoMo refused the API user's credentials (HTTP ${answer.status}${errorCodeOf(answer)})`);
    this.expectOk(answer, 'token');
    const body = this.json(answer, 'token') as { access_token?: unknown; expires_in?: unknown };
    const expiresIn = Number(body.expires_in);
    if (typeof body.access_token !== 'string' || !body.access_token || !(expiresIn > 0))
      throw new MobileMoneyProviderError('MTN MoMo answered the token request without an access_token and expires_in');
    const lifeMs = expiresIn * 1000;
    const token = { value: body.access_token, expiresAt: this.now() + lifeMs - Math.min(TOKEN_RENEW_MARGIN_MS, lifeMs / 10) };
    this.token = token;
    return token;
  }

  private async request(path: string, init: RequestInit, signal: AbortSignal): Promise<Answer> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    try {
      const res = await fetch(this.base + path, { ...init, signal: AbortSignal.any([signal, timeout]) });
      return { status: res.status, text: await res.text() };
    } catch (err) {
      if (signal.aborted) throw this.deadlineError();
      if (timeout.aborted) throw new MobileMoneyProviderError(`MTN MoMo did not answer within ${this.timeoutMs} ms`);
      throw new MobileMoneyProviderError(`MTN MoMo is unreachable (${causeOf(err)})`);
    }
  }

  private deadlineError(): MobileMoneyProviderError {
    return new MobileMoneyProviderError('MTN MoMo did not answer before the lookup deadline');
  }

  private expectOk(answer: Answer, what: string): void {
    if (answer.status >= 200 && answer.status < 300) return;
    if (answer.status >= 500)
      throw new MobileMoneyProviderError(`MTN MoMo failed to answer the ${what} (HTTP ${answer.status}${errorCodeOf(answer)})`);
    throw new MobileMoneyProviderError(`MTN MoMo refused the ${what} request (HTTP ${answer.status}${errorCodeOf(answer)})`);
  }

  private json(answer: Answer, what: string): unknown {
    try {
      const body: unknown = JSON.parse(answer.text);
      if (body && typeof body === 'object' && !Array.isArray(body)) return body;
    } catch {
      // fall through
    }
    throw new MobileMoneyProviderError(`MTN MoMo answered the ${what} with a body that is not a JSON object`);
  }
}

/** The holder's name as MTN gives it: `name`, else given and family names; null when it gives none. */
export function holderNameOf(info: Record<string, unknown>): string | null {
  const text = (v: unknown) => (typeof v === 'string' ? v.replace(/\s+/g, ' ').trim() : '');
  const name = text(info.name) || [text(info.given_name), text(info.family_name)].filter(Boolean).join(' ');
  return name || null;
}

/** `, RESOURCE_NOT_FOUND` from an MTN error body `{code, message}`, when it has one. */
function errorCodeOf(answer: Answer): string {
  try {
    const body = JSON.parse(answer.text) as { code?: unknown };
    return typeof body?.code === 'string' && /^[\w.-]{1,64}$/.test(body.code) ? `, ${body.code}` : '';
  } catch {
    return '';
  }
}

function causeOf(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err as Error).message ?? 'network error';
}

/** `promise`, or `onAbort()`'s error as soon as `signal` aborts (the promise itself runs on). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal, onAbort: () => Error): Promise<T> {
  if (signal.aborted) return Promise.reject(onAbort());
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(onAbort());
    signal.addEventListener('abort', abort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(err);
      },
    );
  });
}
