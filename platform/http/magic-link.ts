import type { RequestHandler, Response as ExpressResponse } from 'express';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import { sendAppError } from './send-error.js';

/**
 * Where an email verification's magic link lands: public (no API key), because the signed
 * single-use token in its query is the credential and names its verification (so its
 * organization). The verification subgraph serves it; the gateway forwards it there, and the REST
 * adapter to the gateway (with and without /v1), each passing the answer (a 302) back.
 */
export const MAGIC_LINK_PATH = '/verifications/email/magic-link';

/** Headers of the answer passed back to the browser. */
const PASSED_BACK = ['content-type', 'location', 'cache-control', 'referrer-policy', 'retry-after'];

/** The upstream's answer to this link (`redirect: manual`: its 302 is the browser's to follow), or null when unreachable. */
export async function fetchMagicLink(base: string, token: unknown): Promise<Response | null> {
  const url = new URL(MAGIC_LINK_PATH, base);
  if (typeof token === 'string') url.searchParams.set('token', token);
  try {
    return await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(30_000) });
  } catch {
    return null;
  }
}

export async function passBack(response: Response, res: ExpressResponse): Promise<void> {
  for (const name of PASSED_BACK) {
    const value = response.headers.get(name);
    if (value) res.setHeader(name, value);
  }
  res.status(response.status).send(Buffer.from(await response.arrayBuffer()));
}

/** The gateway's side: the link passed on to the verification subgraph, its answer passed back. */
export function forwardMagicLinks(base: () => string | undefined, logger: Logger): RequestHandler {
  return async (req, res) => {
    const upstream = base();
    if (!upstream) return sendAppError(res, new AppError('UNAVAILABLE', 'The gateway is starting', { retryAfter: 5 }));
    const response = await fetchMagicLink(upstream, req.query.token);
    if (!response) {
      logger.warn('magic link: the verification subgraph is unreachable');
      return sendAppError(res, new AppError('UNAVAILABLE', 'The service is temporarily unavailable', { retryAfter: 5 }));
    }
    await passBack(response, res);
  };
}
