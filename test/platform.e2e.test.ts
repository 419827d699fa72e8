import { readFileSync } from 'node:fs';
import { composeSupergraph } from '../cli/schema.js';
import { API_SCHEMA_FILE, SUPERGRAPH_PATH } from '../cli/schema-files.js';
import { principalHeaders, requestDigest, type Principal } from '../platform/auth/principal.js';
import { INTERNAL_SECRET, METRICS_TOKEN, startTestStack, type TestStack } from './support/stack.js';

describe('the committed supergraph', () => {
  it('is what the subgraphs compose to today (run `npm run schema` when this fails)', async () => {
    const { supergraph, api } = await composeSupergraph();
    expect(readFileSync(SUPERGRAPH_PATH, 'utf8')).toBe(supergraph);
    expect(readFileSync(API_SCHEMA_FILE, 'utf8')).toBe(api);
  });
});

describe('every service', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack?.stop());

  it('answers /health, /ready and /metrics (to the metrics token only), and carries a request id', async () => {
    for (const [name, url] of Object.entries(stack.urls)) {
      const base = new URL(url!).origin;
      const health = await fetch(`${base}/health`);
      expect([name, health.status]).toEqual([name, 200]);
      expect([name, (await fetch(`${base}/ready`)).status]).toEqual([name, 200]);
      const metrics = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(await metrics.text()).toContain('http_request_duration_seconds');
      expect([name, (await fetch(`${base}/metrics`)).status]).toEqual([name, 401]);
      expect([name, (await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status]).toEqual([name, 401]);
      expect(health.headers.get('x-request-id')).toBeTruthy();
      // an answer does not name the framework that served it
      expect([name, health.headers.get('x-powered-by')]).toEqual([name, null]);
    }
    const res = await fetch(`${stack.urls.rest}/verifications/identity/user/u`, { headers: { 'x-request-id': 'trace-me-123' } });
    expect(res.headers.get('x-request-id')).toBe('trace-me-123');
  });

  it('reaches all three subgraphs through the gateway', async () => {
    const { apiKey } = await stack.createClient();
    const res = await stack.gql(
      '{ verificationStatus { service } riskStatus { service } notifyStatus { service } }',
      {},
      { 'x-api-key': apiKey },
    );
    expect(res.body.data).toEqual({
      verificationStatus: { service: 'verification' },
      riskStatus: { service: 'risk' },
      notifyStatus: { service: 'notify' },
    });
  });

  it('subgraphs refuse a captured principal replayed with another operation, on another subgraph or after it expired', async () => {
    const admin: Principal = { kind: 'admin', organizationId: null, clientId: null, service: null, environment: 'live', permissions: [] };
    const body = { query: '{ verificationStatus { service } }' };
    const post = (url: string, headers: Record<string, string>, json: unknown = body) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(json) });
    const signed = principalHeaders(admin, INTERNAL_SECRET, { audience: 'verification', request: requestDigest(body) });

    expect((await post(stack.urls.verification!, signed)).status).toBe(200);
    expect((await post(stack.urls.verification!, signed, { query: '{ verificationStatus { service version } }' })).status).toBe(401);
    expect((await post(stack.urls.risk!, signed, { query: '{ riskStatus { service } }' })).status).toBe(401);
    const expired = principalHeaders(
      admin,
      INTERNAL_SECRET,
      { audience: 'verification', request: requestDigest(body) },
      Date.now() - 60_000,
    );
    expect((await post(stack.urls.verification!, expired)).status).toBe(401);
  });

  it('the gateway calls a subgraph of its own process without HTTP, counted in the subgraph’s metrics as over HTTP', async () => {
    const { apiKey } = await stack.createClient();
    const served = () =>
      fetch(`${new URL(stack.urls.verification!).origin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
        .then((r) => r.text())
        .then((text) =>
          Number(/http_request_duration_seconds_count\{[^}]*method="POST"[^}]*status="200"[^}]*\} (\d+)/.exec(text)?.[1] ?? 0),
        );
    const before = await served();
    for (let i = 0; i < 3; i++)
      expect((await stack.gql('{ verificationStatus { service } }', {}, { 'x-api-key': apiKey })).status).toBe(200);
    expect((await served()) - before).toBe(3);
  });

  it('runs subgraphs on loopback only by default', () => {
    for (const name of ['verification', 'risk', 'notify'] as const) expect(new URL(stack.urls[name]!).hostname).toBe('127.0.0.1');
  });

  it('serves the OpenAPI document generated from the route table', async () => {
    const doc = (await (await fetch(`${stack.urls.rest}/openapi.json`)).json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/verifications/identity', '/webhooks/configure', '/admin/api-clients']),
    );
  });
});
