import { SubgraphDataSource } from './subgraph-data-source.js';

describe('SubgraphDataSource', () => {
  const source = new SubgraphDataSource('verification', 'http://subgraph.invalid/graphql', 'secret-secret-secret');

  it("keeps a subgraph's client error (HTTP 400 with a GraphQL body) instead of a generic failure", async () => {
    const body = {
      errors: [
        {
          message: 'Variable "$input" got invalid value 5 at "input.data"; Expected type "JSONObject".',
          extensions: { code: 'BAD_USER_INPUT' },
        },
      ],
    };
    const error = await source.errorFromResponse(
      new Response(JSON.stringify(body), { status: 400, headers: { 'content-type': 'application/json' } }) as never,
    );
    expect(error.message).toContain('input.data');
    expect(error.extensions.code).toBe('BAD_USER_INPUT');
  });

  it('leaves other failures generic', async () => {
    const error = await source.errorFromResponse(
      new Response('<html>oops</html>', { status: 502, headers: { 'content-type': 'text/html' } }) as never,
    );
    expect(error.message).toMatch(/^502: /);
    expect(error.extensions.code).toBeUndefined();
  });
});
