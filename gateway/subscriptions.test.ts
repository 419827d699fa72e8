import { createClient, type Client, type FormattedExecutionResult } from 'graphql-ws';
import WebSocket from 'ws';
import { API_KEYS, METER, PRINCIPAL, RETRY_AFTER_SECONDS, REVOKED, startTestStack, type TestStack } from './testing/test-stack.js';
import { MAX_SUBSCRIPTIONS_PER_CLIENT, MAX_SUBSCRIPTIONS_PER_CONNECTION, MAX_WS_MESSAGE_BYTES } from './ws-server.js';

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

    it('shares one upstream subscription among the subscribers of one operation for one audience', async () => {
      const topic = 'identity:shared';
      const subs = [connect(), connect(), connect()].map((client) => subscribe(client, IDENTITY_UPDATED, { id: 'shared' }));
      await until(
        () => stack.pubsub.subscriberCount(topic) === 1 && stack.gateway.sharingSubscribers() === 2,
        'three subscribers on one upstream subscription',
      );
      stack.pubsub.publish(topic, { id: 'shared', status: 'VERIFIED' });
      await until(() => subs.every((sub) => sub.results.length === 1), 'the event on every subscriber');
      const event = { data: { identityUpdated: { id: 'shared', status: 'VERIFIED', riskScore: 60 } } };
      expect(subs.map((sub) => sub.results)).toEqual([[event], [event], [event]]);

      // another organization's subscriber gets its own upstream subscription (its events are its own)
      const other = subscribe(connect({ 'x-api-key': API_KEYS.elsewhere }), IDENTITY_UPDATED, { id: 'shared' });
      await until(() => stack.pubsub.subscriberCount(topic) === 2, 'a second upstream subscription');
      expect(stack.gateway.sharingSubscribers()).toBe(2);

      // the upstream subscription lasts as long as one of its subscribers
      subs[0].unsubscribe();
      subs[1].unsubscribe();
      other.unsubscribe();
      await until(() => stack.gateway.sharingSubscribers() === 0 && stack.pubsub.subscriberCount(topic) === 1, 'two left');
      stack.pubsub.publish(topic, { id: 'shared', status: 'REJECTED' });
      await until(() => subs[2].results.length === 2, 'the next event on the one left');
      expect(subs.map((sub) => sub.results.length)).toEqual([1, 1, 2]);
      subs[2].unsubscribe();
      await until(() => stack.pubsub.subscriberCount(topic) === 0, 'the upstream subscription to close');
    });

    it('gives every subscriber of a shared event the same formatted errors', async () => {
      const topic = 'identity:crash';
      const subs = [connect(), connect()].map((client) => subscribe(client, IDENTITY_UPDATED, { id: 'crash' }));
      await until(() => stack.pubsub.subscriberCount(topic) === 1 && stack.gateway.sharingSubscribers() === 1, 'two subscribers sharing');
      stack.pubsub.publish(topic, { id: 'crash', status: 'VERIFIED' });
      await until(() => subs.every((sub) => sub.results.length === 1), 'the event on both');

      const [[first], [second]] = subs.map((sub) => sub.results);
      expect(first!.errors).toEqual([expect.objectContaining({ extensions: { code: 'INTERNAL', errorId: expect.any(String) } })]);
      expect(JSON.stringify(first)).not.toMatch(/stacktrace|db-internal/);
      // formatted once: one error id for the one failure, whoever received it
      expect(second).toEqual(first);
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

    it('refuses introspection nested too deep, as HTTP does', async () => {
      const sub = subscribe(connect(), '{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }');
      await until(() => sub.state.error !== undefined, 'the error');
      expect(sub.state.error).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ message: 'Maximum introspection depth exceeded', extensions: { code: 'BAD_USER_INPUT' } }),
        ]),
      );
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

