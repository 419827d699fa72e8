import { ADMIN_FAILURES_PER_MINUTE } from '../platform/auth/authenticate.js';
import { ADMIN_SECRET, startTestStack, type TestStack } from './support/stack.js';

/** The edge's answers to careless and hostile callers (issue 9, defect 7), on two gateways over one database. */
describe('edge hardening', () => {
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

  const key = (apiKey: string) => ({ 'x-api-key': apiKey });
  const SUBSCRIPTION = 'subscription($u: String!) { identityVerificationUpdatedForUser(userId: $u) { node { id } } }';

  describe('API keys: revoke and rotate', () => {
    it('a revoked key is refused at once on every gateway, and its open subscriptions end with 4401 within a second', async () => {
      const client = await a.createClient({ name: 'to revoke' });
      const onB = b.subscribe(SUBSCRIPTION, { u: 'revoked-user' }, key(client.apiKey));
      await onB.ready;

      const revoked = await a.rest('DELETE', `/admin/api-clients/${client.id}`, undefined, { 'x-admin-secret': ADMIN_SECRET });
      const at = Date.now();
      expect(revoked.status).toBe(200);
      expect(revoked.body).toMatchObject({ id: client.id, active: false });
      expect(JSON.stringify(revoked.body)).not.toContain(client.apiKey);

      for (const stack of [a, b]) {
        const refused = await stack.rest('GET', '/verifications/identity/user/someone', undefined, key(client.apiKey));
        expect([refused.status, refused.body.code]).toEqual([401, 'UNAUTHENTICATED']);
      }
      const [ended] = await onB.next(1, 5_000);
      expect(ended.error.code).toBe(4401);
      expect(Date.now() - at).toBeLessThan(1_000);
      await onB.close();

      // idempotent; unknown ids are 404
      expect((await a.rest('DELETE', `/admin/api-clients/${client.id}`, undefined, { 'x-admin-secret': ADMIN_SECRET })).status).toBe(200);
      expect(
        (await a.rest('DELETE', '/admin/api-clients/00000000-0000-4000-8000-000000000000', undefined, { 'x-admin-secret': ADMIN_SECRET }))
          .status,
      ).toBe(404);
      // a revoked client cannot be brought back by rotation
      expect((await a.rest('POST', `/admin/api-clients/${client.id}/rotate`, undefined, { 'x-admin-secret': ADMIN_SECRET })).status).toBe(
        409,
      );
    });

    it('rotation returns a new key once; the old key is refused on every gateway', async () => {
      const client = await a.createClient({ name: 'to rotate' });
      const rotated = await b.rest('POST', `/admin/api-clients/${client.id}/rotate`, undefined, { 'x-admin-secret': ADMIN_SECRET });
      expect(rotated.status).toBe(201);
      expect(rotated.body).toMatchObject({ id: client.id, apiKey: expect.stringMatching(/^vk_live_/) });
      expect(rotated.body.apiKey).not.toBe(client.apiKey);
      for (const stack of [a, b]) {
        expect((await stack.rest('GET', '/verifications/identity/user/u', undefined, key(client.apiKey))).status).toBe(401);
        expect((await stack.rest('GET', '/verifications/identity/user/u', undefined, key(rotated.body.apiKey))).status).toBe(200);
      }
      // only the admin secret may do it
      expect((await a.rest('POST', `/admin/api-clients/${client.id}/rotate`, undefined, key(rotated.body.apiKey))).status).toBe(403);
    });
  });

  it(`wrong admin secrets are throttled per address: after ${ADMIN_FAILURES_PER_MINUTE} in a minute, even the right one waits`, async () => {
    // this test runs on loopback, a trusted proxy: the address it forwards is the caller's
    const from = { 'x-forwarded-for': '198.51.100.23' };
    const attempt = (secret: string) =>
      a.rest('POST', '/admin/api-clients', { name: 'guess' }, { ...from, 'x-admin-secret': secret }).then((r) => r.status);
    // the count is per minute window: do not start in a window's last seconds
    const intoMinute = (Date.now() / 1000) % 60;
    if (intoMinute > 55) await new Promise((resolve) => setTimeout(resolve, (60 - intoMinute) * 1000 + 100));
    const statuses: number[] = [];
    for (let i = 0; i < ADMIN_FAILURES_PER_MINUTE; i++) statuses.push(await attempt(`wrong-${i}`));
    expect(statuses.every((s) => s === 401)).toBe(true);
    const after = await attempt(ADMIN_SECRET);
    const over = await attempt('wrong-again');
    expect([after, over]).toEqual([429, 429]);
    // another address is not affected
    expect((await a.rest('POST', '/admin/api-clients', { name: 'elsewhere' }, { 'x-admin-secret': ADMIN_SECRET })).status).toBe(201);
  });

  describe('the REST adapter reads a body only from a caller with credentials', () => {
    const big = `{"x": "${'y'.repeat(3 * 1024 * 1024)}`; // over 2 MB and not even JSON

    it('no credentials: 401 before the body is read', async () => {
      const res = await a.rest('POST', '/verifications/identity', big, { 'content-type': 'application/json' });
      expect([res.status, res.body.code]).toEqual([401, 'UNAUTHENTICATED']);
    });

    it('a 10 MB route: credentials are checked by the gateway before the body is read', async () => {
      const res = await a.rest('POST', '/send/batch', big, { 'content-type': 'application/json', 'x-api-key': 'vk_live_nope' });
      expect([res.status, res.body.code]).toEqual([401, 'UNAUTHENTICATED']);
      const notify = await a.createClient({ name: 'batch', service: 'notify' });
      const valid = await a.rest('POST', '/send/batch', big, { 'content-type': 'application/json', ...key(notify.apiKey) });
      expect([valid.status, valid.body.code]).toEqual([400, 'BAD_USER_INPUT']); // read, and found not to be JSON
    });
  });
});
