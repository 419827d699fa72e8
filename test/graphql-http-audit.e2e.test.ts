import { auditServer } from 'graphql-http';
import { startTestStack, type TestStack } from './support/stack.js';

/**
 * GraphQL over HTTP conformance: graphql-http's server audits against the gateway (every MUST
 * passes; SHOULD and MAY are reported). Requests carry an API key, as every client's must.
 */
describe('GraphQL over HTTP audits (graphql-http)', () => {
  let stack: TestStack;
  let results: Awaited<ReturnType<typeof auditServer>>;
  beforeAll(async () => {
    stack = await startTestStack({}, { services: ['verification', 'gateway', 'rest'] });
    const { apiKey } = await stack.createClient({ name: 'audits' });
    results = await auditServer({
      url: stack.urls.gateway!,
      fetchFn: (input: string | URL | Request, init?: RequestInit) => {
        const headers = new Headers(init?.headers);
        headers.set('x-api-key', apiKey);
        return fetch(input, { ...init, headers });
      },
    });
  });
  afterAll(() => stack?.stop());

  it('passes every MUST', () => {
    const must = results.filter((r) => r.name.startsWith('MUST'));
    expect(must.length).toBeGreaterThan(10);
    expect(must.filter((r) => r.status !== 'ok').map((r) => `${r.name}: ${'reason' in r ? r.reason : ''}`)).toEqual([]);
    const others = results.filter((r) => !r.name.startsWith('MUST'));
    console.log(
      `graphql-http audits: ${must.length} MUST passed; SHOULD/MAY ${others.filter((r) => r.status === 'ok').length}/${others.length} ok; not: ${others
        .filter((r) => r.status !== 'ok')
        .map((r) => r.name)
        .join(' | ')}`,
    );
  });
});
