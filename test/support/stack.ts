import { hasFileParts, multipartOperation } from '../../platform/graphql/upload.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import vm from 'node:vm';
import type { Stack, StackOptions } from '../../cli/stack.js';
import { createTestDatabase } from './database.js';

export { createTestDatabase, eventually } from './database.js';

export const ADMIN_SECRET = 'test-admin-secret-0123456789';
export const INTERNAL_SECRET = 'test-internal-secret-0123456789';
export const METRICS_TOKEN = 'test-metrics-token-0123456789';
/** The master key of every test stack and test service process (they share databases). */
export const TEST_MASTER_KEY = Buffer.from('test-master-key-0123456789abcdef').toString('base64');

export interface TestStack extends Stack {
  databaseUrl: string;
  gql<T = any>(
    query: string,
    variables?: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: { data?: T; errors?: any[] }; headers: Headers }>;
  rest(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Headers }>;
  /** Creates an API client through the REST admin route and returns its key and ids. */
  createClient(input?: Record<string, unknown>): Promise<{ apiKey: string; id: string; organizationId: string }>;
  subscribe(query: string, variables: Record<string, unknown>, connectionParams: Record<string, string>): Subscription;
}

export interface Subscription {
  events: any[];
  /** Resolves once the subgraph serves the subscription: changes made after it are delivered. */
  ready: Promise<void>;
  /** Resolves with the first `n` events (waits up to `ms`). */
  next(n?: number, ms?: number): Promise<any[]>;
  close(): Promise<void>;
}

/**
 * The stack's code as Node itself loads it from the build (`npm test` builds first), once per jest
 * worker: jest's module registry would load and compile its thousands of modules again for every
 * suite (≈ 5 s of CPU each), and start each stack on code that never got warm. So are the models
 * the worker's stacks share and the REST contract's compiled validators.
 */
export const importBuilt: (specifier: string) => Promise<unknown> = new vm.Script('(specifier) => import(specifier)', {
  importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
}).runInThisContext();
const built = async () => ({
  ...((await importBuilt(path.resolve('dist/cli/stack.js'))) as typeof import('../../cli/stack.js')),
  ...((await importBuilt(path.resolve('dist/platform/config.js'))) as typeof import('../../platform/config.js')),
  ...((await importBuilt(path.resolve('dist/test/support/worker-resources.js'))) as typeof import('./worker-resources.js')),
  ...((await importBuilt(path.resolve('dist/test/support/contract.js'))) as typeof import('./contract.js')),
});

