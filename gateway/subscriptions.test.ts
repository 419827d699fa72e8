import { createClient, type Client, type FormattedExecutionResult } from 'graphql-ws';
import WebSocket from 'ws';
import { API_KEYS, PRINCIPAL, startTestStack, type TestStack } from './testing/test-stack.js';

let stack: TestStack;
const clients: Client[] = [];

beforeAll(async () => {
  stack = await startTestStack();
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.dispose()));
});

afterAll(async () => {
  await stack?.stop();
});

function connect(connectionParams: Record<string, unknown> = { 'X-API-Key': API_KEYS.good }): Client {
  const client = createClient({ url: stack.gateway.wsUrl, webSocketImpl: WebSocket, connectionParams, retryAttempts: 0 });
  clients.push(client);
  return client;
}

/** Waits until `condition` holds (subscriptions are set up asynchronously on both hops). */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Collects one subscription's results and how it ended. */
function subscribe(client: Client, query: string, variables?: Record<string, unknown>) {
  const results: Array<FormattedExecutionResult<Record<string, unknown>, unknown>> = [];
  const state: { completed: boolean; error?: unknown } = { completed: false };
  const unsubscribe = client.subscribe(
    { query, variables },
    {
      next: (result) => results.push(result),
      error: (error) => {
        state.error = error;
      },
      complete: () => {
        state.completed = true;
      },
    },
  );
  return { results, state, unsubscribe };
}

const IDENTITY_UPDATED = 'subscription($id: ID!) { identityUpdated(id: $id) { id status riskScore } }';

describe('subscriptions over graphql-ws', () => {
  describe('happy path', () => {
    it('delivers events completed with a field owned by another subgraph', async () => {
      const topic = 'identity:abcd';
      const sub = subscribe(connect(), IDENTITY_UPDATED, { id: 'abcd' });
      await until(() => stack.pubsub.subscriberCount(topic) === 1, 'the upstream subscription');

      stack.pubsub.publish(topic, { id: 'abcd', status: 'PROCESSING' });
      stack.pubsub.publish(topic, { id: 'abcd', status: 'VERIFIED' });
      await until(() => sub.results.length === 2, 'two events');

      expect(sub.results).toEqual([
        { data: { identityUpdated: { id: 'abcd', status: 'PROCESSING', riskScore: 40 } } },
        { data: { identityUpdated: { id: 'abcd', status: 'VERIFIED', riskScore: 40 } } },
      ]);
    });

    it('forwards the signed principal upstream (connectionParams) and on the entity fetches', async () => {
      stack.verification.principals.length = 0;
      stack.risk.principals.length = 0;
      const topic = 'identity:p1';
      const sub = subscribe(connect(), IDENTITY_UPDATED, { id: 'p1' });
      await until(() => stack.pubsub.subscriberCount(topic) === 1, 'the upstream subscription');
      stack.pubsub.publish(topic, { id: 'p1', status: 'VERIFIED' });
      await until(() => sub.results.length === 1, 'one event');

      expect(stack.verification.principals).toEqual([PRINCIPAL]);
      expect(stack.risk.principals).toEqual([PRINCIPAL]);
    });

    it('runs queries sent over the socket', async () => {
      const sub = subscribe(connect(), '{ identity(id: "q") { status riskScore } }');
      await until(() => sub.state.completed, 'the query to complete');
      expect(sub.results).toEqual([{ data: { identity: { status: 'VERIFIED', riskScore: 10 } } }]);
    });
  });

  describe('exit conditions', () => {
    it('closes the upstream subscription when the client unsubscribes, even on a quiet topic', async () => {
      const topic = 'identity:quiet';
      const sub = subscribe(connect(), IDENTITY_UPDATED, { id: 'quiet' });
      await until(() => stack.pubsub.subscriberCount(topic) === 1, 'the upstream subscription');

      sub.unsubscribe();
      await until(() => stack.pubsub.subscriberCount(topic) === 0, 'the upstream subscription to close');
    });

    it('closes the upstream subscription when the client disconnects', async () => {
      const topic = 'identity:gone';
      const client = connect();
      subscribe(client, IDENTITY_UPDATED, { id: 'gone' });
      await until(() => stack.pubsub.subscriberCount(topic) === 1, 'the upstream subscription');

      await client.dispose();
      await until(() => stack.pubsub.subscriberCount(topic) === 0, 'the upstream subscription to close');
    });
  });

  describe('errors', () => {
    it.each([
      [{}, 4401],
      [{ 'x-api-key': API_KEYS.banned }, 4403],
      [{ Authorization: `Bearer ${API_KEYS.limited}` }, 4429],
    ])('closes the socket when authentication fails (%j → %i)', async (params, code) => {
      const sub = subscribe(connect(params), IDENTITY_UPDATED, { id: 'x' });
      await until(() => sub.state.error !== undefined, 'the socket to close');
      expect((sub.state.error as { code: number }).code).toBe(code);
    });

    it('rewrites variable coercion errors as on HTTP', async () => {
      const sub = subscribe(connect(), IDENTITY_UPDATED, {});
      await until(() => sub.state.error !== undefined, 'the error');
      expect(sub.state.error).toEqual([
        { message: 'id is required', locations: expect.any(Array), extensions: { code: 'BAD_USER_INPUT' } },
      ]);
    });

    it('reports an invalid document as BAD_USER_INPUT', async () => {
      const sub = subscribe(connect(), 'subscription { identityUpdated(id: "1") { nope } }');
      await until(() => sub.state.error !== undefined, 'the error');
      expect(sub.state.error).toEqual([expect.objectContaining({ extensions: { code: 'BAD_USER_INPUT' } })]);
    });

    it('answers a document graphql-js fails to validate with an error, keeping the socket open', async () => {
      const client = connect();
      const sub = subscribe(client, 'subscription($s: Boolean!) { identityUpdated(id: "1") @skip(if: $s) { id } }', { s: false });
      await until(() => sub.state.error !== undefined, 'the error');
      expect(sub.state.error).toEqual([expect.objectContaining({ extensions: { code: 'BAD_USER_INPUT' } })]);

      const next = subscribe(client, '{ riskPing }');
      await until(() => next.state.completed, 'a second operation on the same socket');
      expect(next.results).toEqual([{ data: { riskPing: 'pong' } }]);
    });

    it('formats errors in events without stack traces', async () => {
      const sub = subscribe(connect(), '{ conflicting crashing }');
      await until(() => sub.state.completed, 'the query to complete');
      const errors = sub.results[0].errors!;
      expect(errors[0]).toEqual({ message: 'Identity already exists', path: ['conflicting'], extensions: { code: 'CONFLICT' } });
      expect(errors[1].extensions).toEqual({ code: 'INTERNAL', errorId: expect.any(String) });
      expect(JSON.stringify(errors)).not.toMatch(/stacktrace|db-internal/);
    });
  });
});

