import { Pool, type Dispatcher } from 'undici';
import type { Principal } from '../platform/auth/principal.js';
import { inProcessHandler } from '../platform/http/in-process.js';

/** As long as the data sources wait for a subgraph (they set no deadline); a stuck socket is not kept forever. */
const SUBGRAPH_TIMEOUT_MS = 60_000;

/** Kept-alive connections, one pool per origin (the subgraphs; the benches' targets). */
const pools = new Map<string, Pool>();

export interface SubgraphResponse {
  status: number;
  headers: Headers;
  text: string;
}

/** A call's headers: `signed`, with the caller's principal signed in them (over HTTP, or in-process without `principal`). */
export type CallHeaders = (signed: boolean) => Record<string, string> | Promise<Record<string, string>>;

/**
 * One call to a subgraph, its whole answer read; rejects when the subgraph cannot be reached. A
 * subgraph running in this process answers a POST in-process (platform/http/in-process.ts), given
 * the caller's `principal` as is when there is one; over HTTP the principal travels signed.
 */
export async function callSubgraph(
  url: string,
  init: { method?: string; headers?: CallHeaders; body?: string; principal?: Principal },
): Promise<SubgraphResponse> {
  const headers = init.headers ?? (() => ({}));
  const http = async (signed?: Record<string, string>) =>
    overHttp(url, { method: init.method, headers: signed ?? (await headers(true)), body: init.body });
  const local = (init.method ?? 'POST') === 'POST' ? inProcessHandler(url) : undefined;
  if (!local) return http();
  const sent = await headers(!init.principal);
  const answered = await local({ headers: sent, body: init.body ?? '', principal: init.principal });
  // declined: HTTP answers it as it always did (signed, the principal given or not)
  return answered ?? http(init.principal ? undefined : sent);
}

/** Calls in flight that identical calls join (`joinOrCall`), by subgraph URL, caller and body. */
const inFlight = new Map<string, Promise<SubgraphResponse>>();

/**
 * POSTs `body` to the subgraph at `url` for `principal` with the headers `headers` gives, unless an identical
 * call is in flight: same URL and body for the same caller (`sharedAs`; undefined never shares).
 * Then that call's answer is this one's too. Only side-effect-free calls (queries) may share: many
 * clients asking the same query at once (a dashboard's poll, a burst on one record) cost the
 * subgraph one execution, and the joining request skips signing its own call. Each caller gets the
 * answer's text and parses its own copy, so no object is shared between requests.
 */
export function joinOrCall(
  url: string,
  body: string,
  sharedAs: string | undefined,
  headers: CallHeaders,
  principal?: Principal,
): Promise<SubgraphResponse> {
  const call = () => callSubgraph(url, { headers, body, principal });
  if (sharedAs === undefined) return call();
  const key = `${url}\n${sharedAs}\n${body}`;
  let running = inFlight.get(key);
  if (!running) {
    running = call().finally(() => inFlight.delete(key));
    inFlight.set(key, running);
  }
  return running;
}

/**
 * One call over kept-alive connections, its whole answer read (also the benches' load loops).
 * undici's pools cost a third less CPU per call than node:http's agent here, and fetch far more
 * (its web streams): BENCHMARKS.md.
 */
export async function overHttp(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<SubgraphResponse> {
  const { origin, pathname, search } = new URL(url);
  let pool = pools.get(origin);
  if (!pool) pools.set(origin, (pool = new Pool(origin)));
  const res = await pool.request({
    path: pathname + search,
    method: (init.method ?? 'POST') as Dispatcher.HttpMethod,
    headers: init.headers,
    body: init.body,
    headersTimeout: SUBGRAPH_TIMEOUT_MS,
    bodyTimeout: SUBGRAPH_TIMEOUT_MS,
  });
  const text = await res.body.text();
  // built when read (Apollo's data sources do; the plan shortcut does not)
  let headers: Headers | undefined;
  return {
    status: res.statusCode,
    get headers() {
      if (!headers) {
        headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
        }
      }
      return headers;
    },
    text,
  };
}

/** A subgraph's answer in the shape of a fetch Response (what Apollo's data sources read). */
export function fetcherResponse(url: string, { status, headers, text }: SubgraphResponse) {
  const response = {
    url,
    status,
    statusText: String(status),
    ok: status >= 200 && status < 300,
    redirected: false,
    bodyUsed: false,
    headers,
    text: async () => text,
    json: async () => JSON.parse(text) as unknown,
    arrayBuffer: async () => new TextEncoder().encode(text).buffer,
    clone: () => response,
  };
  return response;
}
