import { startTestStack, type TestStack } from './support/stack.js';

describe('two instances of the platform on one database', () => {
  let a: TestStack;
  let b: TestStack;
  beforeAll(async () => {
    a = await startTestStack();
    b = await startTestStack({}, { databaseUrl: a.databaseUrl });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
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
    const [event] = await sub.next(1);
    expect(event.data.identityVerificationUpdated.node).toEqual({ id: created.id, overallStatus: 'REJECTED' });
    await sub.close();
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
