import type { GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readPrincipal, requestDigest, type Principal } from '../platform/auth/principal.js';
import { SubgraphDataSource, type GatewayContext } from './subgraph-data-source.js';

const SECRET = 'secret-secret-secret';

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

  it('sends identical queries in flight for the same caller once, each caller its own copy; mutations and other callers are sent each', async () => {
    const received: string[] = [];
    const server = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk) => (text += chunk));
      req.on('end', () => {
        const body = JSON.parse(text) as { query: string };
        const principal = readPrincipal(req.headers, SECRET, { audience: 'verification', request: requestDigest(body) });
        received.push(`${principal?.clientId} ${body.query}`);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ data: { n: received.length } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
      const shared = new SubgraphDataSource('verification', url, SECRET);
      const principal: Principal = {
        kind: 'client',
        organizationId: 'o',
        clientId: 'c',
        service: 'all',
        environment: 'live',
        permissions: [],
      };
      const call = (query: string, clientId = 'c') =>
        shared.process({
          kind: 'health check',
          request: { query, variables: {} },
          context: { principal: { ...principal, clientId }, requestId: `r-${received.length}` } satisfies GatewayContext,
        } as unknown as GraphQLDataSourceProcessOptions<GatewayContext>);
      const answers = await Promise.all([
        call('query Q{n}'),
        call('query Q{n}'),
        call('query Q{n}', 'd'),
        call('mutation M{n}'),
        call('mutation M{n}'),
      ]);
      expect(received.sort()).toEqual(['c mutation M{n}', 'c mutation M{n}', 'c query Q{n}', 'd query Q{n}']);
      // the two joined callers got equal answers, each its own object
      expect(answers[0].data).toEqual(answers[1].data);
      expect(answers[0].data).not.toBe(answers[1].data);
      // once answered, the same query is sent again
      await call('query Q{n}');
      expect(received).toHaveLength(5);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