describe('graphql-ws under the same controls as HTTP', () => {
  /** A raw graphql-transport-ws socket: what a careless or hostile client can send. */
  async function rawSocket() {
    const socket = new WebSocket(stack.gateway.wsUrl, 'graphql-transport-ws');
    const messages: Array<{ type: string; id?: string; payload?: unknown }> = [];
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    socket.on('message', (data) => messages.push(JSON.parse(data.toString())));
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.once('open', resolve));
    const send = (message: unknown) => socket.send(typeof message === 'string' ? message : JSON.stringify(message));
    const init = async (key = API_KEYS.good) => {
      send({ type: 'connection_init', payload: { 'x-api-key': key } });
      await until(() => messages.some((m) => m.type === 'connection_ack'), 'connection_ack');
    };
    return { socket, messages, closed, send, init };
  }
  const subscribeMessage = (id: string, query = '{ riskPing }') => ({ id, type: 'subscribe', payload: { query } });

  afterEach(() => {
    METER.remaining = Number.POSITIVE_INFINITY;
    REVOKED.clear();
  });

  it('authenticates and counts every operation (mutations per root field); a 429 leaves the socket open', async () => {
    const client = connect({ 'x-api-key': API_KEYS.metered });
    // a live subscription keeps the (lazy) client's socket open: no new connection_init below
    subscribe(client, IDENTITY_UPDATED, { id: 'metered' });
    await until(() => stack.pubsub.subscriberCount('identity:metered') === 1, 'the subscription');
    METER.remaining = 3;
    const two = subscribe(
      client,
      'mutation { a: createIdentity(input: { userId: "a" }) { id } b: createIdentity(input: { userId: "b" }) { id } }',
    );
    await until(() => two.state.completed, 'the mutation');
    expect(METER.remaining).toBe(1);

    const tooDear = subscribe(
      client,
      'mutation { a: createIdentity(input: { userId: "a" }) { id } b: createIdentity(input: { userId: "b" }) { id } }',
    );
    await until(() => tooDear.state.error !== undefined, 'the refusal');
    expect(tooDear.state.error).toEqual([
      { message: 'Rate limit exceeded', extensions: { code: 'RATE_LIMITED', retryAfter: RETRY_AFTER_SECONDS } },
    ]);
    const fits = subscribe(client, '{ riskPing }');
    await until(() => fits.state.completed, 'a query on the same socket');
    expect(fits.results).toEqual([{ data: { riskPing: 'pong' } }]);
    expect(METER.remaining).toBe(0);
  });

  it('closes the socket with 4401 when the key was revoked after the connection opened', async () => {
    const raw = await rawSocket();
    await raw.init(API_KEYS.good);
    REVOKED.add(API_KEYS.good);
    raw.send(subscribeMessage('1'));
    expect(await raw.closed).toEqual({ code: 4401, reason: 'Invalid API key' });
    expect(raw.messages.filter((m) => m.id === '1')).toEqual([]);
  });

  it(`refuses a message over ${MAX_WS_MESSAGE_BYTES} bytes before authentication (1009)`, async () => {
    const raw = await rawSocket();
    raw.send({ type: 'connection_init', payload: { padding: 'x'.repeat(MAX_WS_MESSAGE_BYTES) } });
    expect((await raw.closed).code).toBe(1009);
  });

  it(`caps subscriptions at ${MAX_SUBSCRIPTIONS_PER_CONNECTION} per connection, sharing one upstream socket per subgraph`, async () => {
    // the sockets of earlier tests' subscribers (same audience) closed first: this one opens its own
    await until(() => stack.pubsub.subscriberCount() === 0, 'earlier subscriptions to close');
    const before = stack.verification.sockets();
    const client = connect();
    const subs = Array.from({ length: MAX_SUBSCRIPTIONS_PER_CONNECTION }, (_, i) =>
      subscribe(client, IDENTITY_UPDATED, { id: `cap-${i}` }),
    );
    await until(() => subs.every((_, i) => stack.pubsub.subscriberCount(`identity:cap-${i}`) === 1), 'every upstream subscription');
    expect(stack.verification.sockets() - before).toBe(1);

    const over = subscribe(client, IDENTITY_UPDATED, { id: 'cap-over' });
    await until(() => over.state.error !== undefined, 'the refusal');
    expect(over.state.error).toEqual([
      { message: `A connection may hold at most ${MAX_SUBSCRIPTIONS_PER_CONNECTION} subscriptions`, extensions: { code: 'RATE_LIMITED' } },
    ]);
    subs[0].unsubscribe();
    await until(() => stack.pubsub.subscriberCount('identity:cap-0') === 0, 'a slot to free');
    const again = subscribe(client, IDENTITY_UPDATED, { id: 'cap-again' });
    await until(() => stack.pubsub.subscriberCount('identity:cap-again') === 1, 'the freed slot to be used');
    expect(again.state.error).toBeUndefined();
  });

  it(`caps subscriptions at ${MAX_SUBSCRIPTIONS_PER_CLIENT} per API key across connections, released when sockets close`, async () => {
    const connections = Math.ceil(MAX_SUBSCRIPTIONS_PER_CLIENT / MAX_SUBSCRIPTIONS_PER_CONNECTION);
    const sockets = Array.from({ length: connections }, () => connect());
    const topics = Array.from({ length: MAX_SUBSCRIPTIONS_PER_CLIENT }, (_, i) => `identity:key-${i}`);
    topics.forEach((_, i) => subscribe(sockets[i % connections], IDENTITY_UPDATED, { id: `key-${i}` }));
    await until(() => topics.every((topic) => stack.pubsub.subscriberCount(topic) === 1), 'every upstream subscription');

    const extra = connect();
    const over = subscribe(extra, IDENTITY_UPDATED, { id: 'key-over' });
    await until(() => over.state.error !== undefined, 'the refusal');
    expect(over.state.error).toEqual([
      {
        message: `An API key may hold at most ${MAX_SUBSCRIPTIONS_PER_CLIENT} subscriptions at once`,
        extensions: { code: 'RATE_LIMITED' },
      },
    ]);
    await sockets[0].dispose();
    await until(() => stack.pubsub.subscriberCount('identity:key-0') === 0, 'the closed socket to release its subscriptions');
    subscribe(extra, IDENTITY_UPDATED, { id: 'key-after' });
    await until(() => stack.pubsub.subscriberCount('identity:key-after') === 1, 'a released slot to be used');
  });

  describe('the protocol close codes', () => {
    it('4400 for a message that is not graphql-transport-ws', async () => {
      const raw = await rawSocket();
      raw.send('{"type": "hello"}');
      expect((await raw.closed).code).toBe(4400);
    });

    it('4401 for a subscribe before the connection is acknowledged', async () => {
      const raw = await rawSocket();
      raw.send(subscribeMessage('1'));
      expect((await raw.closed).code).toBe(4401);
    });

    it('4403 for a key that may not connect', async () => {
      const raw = await rawSocket();
      raw.send({ type: 'connection_init', payload: { 'x-api-key': API_KEYS.banned } });
      expect((await raw.closed).code).toBe(4403);
    });

    it('4408 when connection_init does not come in time', async () => {
      const raw = await rawSocket();
      expect((await raw.closed).code).toBe(4408);
    });

    it('4409 for a second subscriber with the same id', async () => {
      const raw = await rawSocket();
      await raw.init();
      raw.send({ id: 'same', type: 'subscribe', payload: { query: IDENTITY_UPDATED, variables: { id: 'dup' } } });
      raw.send({ id: 'same', type: 'subscribe', payload: { query: IDENTITY_UPDATED, variables: { id: 'dup' } } });
      expect((await raw.closed).code).toBe(4409);
    });

    it('4429 for a second connection_init', async () => {
      const raw = await rawSocket();
      await raw.init();
      raw.send({ type: 'connection_init', payload: { 'x-api-key': API_KEYS.good } });
      expect((await raw.closed).code).toBe(4429);
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
