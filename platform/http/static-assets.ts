import express, { type Request, type Response, type Router } from 'express';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** A file shipped by an installed npm package, or a text of ours, served under a fixed name. */
export type Asset = { package: string; file: string } | { type: string; text: string };

/**
 * Browser pages (GraphiQL, Swagger UI) load only files listed here, from the machine's own
 * node_modules: no CDN (installations may be offline) and no directory served as a whole.
 */
export function staticAssets(assets: Record<string, Asset>): Router {
  const router = express.Router();
  for (const [name, asset] of Object.entries(assets)) {
    if ('text' in asset) {
      router.get(`/${name}`, (_req, res) => {
        res.type(asset.type).setHeader('Cache-Control', 'no-cache').send(asset.text);
      });
      continue;
    }
    const file = path.join(path.dirname(require.resolve(`${asset.package}/package.json`)), asset.file);
    router.get(`/${name}`, (_req, res, next) => {
      res.sendFile(file, { maxAge: '1d' }, (error) => error && next(error));
    });
  }
  return router;
}

/** The pages run our scripts and the packages' only: anything from another origin is refused by the browser. */
export const PAGE_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self' ws: wss:; frame-ancestors 'none'";

/** An HTML page with its stylesheets and scripts (relative URLs, so the page works behind a path prefix too). */
export function htmlPage(opts: { title: string; styles: string[]; scripts: string[]; body: string }): string {
  const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escape(opts.title)}</title>`,
    ...opts.styles.map((href) => `<link rel="stylesheet" href="${escape(href)}">`),
    '</head>',
    '<body style="margin:0">',
    opts.body,
    ...opts.scripts.map((src) => `<script src="${escape(src)}"></script>`),
    '</body>',
    '</html>',
  ].join('\n');
}

/** Sends a page; `/docs/` is redirected to `/docs` first, since the page's URLs are relative to it. */
export function sendPage(req: Request, res: Response, html: string): void {
  const [pathname, query] = req.originalUrl.split(/\?(.*)/s);
  if (pathname!.length > 1 && pathname!.endsWith('/')) {
    res.redirect(301, pathname!.replace(/\/+$/, '') + (query ? `?${query}` : ''));
    return;
  }
  res.setHeader('Content-Security-Policy', PAGE_SECURITY_POLICY);
  res.type('html').send(html);
}
