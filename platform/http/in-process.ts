import type { Principal } from '../auth/principal.js';

/**
 * Subgraphs running in this process (`npm start`'s single event loop) answer the gateway's JSON
 * calls without HTTP: the same request and answer, the same checks (the body limit, the content
 * type), none of the loopback HTTP work on both sides. Keyed by loopback port and path: a subgraph
 * in another thread or process is reached over HTTP as before.
 */
export interface InProcessRequest {
  headers: Record<string, string>;
  body: string;
  /**
   * The caller as the gateway of this process authenticated it, instead of a signed principal in
   * `headers`: only code in this process reaches these handlers, so the signature (an HMAC, and a
   * digest of the request on each side: ≈ 7 % of a record read) would prove nothing more.
   */
  principal?: Principal;
}

export interface InProcessResponse {
  status: number;
  headers: Headers;
  text: string;
}

/** The answer, or null when this request must go over HTTP (which answers it as it always did). */
export type InProcessHandler = (request: InProcessRequest) => Promise<InProcessResponse | null>;

const handlers = new Map<string, InProcessHandler>();
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Keys by URL: the gateway calls a handful of subgraph URLs, and parsing one is ≈ 1 % of a record read. */
const keys = new Map<string, string | null>();

function keyOf(url: string): string | null {
  let key = keys.get(url);
  if (key !== undefined) return key;
  try {
    const u = new URL(url);
    key = LOOPBACK.has(u.hostname) ? `${u.port}${u.pathname}` : null;
  } catch {
    key = null;
  }
  if (keys.size >= 100) keys.clear();
  keys.set(url, key);
  return key;
}

/** Serves `url`'s calls in-process until the returned function is called. */
export function serveInProcess(url: string, handler: InProcessHandler): () => void {
  const key = keyOf(url);
  if (key === null) return () => {};
  handlers.set(key, handler);
  return () => {
    if (handlers.get(key) === handler) handlers.delete(key);
  };
}

export function inProcessHandler(url: string): InProcessHandler | undefined {
  const key = keyOf(url);
  return key === null ? undefined : handlers.get(key);
}
