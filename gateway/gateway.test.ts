import { getIntrospectionQuery } from 'graphql';
import { API_KEYS, graphqlPost, METER, PRINCIPAL, RETRY_AFTER_SECONDS, startTestStack, type TestStack } from './testing/test-stack.js';

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(async () => {
  await stack?.stop();
});

describe('gateway over HTTP', () => {
  describe('happy path', () => {
    it('answers a query whose fields live in two subgraphs', async () => {
      const { status, body } = await graphqlPost(stack, { query: '{ identity(id: "abc") { id status riskScore } }' });
      expect(status).toBe(200);
      expect(body).toEqual({ data: { identity: { id: 'abc', status: 'VERIFIED', riskScore: 30 } } });
    });

    it('sets the rate-limit headers authenticate returned', async () => {
      const { headers } = await graphqlPost(stack, { query: '{ riskPing }' });
      expect(headers.get('ratelimit-limit')).toBe('100');
      expect(headers.get('ratelimit-remaining')).toBe('99');
    });

    it('forwards a signed principal, the request id and the idempotency key to every subgraph', async () => {
      stack.verification.received.length = 0;
      stack.risk.received.length = 0;
      stack.verification.principals.length = 0;
      stack.risk.principals.length = 0;
      const { body } = await graphqlPost(
        stack,
        { query: '{ whoami identity(id: "x") { riskScore } }' },
        {
          'x-api-key': API_KEYS.good,
          'x-request-id': 'req-123',
          'idempotency-key': 'idem-1',
        },
      );
      expect(body.data.whoami).toBe(PRINCIPAL.clientId);
      expect([...stack.verification.principals, ...stack.risk.principals]).toEqual(
        [...stack.verification.received, ...stack.risk.received].map(() => PRINCIPAL),
      );
      for (const headers of [...stack.verification.received, ...stack.risk.received]) {
        expect(headers['x-request-id']).toBe('req-123');
        expect(headers['idempotency-key']).toBe('idem-1');
      }
      expect(stack.risk.received.length).toBeGreaterThan(0);
    });

    it('accepts a bearer token as well as X-API-Key', async () => {
      const { status } = await graphqlPost(stack, { query: '{ riskPing }' }, { authorization: `Bearer ${API_KEYS.good}` });
      expect(status).toBe(200);
    });

    it('serves /health and /ready; /metrics is closed without a metrics token', async () => {
      const base = stack.gateway.url.replace(/\/graphql$/, '');
      expect((await fetch(`${base}/health`)).status).toBe(200);
      expect(await (await fetch(`${base}/ready`)).json()).toMatchObject({ status: 'ready', service: 'gateway' });
      // no METRICS_TOKEN configured: closed
      expect((await fetch(`${base}/metrics`)).status).toBe(403);
    });

    it('tells clients an idle connection is kept 65 s, longer than load balancers keep theirs (was 5 s)', async () => {
      const { headers } = await graphqlPost(stack, { query: '{ riskPing }' });
      expect(headers.get('keep-alive')).toBe('timeout=65');
    });
  });

  describe('edge authentication', () => {
    it('answers 401 UNAUTHENTICATED without a key', async () => {
      const { status, body } = await graphqlPost(stack, { query: '{ riskPing }' }, {});
      expect(status).toBe(401);
      expect(body).toEqual({ errors: [{ message: 'Missing or invalid API key', extensions: { code: 'UNAUTHENTICATED' } }] });
    });

    it('answers 403 FORBIDDEN for a disabled client', async () => {
      const { status, body } = await graphqlPost(stack, { query: '{ riskPing }' }, { 'x-api-key': API_KEYS.banned });
      expect(status).toBe(403);
      expect(body.errors![0].extensions.code).toBe('FORBIDDEN');
    });

    it('answers 429 with Retry-After when rate limited', async () => {
      const { status, headers, body } = await graphqlPost(stack, { query: '{ riskPing }' }, { 'x-api-key': API_KEYS.limited });
      expect(status).toBe(429);
      expect(headers.get('retry-after')).toBe(String(RETRY_AFTER_SECONDS));
      expect(body.errors![0].extensions).toEqual({ code: 'RATE_LIMITED', retryAfter: RETRY_AFTER_SECONDS });
    });

    it('counts a mutation once per root field: aliases cannot carry many mutations for the price of one request', async () => {
      const three =
        'mutation { a: createIdentity(input: { userId: "a" }) { id } b: createIdentity(input: { userId: "b" }) { id } ...more }';
      const query = `${three} fragment more on Mutation { c: createIdentity(input: { userId: "c" }) { id } }`;
      METER.remaining = 3;
      const paid = await graphqlPost(stack, { query }, { 'x-api-key': API_KEYS.metered });
      expect([paid.status, METER.remaining]).toEqual([200, 0]);

      METER.remaining = 2; // the request itself fits, its three mutations do not
      const refused = await graphqlPost(stack, { query }, { 'x-api-key': API_KEYS.metered });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe(String(RETRY_AFTER_SECONDS));
      expect(refused.body.errors).toEqual([
        { message: 'Rate limit exceeded', extensions: { code: 'RATE_LIMITED', retryAfter: RETRY_AFTER_SECONDS } },
      ]);
      expect(refused.body.data).toBeUndefined();
      METER.remaining = Number.POSITIVE_INFINITY;
    });
  });

  describe('errors', () => {
    it('passes a subgraph error code through without its stack trace or subgraph details', async () => {
      const { body } = await graphqlPost(stack, { query: '{ conflicting }' });
      expect(body.errors).toEqual([{ message: 'Identity already exists', path: ['conflicting'], extensions: { code: 'CONFLICT' } }]);
    });

    it('hides an unexpected subgraph failure behind INTERNAL and an error id', async () => {
      const { body } = await graphqlPost(stack, { query: '{ crashing }' });
      const [error] = body.errors!;
      expect(error.extensions).toEqual({ code: 'INTERNAL', errorId: expect.any(String) });
      expect(error.message).toBe(`Internal server error (error id ${error.extensions.errorId})`);
      expect(JSON.stringify(body)).not.toContain('db-internal');
    });

    it('rewrites a missing required input field', async () => {
      const { status, body } = await graphqlPost(stack, {
        query: 'mutation($input: CreateIdentityInput!) { createIdentity(input: $input) { id } }',
        variables: { input: { tier: 'BASIC' } },
      });
      expect(status).toBe(400);
      expect(body.errors).toEqual([expect.objectContaining({ message: 'userId is required', extensions: { code: 'BAD_USER_INPUT' } })]);
    });

    it('rewrites an enum value that is not allowed, with the allowed values', async () => {
      const { body } = await graphqlPost(stack, {
        query: 'mutation($input: CreateIdentityInput!) { createIdentity(input: $input) { id } }',
        variables: { input: { userId: 'u1', tier: 'FOO' } },
      });
      expect(body.errors).toEqual([
        expect.objectContaining({ message: 'tier must be one of: BASIC, STANDARD, ENHANCED', extensions: { code: 'VALIDATION_FAILED' } }),
      ]);
    });

    it('rewrites wrong types and unknown fields with their nested path', async () => {
      const { body } = await graphqlPost(stack, {
        query: 'mutation($input: CreateIdentityInput!) { createIdentity(input: $input) { id } }',
        variables: { input: { userId: 'u1', address: { city: 'Lagos', zip: 'x', street: 'y' } } },
      });
      expect(body.errors!.map((e) => e.message)).toEqual(['address.zip must be an integer', 'address.street is not allowed']);
    });

    it('reports a bad document as BAD_USER_INPUT', async () => {
      const { status, body } = await graphqlPost(stack, { query: '{ nope }' });
      expect(status).toBe(400);
      expect(body.errors![0].extensions).toEqual({ code: 'BAD_USER_INPUT' });
    });

    it('answers 400 for an operationName the document does not hold (was a 500)', async () => {
      const { status, body } = await graphqlPost(stack, { query: 'query A { riskPing } query B { riskPing }', operationName: 'C' });
      expect(status).toBe(400);
      expect(body.errors![0].extensions).toEqual({ code: 'BAD_USER_INPUT' });
    });

    it('points subscriptions sent over HTTP to the WebSocket endpoint', async () => {
      const { status, body } = await graphqlPost(stack, { query: 'subscription { identityUpdated(id: "1") { id } }' });
      expect(status).toBe(400);
      expect(body.errors![0]).toMatchObject({ message: expect.stringContaining('graphql-ws'), extensions: { code: 'BAD_USER_INPUT' } });
    });
  });

  describe('request limits', () => {
    it('answers 413 PAYLOAD_TOO_LARGE for a JSON body over the limit of the key (28 MB for verification keys: base64 images)', async () => {
      const { status, body } = await graphqlPost(stack, {
        query: '{ riskPing }',
        variables: { padding: 'x'.repeat(28 * 1024 * 1024 + 1) },
      });
      expect(status).toBe(413);
      expect(body.errors![0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
    });

    it('rejects more aliases than graphql-armor allows', async () => {
      const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: riskPing`).join(' ')} }`;
      expect((await graphqlPost(stack, { query: aliases(15) })).status).toBe(200);
      const { status, body } = await graphqlPost(stack, { query: aliases(16) });
      expect(status).toBe(400);
      expect(body.errors![0].extensions.code).toBe('BAD_USER_INPUT');
    });

    it('applies CSRF prevention to requests a browser could send without preflight', async () => {
      const response = await fetch(`${stack.gateway.url}?query=${encodeURIComponent('{ riskPing }')}`, {
        headers: { 'x-api-key': API_KEYS.good },
      });
      expect(response.status).toBe(400);
      const ok = await fetch(`${stack.gateway.url}?query=${encodeURIComponent('{ riskPing }')}`, {
        headers: { 'x-api-key': API_KEYS.good, 'apollo-require-preflight': 'true' },
      });
      expect(ok.status).toBe(200);
    });
  });
});

describe('introspection in development', () => {
  it('answers the standard introspection query and refuses list fields nested deeper (HTTP)', async () => {
    const standard = await graphqlPost(stack, { query: getIntrospectionQuery() });
    expect(standard.status).toBe(200);
    expect(standard.body.data.__schema.types.length).toBeGreaterThan(5);

    const explosive = '{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }';
    const refused = await graphqlPost(stack, { query: explosive });
    expect(refused.status).toBe(400);
    expect(refused.body.errors![0]).toMatchObject({
      message: 'Maximum introspection depth exceeded',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const viaFragment = await graphqlPost(stack, {
      query:
        'query { __type(name: "Query") { ...F } } fragment F on __Type { fields { type { fields { type { interfaces { name } } } } } }',
    });
    expect(viaFragment.status).toBe(400);
  });
});

describe('gateway in production mode', () => {
  let production: TestStack;

  beforeAll(async () => {
    production = await startTestStack({ production: true });
  });

  afterAll(async () => {
    await production?.stop();
  });

  it('refuses introspection', async () => {
    const { status, body } = await graphqlPost(production, { query: '{ __schema { types { name } } }' });
    expect(status).toBe(400);
    expect(body.errors![0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('hides field suggestions', async () => {
    const { body } = await graphqlPost(production, { query: '{ riskPin }' });
    expect(body.errors![0].message).not.toContain('Did you mean');
  });
});

describe('gateway with a subgraph down', () => {
  let degraded: TestStack;

  beforeAll(async () => {
    degraded = await startTestStack();
    await degraded.risk.stop();
  });

  afterAll(async () => {
    await degraded?.stop();
  });

  it("answers the reachable subgraph's fields and UNAVAILABLE for the rest", async () => {
    const { body } = await graphqlPost(degraded, { query: '{ whoami riskPing }' });
    expect(body.data).toEqual({ whoami: PRINCIPAL.clientId, riskPing: null });
    expect(body.errors).toEqual([expect.objectContaining({ extensions: { code: 'UNAVAILABLE', errorId: expect.any(String) } })]);
    expect(JSON.stringify(body)).not.toContain('127.0.0.1');
  });
});

describe('X-Forwarded-For', () => {
  it('is believed from a trusted proxy (loopback by default) and ignored from anyone else', async () => {
    const forwardedIp = async (target: TestStack) => {
      target.verification.received.length = 0;
      await graphqlPost(target, { query: '{ whoami }' }, { 'x-api-key': API_KEYS.good, 'x-forwarded-for': '203.0.113.7' });
      return target.verification.received.map((headers) => headers['x-forwarded-for']);
    };
    expect(await forwardedIp(stack)).toEqual(['203.0.113.7']);
    const untrusting = await startTestStack({ trustedProxies: ['10.0.0.0/8'] });
    try {
      expect(await forwardedIp(untrusting)).toEqual(['127.0.0.1']);
    } finally {
      await untrusting.stop();
    }
  });
});
