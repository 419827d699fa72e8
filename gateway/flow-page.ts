import express, { type Router } from 'express';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { AppError } from '../platform/errors.js';
import { embedOrigins, forwardFlowOpening } from '../platform/http/flow-links.js';
import { sendAppError } from '../platform/http/send-error.js';
import type { Logger } from '../platform/logger.js';
import { builtConsoleDir } from './console.js';

/** `npm run build` writes the flow's page here (dist/flow), next to the console. */
export const builtFlowDir = () => path.join(path.dirname(builtConsoleDir()), 'flow');

/**
 * The hosted flow's page: its script, styles and calls from this origin only (no CDN); images also
 * from https (the organization's logo). Who may frame it is the flow's own `embedOrigins`.
 */
export function flowSecurityPolicy(frameAncestors: readonly string[]): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' blob: data: https:",
    "media-src 'self' blob:",
    "font-src 'self'",
    "connect-src 'self' ws: wss:",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestors.length ? frameAncestors.join(' ') : "'none'"}`,
  ].join('; ');
}

/**
 * `/flow/<token>`: the page (its link's token is read by the page's script), `/flow/<token>/session`
 * (opening the link, answered by the verification subgraph), `/flow/assets/…` and `/flow/embed.js`
 * (the web component, a fixed name integrators put in their pages).
 */
export function flowPages(opts: { subgraphUrl: (name: string) => string | undefined; logger: Logger; dir?: string }): Router {
  const dir = opts.dir ?? builtFlowDir();
  const index = path.join(dir, 'index.html');
  const router = express.Router({ strict: true });
  const built = (res: express.Response) => {
    if (existsSync(index)) return true;
    sendAppError(res, new AppError('UNAVAILABLE', 'The flow page is not built: run `npm run build`'));
    return false;
  };
  // file names carry their content's hash: cached for good
  router.use('/assets', express.static(path.join(dir, 'assets'), { immutable: true, maxAge: '365d', index: false }));
  router.get('/embed.js', (_req, res, next) => {
    if (!built(res)) return;
    res.sendFile(path.join(dir, 'embed.js'), { headers: { 'Cache-Control': 'no-cache' } }, (error) => error && next(error));
  });
  router.post(
    '/:token/session',
    forwardFlowOpening(() => opts.subgraphUrl('verification'), opts.logger),
  );
  router.get('/:token', async (req, res, next) => {
    if (!built(res)) return;
    const ancestors = await embedOrigins(opts.subgraphUrl('verification'), req.params.token);
    res.setHeader('Content-Security-Policy', flowSecurityPolicy(ancestors));
    // the link is a credential: never sent on to the logo's host
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.sendFile(index, { headers: { 'Cache-Control': 'no-store' } }, (error) => error && next(error));
  });
  router.use((_req, res) => sendAppError(res, new AppError('NOT_FOUND', 'No such page')));
  return router;
}
