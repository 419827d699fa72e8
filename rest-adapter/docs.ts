import type { Express } from 'express';
import { htmlPage, sendPage, staticAssets } from '../platform/http/static-assets.js';

export const DOCS_PATH = '/docs';

/**
 * Runs in the browser: Swagger UI on the adapter's own OpenAPI document (the credentials are
 * entered with "Authorize", one per security scheme). No validator badge: it would call
 * validator.swagger.io.
 */
const INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: new URL('../openapi.json', location.href.replace(/\\/?([?#].*)?$/, '/')).href,
  dom_id: '#swagger-ui',
  presets: [SwaggerUIBundle.presets.apis],
  validatorUrl: null,
  deepLinking: true,
  tryItOutEnabled: false,
});
`;

const PAGE = htmlPage({
  title: 'REST API — Swagger UI',
  styles: ['docs/swagger-ui.css'],
  scripts: ['docs/swagger-ui-bundle.js', 'docs/init.js'],
  body: '<div id="swagger-ui"></div>',
});

/** Swagger UI at `/docs` (and `/v1/docs`), from `swagger-ui-dist`: public, offline. */
export function mountDocs(app: Express): void {
  const assets = staticAssets({
    'swagger-ui.css': { package: 'swagger-ui-dist', file: 'swagger-ui.css' },
    'swagger-ui-bundle.js': { package: 'swagger-ui-dist', file: 'swagger-ui-bundle.js' },
    'init.js': { type: 'text/javascript', text: INIT_SCRIPT },
  });
  for (const base of [DOCS_PATH, `/v1${DOCS_PATH}`]) {
    app.get(base, (req, res) => sendPage(req, res, PAGE));
    app.use(base, assets);
  }
}
