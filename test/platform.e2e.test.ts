import { readFileSync } from 'node:fs';
import { composeSupergraph, SUPERGRAPH_PATH } from '../cli/schema.js';
import { startTestStack, type TestStack } from './support/stack.js';

describe('the committed supergraph', () => {
  it('is what the subgraphs compose to today (run `npm run schema` when this fails)', async () => {
    const { supergraph } = await composeSupergraph();
    expect(readFileSync(SUPERGRAPH_PATH, 'utf8')).toBe(supergraph);
  });
});

describe('every service', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack?.stop());

  it('answers /health, /ready and /metrics, and carries a request id', async () => {
    for (const [name, url] of Object.entries(stack.urls)) {
      const base = new URL(url!).origin;
      const health = await fetch(`${base}/health`);
      expect([name, health.status]).toEqual([name, 200]);
      expect([name, (await fetch(`${base}/ready`)).status]).toEqual([name, 200]);
      const metrics = await fetch(`${base}/metrics`);
      expect(await metrics.text()).toContain('http_request_duration_seconds');
      expect(health.headers.get('x-request-id')).toBeTruthy();
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

  it('serves the OpenAPI document generated from the route table', async () => {
    const doc = (await (await fetch(`${stack.urls.rest}/openapi.json`)).json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.0.3');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/verifications/identity', '/webhooks/configure', '/admin/api-clients']),
    );
  });
});