export async function startTestStack(env: Record<string, string> = {}, extra: Partial<StackOptions> = {}): Promise<TestStack> {
  const { loadConfig, startStack, workerResources, contractViolation } = await built();
  const databaseUrl = extra.databaseUrl ?? (await createTestDatabase());
  const storageDir = mkdtempSync(path.join(tmpdir(), 'afri-files-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    GATEWAY_PORT: '0',
    VERIFICATION_PORT: '0',
    RISK_PORT: '0',
    NOTIFY_PORT: '0',
    REST_PORT: '0',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    OUTBOX_POLL_MS: '500',
    // the suites' short retry delays want short polls (a job committed here wakes its worker anyway)
    JOB_POLL_SECONDS: '0.5',
    METRICS_TOKEN,
    ENCRYPTION_MASTER_KEY: TEST_MASTER_KEY,
    // each stack's uploaded files in a folder of its own, removed when it stops
    STORAGE_DIR: storageDir,
    // suites bring their own fixture lists; test/default-data.e2e.test.ts turns the shipped ones on
    DEFAULT_SCREENING_DATA: 'false',
    ...env,
  });
  const stack = await startStack({
    config,
    databaseUrl,
    adminSecret: ADMIN_SECRET,
    internalSecret: INTERNAL_SECRET,
    resources: workerResources,
    ...extra,
  });
  const gatewayUrl = stack.urls.gateway!;
  const restUrl = stack.urls.rest!;

  const gql: TestStack['gql'] = async (query, variables, headers = {}) => {
    // variables holding files go as a multipart request (graphql-multipart-request-spec)
    const multipart = hasFileParts(variables);
    const res = await fetch(gatewayUrl, {
      method: 'POST',
      headers: multipart ? { 'apollo-require-preflight': 'true', ...headers } : { 'content-type': 'application/json', ...headers },
      body: multipart ? multipartOperation({ query, variables }) : JSON.stringify({ query, variables }),
    });
    return { status: res.status, body: (await res.json()) as never, headers: res.headers };
  };
  const rest: TestStack['rest'] = async (method, path, body, headers = {}) => {
    // a FormData body goes as multipart (fetch sets its boundary); an image comes back as bytes
    const form = body instanceof FormData;
    const res = await fetch(restUrl + path, {
      method,
      headers: { ...(body !== undefined && !form ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : form || typeof body === 'string' ? body : JSON.stringify(body),
    });
    if (res.headers.get('content-type')?.startsWith('image/')) {
      return { status: res.status, body: Buffer.from(await res.arrayBuffer()), headers: res.headers };
    }
    const text = await res.text();
    const parsed = text ? JSON.parse(text) : null;
    // every answer is the one the OpenAPI document describes (a mismatch fails the calling test)
    const violation = contractViolation(method, path, res.status, res.headers.get('content-type'), parsed);
    if (violation) throw new Error(violation);
    return { status: res.status, body: parsed, headers: res.headers };
  };
  const createClientFn: TestStack['createClient'] = async (input = {}) => {
    const res = await rest('POST', '/admin/api-clients', { name: 'test client', ...input }, { 'x-admin-secret': ADMIN_SECRET });
    if (res.status !== 201) throw new Error(`createClient failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  // subscriptions of this test stack that are open (not closed, not refused): readiness is the
  // stack serving at least that many
  let open = 0;
  const served = (atLeast: () => number, what: string) => until(() => stack.activeSubscriptions() >= atLeast(), what);
  const subscribe: TestStack['subscribe'] = (query, variables, connectionParams) => {
    open += 1;
    let counted = true;
    const uncount = () => {
      if (counted) open -= 1;
      counted = false;
    };
    const client: Client = createClient({
      url: gatewayUrl.replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      connectionParams,
      retryAttempts: 0,
      lazy: false,
      onNonLazyError: () => undefined,
    });
    const events: any[] = [];
    const waiters: Array<() => void> = [];
    const unsubscribe = client.subscribe(
      { query, variables },
      {
        next: (v) => {
          events.push(v);
          waiters.splice(0).forEach((w) => w());
        },
        error: (e) => {
          uncount();
          events.push({ error: e });
          waiters.splice(0).forEach((w) => w());
        },
        complete: () => undefined,
      },
    );
    const wanted = open;
    const ready = served(() => (counted ? wanted : 0), 'the subscription to be served');
    ready.catch(() => undefined); // only a test that awaits it cares
    return {
      events,
      ready,
      next: async (n = 1, ms = 10_000) => {
        const deadline = Date.now() + ms;
        while (events.length < n) {
          if (Date.now() > deadline) throw new Error(`expected ${n} subscription events, got ${JSON.stringify(events)}`);
          await new Promise<void>((resolve) => {
            waiters.push(resolve);
            setTimeout(resolve, 100);
          });
        }
        return events.slice(0, n);
      },
      close: async () => {
        uncount();
        unsubscribe();
        await client.dispose();
        // the server has let go of it: a later subscription's readiness cannot count this one
        await until(() => stack.activeSubscriptions() <= open, 'the subscription to be released');
      },
    };
  };
  const stop = async () => {
    await stack.stop();
    rmSync(storageDir, { recursive: true, force: true });
  };
  return { ...stack, stop, databaseUrl, gql, rest, createClient: createClientFn, subscribe };
}

/** Polls `check` every 10 ms until it holds (10 s at most). */
async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
