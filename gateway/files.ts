import type { RequestHandler } from 'express';
import type { Principal } from '../platform/auth/principal.js';
import { AppError } from '../platform/errors.js';
import { sendAppError } from '../platform/http/send-error.js';
import type { Logger } from '../platform/logger.js';
import { REQUEST_ID_HEADER } from '../platform/logger.js';
import { fileScope } from '../platform/storage/file-routes.js';
import { forwardedHeaders } from './subgraph-data-source.js';

/** The subgraph that keeps uploaded files (document images, selfies). */
const FILE_SUBGRAPH = 'verification';

/**
 * GET /files/<id> after edge authentication: asked of the subgraph that keeps the file, with the
 * caller's principal signed for this file only; its answer (the bytes, or an error) is passed on.
 */
export function fileDownloads(subgraphUrl: (name: string) => string | undefined, internalSecret: string, logger: Logger): RequestHandler {
  return async (req, res) => {
    const id = String(req.params.id);
    const base = subgraphUrl(FILE_SUBGRAPH);
    if (!base) return sendAppError(res, new AppError('UNAVAILABLE', 'The gateway is starting'));
    const context = { principal: res.locals.principal as Principal, requestId: String(req.headers[REQUEST_ID_HEADER] ?? '') };
    let response: Response;
    try {
      response = await fetch(new URL(`/files/${encodeURIComponent(id)}`, base), {
        headers: forwardedHeaders(context, internalSecret, fileScope(FILE_SUBGRAPH, id)),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (err) {
      logger.warn({ err, fileId: id }, 'file subgraph unreachable');
      return sendAppError(res, new AppError('UNAVAILABLE', 'The service is temporarily unavailable', { retryAfter: 5 }));
    }
    for (const name of ['content-type', 'cache-control', 'x-content-type-options', 'content-disposition']) {
      const value = response.headers.get(name);
      if (value) res.setHeader(name, value);
    }
    res.status(response.status).send(Buffer.from(await response.arrayBuffer()));
  };
}
