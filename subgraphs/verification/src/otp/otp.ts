import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** Test keys (environment `test`): the code is always this one, and nothing leaves the machine. */
export const SANDBOX_CODE = '123456';
export const CODE = /^\d{6}$/;

/** A 6-digit code: the sandbox one for test keys, uniformly random otherwise. */
export function newCode(environment: string): string {
  if (environment === 'test') return SANDBOX_CODE;
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/**
 * The only form a code is stored in: HMAC-SHA256 keyed with the internal secret and bound to its
 * verification, so a leaked row neither reveals the code nor fits another verification.
 */
export function hashCode(secret: string, verificationId: string, code: string): string {
  return createHmac('sha256', secret).update(`otp:${verificationId}:${code}`).digest('hex');
}

function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

/** Whether `code` is the one hashed in `stored`, compared in constant time. */
export function codeMatches(secret: string, verificationId: string, code: string, stored: string): boolean {
  // a malformed code is hashed all the same: its answer takes as long as a well-formed one's
  return sameHex(hashCode(secret, verificationId, code), stored) && CODE.test(code);
}

/** What one submitted code does to a PENDING verification. */
export type Judgment =
  | { outcome: 'verified'; attemptsRemaining: number }
  | { outcome: 'wrong'; attemptsRemaining: number }
  | { outcome: 'failed'; attemptsRemaining: 0 }
  | { outcome: 'expired'; attemptsRemaining: number };

export interface OtpState {
  id: string;
  codeHash: string;
  attemptsRemaining: number;
  expiresAt: Date;
}

/**
 * One attempt: a late one finds the verification expired (whatever the code); a match verifies;
 * a miss spends an attempt, and the last miss fails the verification.
 */
export function judge(secret: string, state: OtpState, code: string, now = new Date()): Judgment {
  if (state.expiresAt <= now) return { outcome: 'expired', attemptsRemaining: state.attemptsRemaining };
  if (codeMatches(secret, state.id, code, state.codeHash)) return { outcome: 'verified', attemptsRemaining: state.attemptsRemaining };
  const left = Math.max(0, state.attemptsRemaining - 1);
  return left === 0 ? { outcome: 'failed', attemptsRemaining: 0 } : { outcome: 'wrong', attemptsRemaining: left };
}

// ---------------------------------------------------------------- magic links

const LINK_PREFIX = 'mlt_';

/** A single-use link token: `mlt_<verificationId>.<nonce>.<hmac>`; only the nonce's hash is stored. */
export function newLinkToken(secret: string, verificationId: string): { token: string; nonceHash: string } {
  const nonce = randomBytes(24).toString('base64url');
  const mac = createHmac('sha256', secret).update(`link:${verificationId}:${nonce}`).digest('base64url');
  return { token: `${LINK_PREFIX}${verificationId}.${nonce}.${mac}`, nonceHash: hashNonce(secret, nonce) };
}

export const hashNonce = (secret: string, nonce: string) => createHmac('sha256', secret).update(`link-nonce:${nonce}`).digest('hex');

/** The verification a link token names and the hash of its nonce, when its signature holds; null otherwise. */
export function readLinkToken(secret: string, token: string): { verificationId: string; nonceHash: string } | null {
  const m = /^mlt_([0-9a-f-]{36})\.([A-Za-z0-9_-]{32})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return null;
  const [, verificationId, nonce, mac] = m;
  const expected = createHmac('sha256', secret).update(`link:${verificationId}:${nonce}`).digest();
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return { verificationId, nonceHash: hashNonce(secret, nonce) };
}

/** Whether a stored nonce hash is the one a token carries (constant time). */
export const nonceMatches = (stored: string | null | undefined, given: string) => !!stored && sameHex(stored, given);

// ---------------------------------------------------------------- send limits

export interface SendWindow {
  /** Sends counted in the window. */
  count: number;
  /** The oldest send in the window (null when none). */
  oldest: Date | null;
}

/** Seconds until a send is allowed again under `max` per `windowSeconds`; 0 when allowed now. */
export function retryAfterSeconds(window: SendWindow, max: number, windowSeconds: number, now = new Date()): number {
  if (window.count < max || !window.oldest) return 0;
  return Math.max(1, Math.ceil((window.oldest.getTime() + windowSeconds * 1000 - now.getTime()) / 1000));
}

/** Seconds left of a resend cool-down started at `lastSentAt`; 0 when over. */
export function coolDownLeft(lastSentAt: Date, coolDownSeconds: number, now = new Date()): number {
  return Math.max(0, Math.ceil((lastSentAt.getTime() + coolDownSeconds * 1000 - now.getTime()) / 1000));
}
