import type { Express } from 'express';
import type { Orm } from '../../../../platform/db/orm.js';
import { AppError } from '../../../../platform/errors.js';
import { sendAppError } from '../../../../platform/http/send-error.js';
import type { Logger } from '../../../../platform/logger.js';
import { FLOW_EMBEDDING_PATH, FLOW_OPEN_PATH } from '../../../../platform/http/flow-links.js';
import { embedOriginsOf, openFlow } from './flow.service.js';

/**
 * A flow's link is its credential (like a magic link): these routes are public, and the gateway
 * forwards its page's calls here. Opening answers the page's session; the embedding answer tells
 * the gateway which origins may frame the page.
 */
export function serveFlowLinks(app: Express, opts: { orm: Orm; internalSecret: string; logger: Logger }): void {
  const answer =
    (work: (token: string) => Promise<unknown>, what: string) =>
    async (req: { params: Record<string, string> }, res: Parameters<typeof sendAppError>[0]) => {
      try {
        res.setHeader('cache-control', 'no-store');
        res.status(200).json(await work(req.params.token ?? ''));
      } catch (error) {
        if (error instanceof AppError) return sendAppError(res, error);
        opts.logger.error({ err: error }, `verification flow: ${what} failed`);
        sendAppError(res, new AppError('INTERNAL', 'Internal server error'));
      }
    };
  app.post(
    FLOW_OPEN_PATH,
    answer((token) => openFlow(opts.orm.em.fork(), token, opts), 'opening a link'),
  );
  app.get(
    FLOW_EMBEDDING_PATH,
    answer(async (token) => ({ embedOrigins: await embedOriginsOf(opts.orm.em.fork(), token) }), 'reading a link’s embedding'),
  );
}
