import type { RequestHandler, Router } from 'express';
import { htmlPage, sendPage, staticAssets } from '../platform/http/static-assets.js';

/** GraphiQL's scripts and styles, public like the page itself (the GraphQL requests need a key). */
export const GRAPHIQL_ASSETS_PATH = '/graphiql';

/**
 * Runs in the browser. Queries and mutations are POSTed as JSON (which passes the CSRF check) with
 * the header editor's headers; subscriptions go over graphql-ws on the same URL, the credential
 * headers in `connectionParams` (browsers cannot set headers on a WebSocket upgrade).
 */
const INIT_SCRIPT = String.raw`(() => {
  'use strict';
  const endpoint = location.pathname;
  const wsUrl = location.href.split(/[?#]/)[0].replace(/^http/, 'ws');
  const CREDENTIALS = ['x-api-key', 'authorization', 'x-admin-secret'];
  let client;
  let clientKey;

  function credentials(headers) {
    return Object.fromEntries(Object.entries(headers || {}).filter(([name]) => CREDENTIALS.includes(name.toLowerCase())));
  }

  // one connection per set of credentials: a changed key reconnects
  function wsClient(headers) {
    const params = credentials(headers);
    const key = JSON.stringify(params);
    if (client && key === clientKey) return client;
    if (client) client.dispose();
    clientKey = key;
    client = graphqlWs.createClient({ url: wsUrl, connectionParams: params, retryAttempts: 0 });
    return client;
  }

  // read from the text sent (GraphiQL's parsed document may lag behind the editor): the operation
  // keywords outside braces, strings and comments; the chosen one by name
  function isSubscription(params) {
    const text = String(params.query).replace(/"""[\s\S]*?"""|"(?:[^"\\\n]|\\.)*"|#[^\n]*/g, ' ');
    let depth = 0;
    let top = '';
    for (const c of text) {
      if (c === '{') depth += 1;
      else if (c === '}') depth = Math.max(0, depth - 1);
      else if (depth === 0) top += c;
      if (c === '}' && depth === 0) top += ' ';
    }
    const operations = [...top.matchAll(/\b(query|mutation|subscription)\b\s*([_A-Za-z][_0-9A-Za-z]*)?/g)];
    const chosen = operations.find((m) => !params.operationName || m[2] === params.operationName);
    return !!chosen && chosen[1] === 'subscription';
  }

  function closeMessage(error) {
    if (Array.isArray(error)) return error;
    if (error && typeof error.code === 'number') return [{ message: 'Connection closed (' + error.code + (error.reason ? ': ' + error.reason : '') + ')' }];
    return [{ message: String((error && error.message) || error) }];
  }

  function fetcher(params, opts) {
    const headers = (opts && opts.headers) || {};
    if (isSubscription(params)) {
      const ws = wsClient(headers);
      return {
        subscribe(observer) {
          const dispose = ws.subscribe(params, {
            next: (value) => observer.next(value),
            // shown in the response pane like any GraphQL error
            error: (error) => {
              observer.next({ errors: closeMessage(error) });
              observer.complete();
            },
            complete: () => observer.complete(),
          });
          return { unsubscribe: dispose };
        },
      };
    }
    return fetch(endpoint, {
      method: 'POST',
      credentials: 'omit',
      headers: { 'Content-Type': 'application/json', Accept: 'application/graphql-response+json, application/json', ...headers },
      body: JSON.stringify(params),
    }).then((response) => response.json());
  }

  const defaultQuery = [
    '# Put your API key in the Headers tab below ({"X-API-Key": "…"}), then run this query.',
    '# Subscriptions run over graphql-ws on the same URL with the same headers.',
    '{',
    '  __typename',
    '}',
    '',
  ].join('\n');

  ReactDOM.createRoot(document.getElementById('graphiql')).render(
    React.createElement(GraphiQL, {
      fetcher,
      defaultQuery,
      defaultHeaders: JSON.stringify({ 'X-API-Key': '' }, null, 2),
      defaultEditorToolsVisibility: 'headers',
      isHeadersEditorEnabled: true,
    }),
  );
})();
`;

const PAGE = htmlPage({
  title: 'GraphiQL',
  styles: [`graphiql/graphiql.min.css`],
  scripts: ['react.js', 'react-dom.js', 'graphql-ws.js', 'graphiql.js', 'init.js'].map((name) => `graphiql/${name}`),
  body: '<div id="graphiql" style="height:100vh">Loading GraphiQL…</div>',
});

export function graphiqlAssets(): Router {
  return staticAssets({
    'react.js': { package: 'react', file: 'umd/react.production.min.js' },
    'react-dom.js': { package: 'react-dom', file: 'umd/react-dom.production.min.js' },
    'graphql-ws.js': { package: 'graphql-ws', file: 'umd/graphql-ws.min.js' },
    'graphiql.js': { package: 'graphiql', file: 'graphiql.min.js' },
    'graphiql.min.css': { package: 'graphiql', file: 'graphiql.min.css' },
    'init.js': { type: 'text/javascript', text: INIT_SCRIPT },
  });
}

/**
 * A browser opening the GraphQL URL (GET preferring text/html) gets GraphiQL, without a key;
 * anything else (curl's `*\/*`, JSON clients) goes on to authentication and Apollo.
 */
export const graphiqlPage: RequestHandler = (req, res, next) => {
  if (req.method !== 'GET' || req.accepts(['application/graphql-response+json', 'application/json', 'text/html']) !== 'text/html')
    return next();
  sendPage(req, res, PAGE);
};
