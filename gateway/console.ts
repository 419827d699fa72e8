import express, { type Router } from 'express';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError } from '../platform/errors.js';
import { sendAppError } from '../platform/http/send-error.js';

/** The review console (console/ in the repository), served by the gateway beside the graph it calls. */
export const CONSOLE_PATH = '/console';

/** `npm run build` writes the console here (dist/console), next to the compiled services. */
export function builtConsoleDir(from = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return path.join(dir, 'dist', 'console');
}

/**
 * The console's page and its script, style and font files: all from this server (no CDN), so the
 * browser may load nothing else and may talk only to this origin (GraphQL, graphql-ws, `/files`).
 * Images are fetched with the key and shown from `blob:` URLs.
 */
export const CONSOLE_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; font-src 'self'; connect-src 'self' ws: wss:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * Public like GraphiQL's page: the files carry no data, every request the console makes carries
 * the reviewer's key. `/console` is redirected to `/console/` (the page's URLs are relative to it).
 */
export function consoleApp(dir = builtConsoleDir()): Router {
  const router = express.Router({ strict: true });
  const index = path.join(dir, 'index.html');
  router.use((req, res, next) => {
    res.setHeader('Content-Security-Policy', CONSOLE_SECURITY_POLICY);
    if (!existsSync(index)) return sendAppError(res, new AppError('UNAVAILABLE', 'The console is not built: run `npm run build`'));
    next();
  });
  router.get('/', (req, res, next) => {
    if (!req.originalUrl.split('?')[0]!.endsWith('/')) return res.redirect(301, `${req.baseUrl}/`);
    res.sendFile(index, { headers: { 'Cache-Control': 'no-cache' } }, (error) => error && next(error));
  });
  // file names carry their content's hash: cached for good
  router.use('/assets', express.static(path.join(dir, 'assets'), { immutable: true, maxAge: '365d', index: false }));
  router.use((_req, res) => sendAppError(res, new AppError('NOT_FOUND', 'No such console file')));
  return router;
}
