import { createSign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { permanentError, transientError } from './provider.js';

export const FCM = 'fcm';
const SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';

/** The fields of a Google service-account key file that FCM HTTP v1 needs. */
export interface ServiceAccount {
  project_id: string;
  client_email: string;
  private_key: string;
  private_key_id?: string;
  token_uri?: string;
}

/** `FCM_SERVICE_ACCOUNT`: the key file's JSON itself, or the path of the file. */
export function readServiceAccount(value: string): ServiceAccount {
  const text = value.trim().startsWith('{') ? value : readFileSync(value, 'utf8');
  const account = JSON.parse(text) as ServiceAccount;
  const missing = (['project_id', 'client_email', 'private_key'] as const).filter((k) => !account[k]);
  if (missing.length) throw new Error(`FCM_SERVICE_ACCOUNT lacks ${missing.join(', ')}`);
  return account;
}

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** A signed RS256 JWT asserting the service account, for Google's OAuth 2.0 token endpoint. */
export function serviceAccountJwt(account: ServiceAccount, now = Math.floor(Date.now() / 1000)): string {
  const header = { alg: 'RS256', typ: 'JWT', ...(account.private_key_id ? { kid: account.private_key_id } : {}) };
  const claims = { iss: account.client_email, scope: SCOPE, aud: account.token_uri ?? GOOGLE_TOKEN_URI, iat: now, exp: now + 3600 };
  const unsigned = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  const signature = createSign('RSA-SHA256').update(unsigned).sign(account.private_key);
  return `${unsigned}.${base64url(signature)}`;
}

interface FcmErrorBody {
  error?: { code?: number; message?: string; status?: string; details?: Array<{ '@type'?: string; errorCode?: string }> };
}

/** FCM error codes that say the token (or the message) will never work. */
const PERMANENT = new Set(['UNREGISTERED', 'INVALID_ARGUMENT', 'SENDER_ID_MISMATCH', 'NOT_FOUND']);

/**
 * Push through FCM HTTP v1: service-account JWT (signed with node:crypto) → OAuth access token
 * (cached until a minute before it expires) → `POST /v1/projects/{project}/messages:send`.
 */
export class FcmClient {
  private token: { value: string; expiresAt: number } | null = null;
  private pendingToken: Promise<string> | null = null;

  constructor(
    private readonly account: ServiceAccount,
    private readonly apiUrl: string,
    private readonly timeoutMs = 10_000,
  ) {}

  /** Sends to one registration token; returns the message name (`projects/…/messages/…`). */
  async send(token: string, notification: { title: string; body: string }, data: Record<string, string>): Promise<string> {
    let res = await this.post(token, notification, data, await this.accessToken());
    if (res.status === 401) {
      // the access token was revoked or expired early: get a new one once
      this.token = null;
      res = await this.post(token, notification, data, await this.accessToken());
    }
    const text = await res.text();
    if (res.ok) return (JSON.parse(text) as { name: string }).name;
    let body: FcmErrorBody = {};
    try {
      body = JSON.parse(text) as FcmErrorBody;
    } catch {
      // not JSON: the status decides
    }
    const code = body.error?.details?.find((d) => d.errorCode)?.errorCode ?? body.error?.status ?? `HTTP ${res.status}`;
    const reason = `fcm: ${code}${body.error?.message ? ` (${body.error.message})` : ''}`;
    throw PERMANENT.has(code) || res.status === 404 ? permanentError(reason) : transientError(reason);
  }

  private async post(
    token: string,
    notification: { title: string; body: string },
    data: Record<string, string>,
    accessToken: string,
  ): Promise<Response> {
    try {
      return await fetch(new URL(`/v1/projects/${encodeURIComponent(this.account.project_id)}/messages:send`, this.apiUrl), {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ message: { token, notification, data } }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw transientError(`fcm: ${(err as Error).message}`);
    }
  }

  private async accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt > Date.now() + 60_000) return this.token.value;
    // one token request at a time, shared by every concurrent send
    this.pendingToken ??= this.fetchToken().finally(() => (this.pendingToken = null));
    return this.pendingToken;
  }

  private async fetchToken(): Promise<string> {
    let res: Response;
    let text: string;
    try {
      res = await fetch(this.account.token_uri ?? GOOGLE_TOKEN_URI, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
          assertion: serviceAccountJwt(this.account),
        }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      text = await res.text();
    } catch (err) {
      throw transientError(`fcm: token request failed: ${(err as Error).message}`);
    }
    if (!res.ok) throw transientError(`fcm: token request answered HTTP ${res.status} ${text.slice(0, 200)}`);
    const { access_token, expires_in } = JSON.parse(text) as { access_token: string; expires_in?: number };
    this.token = { value: access_token, expiresAt: Date.now() + (expires_in ?? 3600) * 1000 };
    return access_token;
  }
}
