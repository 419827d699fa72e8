import { ADMIN_SECRET, startTestStack, type TestStack } from './support/stack.js';

/**
 * Two gateways on one database with keys cached and rate limits counted in memory (issue 14):
 * a revocation reaches both within a second (LISTEN/NOTIFY), and the rate-limit counts of one reach
 * the other at each sync, within the stated tolerance. The syncs are made by hand here
 * (RATE_LIMIT_SYNC_MS is an hour), so every count is deterministic.
 */
describe('two gateways: keys cached, rate limits counted in memory', () => {
  let a: TestStack;
  let b: TestStack;
  const manualSync = { RATE_LIMIT_SYNC_MS: '3600000' };
  beforeAll(async () => {
    a = await startTestStack(manualSync, { services: ['verification', 'gateway', 'rest'] });
    b = await startTestStack(manualSync, { databaseUrl: a.databaseUrl, services: ['verification', 'gateway', 'rest'] });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  const read = (stack: TestStack, apiKey: string) =>
    stack.rest('GET', '/verifications/identity/user/u-1', undefined, { 'x-api-key': apiKey });
  const remaining = (res: { headers: Headers }) => Number(res.headers.get('ratelimit-remaining'));

  it('a revoked key is refused by both gateways within a second, a rotated one keeps only its new key', async () => {
    const revoked = await a.createClient({ name: 'to revoke' });
    const rotated = await a.createClient({ name: 'to rotate' });
    // both gateways know (cache) both keys
    for (const stack of [a, b]) for (const key of [revoked.apiKey, rotated.apiKey]) expect((await read(stack, key)).status).toBe(200);

    // each measured from the moment its change was answered (committed), not from the first call
    expect((await a.rest('DELETE', `/admin/api-clients/${revoked.id}`, undefined, { 'x-admin-secret': ADMIN_SECRET })).status).toBe(200);
    const revokedAt = Date.now();
    const rotation = await b.rest('POST', `/admin/api-clients/${rotated.id}/rotate`, undefined, { 'x-admin-secret': ADMIN_SECRET });
    expect(rotation.status).toBe(201);
    const rotatedAt = Date.now();
    const refusedEverywhere = async (key: string, started: number) => {
      for (;;) {
        const statuses = await Promise.all([read(a, key), read(b, key)]).then((r) => r.map((x) => x.status));
        if (statuses.every((s) => s === 401)) return Date.now() - started;
        if (Date.now() - started > 5_000) throw new Error(`still answered ${statuses.join(', ')} after 5 s`);
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    expect(await refusedEverywhere(revoked.apiKey, revokedAt)).toBeLessThan(1_000);
    expect(await refusedEverywhere(rotated.apiKey, rotatedAt)).toBeLessThan(1_000);
    for (const stack of [a, b]) expect((await read(stack, rotation.body.apiKey)).status).toBe(200);
  });

  it("one gateway's counts reach the other at each sync; between syncs the overshoot is the other's unsynced admissions", async () => {
    const { apiKey } = await a.createClient({ name: 'shared budget', rateLimit: 10 });
    const onA = [];
    for (let i = 0; i < 6; i++) onA.push(await read(a, apiKey));
    expect(onA.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(onA.map(remaining)).toEqual([9, 8, 7, 6, 5, 4]);
    await a.syncRateLimits();

    // b has never counted this key: it reads the shared count (6) first
    const onB = [];
    for (let i = 0; i < 5; i++) onB.push(await read(b, apiKey));
    expect(onB.map((r) => r.status)).toEqual([200, 200, 200, 200, 429]);
    expect(onB.slice(0, 4).map(remaining)).toEqual([3, 2, 1, 0]);

    // a has not heard of b's 4 since its sync: it admits 4 more (the stated tolerance), then refuses
    const before = [];
    for (let i = 0; i < 5; i++) before.push((await read(a, apiKey)).status);
    expect(before).toEqual([200, 200, 200, 200, 429]);

    // once both have synced, each knows the whole count: refused everywhere
    await a.syncRateLimits();
    await b.syncRateLimits();
    await a.syncRateLimits();
    for (const stack of [a, b]) {
      const res = await read(stack, apiKey);
      expect(res.status).toBe(429);
      expect(remaining(res)).toBe(0);
    }
  });
});
