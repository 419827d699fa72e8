import https from 'node:https';
import { traceHeaders } from '../tracing.js';
import { rootCertificates } from 'node:tls';
import { signedHeaders } from './signature.js';
import { pinnedLookup, resolveTarget } from './target.js';

export interface PostOptions {
  /** The whole attempt (lookup, connection, request and the complete answer) must fit in it. */
  timeoutMs: number;
  allowPrivateTargets: boolean;
  /** Extra CA certificates (PEM) trusted for the receiver's TLS, e.g. a local receiver's. */
  ca?: string;
}

export interface PostOutcome {
  /** The receiver's HTTP status; null when it did not answer. */
  statusCode: number | null;
  /** Why there is no answer (DNS, TLS, refused, timeout, private target). */
  error: string | null;
  durationMs: number;
}

export const isSuccess = (o: PostOutcome): boolean => o.statusCode !== null && o.statusCode >= 200 && o.statusCode < 300;

/**
 * POSTs `body` signed with `secret` (X-Webhook-Signature and Standard Webhooks headers) to the
 * address that passed the private-target check: the request's DNS lookup is pinned to it, so a
 * DNS answer that changes afterwards cannot redirect the delivery.
 */
export async function signedPost(url: string, body: string, secret: string, messageId: string, opts: PostOptions): Promise<PostOutcome> {
  const started = Date.now();
  const remaining = () => Math.max(1, opts.timeoutMs - (Date.now() - started));
  try {
    const target = await resolveTarget(url, opts.allowPrivateTargets);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'afri-platform-webhooks/1',
      ...signedHeaders(secret, messageId, body),
      ...traceHeaders(),
    };
    const statusCode = await new Promise<number | null>((resolve, reject) => {
      const req = https.request(
        target.url,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': Buffer.byteLength(body) },
          timeout: opts.timeoutMs,
          ca: opts.ca ? [...rootCertificates, opts.ca] : undefined,
          lookup: pinnedLookup(target),
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? null));
        },
      );
      // `timeout` fires only on an idle socket: a receiver trickling bytes would keep it forever
      const deadline = setTimeout(() => req.destroy(new Error(`no complete answer within ${opts.timeoutMs} ms`)), remaining());
      req.on('close', () => clearTimeout(deadline));
      req.on('timeout', () => req.destroy(new Error(`timed out after ${opts.timeoutMs} ms`)));
      req.on('error', reject);
      req.end(body);
    });
    return { statusCode, error: null, durationMs: Date.now() - started };
  } catch (err) {
    return { statusCode: null, error: (err as Error).message, durationMs: Date.now() - started };
  }
}
