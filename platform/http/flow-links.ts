import type { RequestHandler } from 'express';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import { passBack } from './magic-link.js';
import { sendAppError } from './send-error.js';

/**
 * A hosted verification flow's link, `/flow/<token>`: the gateway serves its page; the page opens
 * the link (once) for its session token, and the gateway asks which origins may frame it. The token
 * is the credential, so both are public; the verification subgraph answers them.
 */
export const FLOW_PATH = '/flow';
export const FLOW_OPEN_PATH = `${FLOW_PATH}/:token/session`;
export const FLOW_EMBEDDING_PATH = `${FLOW_PATH}/:token/embedding`;

const linkPath = (path: string, token: string) => path.replace(':token', encodeURIComponent(token));

/** The origins that may frame this link's page; none when unknown, expired or unreachable (the page then refuses to be framed). */
export async function embedOrigins(base: string | undefined, token: string): Promise<string[]> {
  if (!base) return [];
  try {
    const response = await fetch(new URL(linkPath(FLOW_EMBEDDING_PATH, token), base), { signal: AbortSignal.timeout(10_000) });
    if (!response.ok) return [];
    const body = (await response.json()) as { embedOrigins?: unknown };
    return Array.isArray(body.embedOrigins) ? body.embedOrigins.filter((o): o is string => typeof o === 'string') : [];
  } catch {
    return [];
  }
}

/** The gateway's side of opening a link: passed on to the verification subgraph, its answer passed back. */
export function forwardFlowOpening(base: () => string | undefined, logger: Logger): RequestHandler {
  return async (req, res) => {
    const upstream = base();
    if (!upstream) return sendAppError(res, new AppError('UNAVAILABLE', 'The gateway is starting', { retryAfter: 5 }));
    try {
      const response = await fetch(new URL(linkPath(FLOW_OPEN_PATH, String(req.params.token ?? '')), upstream), {
        method: 'POST',
        signal: AbortSignal.timeout(30_000),
      });
      await passBack(response, res);
    } catch {
      logger.warn('verification flow: the verification subgraph is unreachable');
      sendAppError(res, new AppError('UNAVAILABLE', 'The service is temporarily unavailable', { retryAfter: 5 }));
    }
  };
}