describe('subscriptions when things go away', () => {
  let own: TestStack;

  beforeEach(async () => {
    own = await startTestStack();
  });

  afterEach(async () => {
    await own?.stop();
  });

  function ownClient(): Client {
    const client = createClient({
      url: own.gateway.wsUrl,
      webSocketImpl: WebSocket,
      connectionParams: { 'x-api-key': API_KEYS.good },
      retryAttempts: 0,
    });
    clients.push(client);
    return client;
  }

  it('ends the subscription with UNAVAILABLE when the subgraph drops it', async () => {
    const sub = subscribe(ownClient(), IDENTITY_UPDATED, { id: 'drop' });
    await until(() => own.pubsub.subscriberCount('identity:drop') === 1, 'the upstream subscription');

    await own.verification.stop();
    await until(() => sub.state.completed, 'the subscription to end');
    expect(sub.results).toEqual([
      { errors: [{ message: 'The subscription source closed unexpectedly', extensions: { code: 'UNAVAILABLE' } }] },
    ]);
  });

  it('stop() closes client sockets, upstream subscriptions and the HTTP server', async () => {
    const sub = subscribe(ownClient(), IDENTITY_UPDATED, { id: 'stop' });
    await until(() => own.pubsub.subscriberCount('identity:stop') === 1, 'the upstream subscription');

    await own.gateway.stop();
    await until(() => own.pubsub.subscriberCount('identity:stop') === 0, 'the upstream subscription to close');
    await until(() => sub.state.error !== undefined || sub.state.completed, 'the client socket to close');
    expect(own.gateway.server.listening).toBe(false);
  });
});
