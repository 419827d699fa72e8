import pg from 'pg';
import { eventually, startTestStack, type TestStack } from './support/stack.js';
import { eventTransports, startNatsServer, type NatsServer } from './support/nats.js';

/** Two stacks on one database, on each event transport: LISTEN/NOTIFY (the default) and NATS JetStream (EVENT_BUS). */
describe.each(eventTransports())('two instances of the platform on one database (%s events)', (transport) => {
  let nats: NatsServer | undefined;
  let a: TestStack;
  let b: TestStack;
  beforeAll(async () => {
    if (transport === 'nats') nats = await startNatsServer();
    const env: Record<string, string> = nats ? { EVENT_BUS: nats.url } : {};
    a = await startTestStack(env);
    b = await startTestStack(env, { databaseUrl: a.databaseUrl });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    await nats?.stop();
  });

  it('a subscriber on one instance receives changes made through the other', async () => {
    const { apiKey } = await a.createClient({ name: 'multi' });
    const h = { 'x-api-key': apiKey };
    const created = (await b.rest('POST', '/verifications/identity', { userId: 'ivan' }, h)).body;
    const sub = a.subscribe(
      `subscription($id: ID!) { identityVerificationUpdated(id: $id) { node { id overallStatus } } }`,
      { id: created.id },
      h,
    );
    await sub.ready;
    await b.rest('POST', `/verifications/identity/${created.id}/review`, { decision: 'REJECTED', reviewedBy: 'o', reviewNotes: 'n' }, h);
    // the creation's own event may reach the subscriber first (relayed after the subscription
    // started, on a loaded machine): the review's is the one this waits for
    const nodes = async () => sub.events.map((e) => e.data?.identityVerificationUpdated.node);
    const seen = await eventually(async () => ((await nodes()).some((n) => n?.overallStatus === 'REJECTED') ? nodes() : null));
    expect(seen.at(-1)).toEqual({ id: created.id, overallStatus: 'REJECTED' });
    expect(seen.every((n) => n?.id === created.id)).toBe(true);
    await sub.close();
  });

  it('a key revoked by another process ends its subscriptions on both instances', async () => {
    const client = await a.createClient({ name: 'revoked elsewhere' });
    const onB = b.subscribe(
      'subscription($u: String!) { identityVerificationUpdatedForUser(userId: $u) { node { id } } }',
      { u: 'revoked-user' },
      { 'x-api-key': client.apiKey },
    );
    await onB.ready;
    // revoked as another process's admin route commits it (this process's own changes are also heard in-process)
    const db = new pg.Client({ connectionString: a.databaseUrl });
    await db.connect();
    await db.query('begin');
    await db.query('update platform.api_clients set active = false where id = $1', [client.id]);
    await db.query('select pg_notify($1, $2)', ['api_client_changed', client.id]);
    await db.query('commit');
    await db.end();
    // only b's notice of the change (LISTEN, or the bus) closes it
    const [ended] = await onB.next(1, 5_000);
    expect(ended.error.code).toBe(4401);
    await onB.close();
  });

  it('shares rate-limit counters between gateway instances', async () => {
    const { apiKey } = await a.createClient({ name: 'shared limit', rateLimit: 3 });
    const h = { 'x-api-key': apiKey };
    const statuses: number[] = [];
    // 3 allowed per minute in total; keep going so a minute boundary cannot hide the limit
    while (!statuses.includes(429) && statuses.length < 12) {
      const stack = statuses.length % 2 ? b : a;
      statuses.push((await stack.rest('GET', '/verifications/identity/user/u', undefined, h)).status);
    }
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses).toContain(429);
  });
});
