import { ADMIN_SECRET, startTestStack, type TestStack } from './support/stack.js';

const IDENTITY_FIELDS =
  'id userId tier overallStatus verifiedAt reviewedBy reviewNotes invalidatedAt replacedBy { id } restartedFrom { id } createdAt';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('identity verification end to end (GraphQL, REST, subscriptions)', () => {
  let stack: TestStack;
  let key: string;
  let headers: Record<string, string>;

  beforeAll(async () => {
    stack = await startTestStack();
    key = (await stack.createClient({ name: 'acme' })).apiKey;
    headers = { 'x-api-key': key };
  });
  afterAll(() => stack?.stop());

  describe('API clients', () => {
    it('issues a key once, with its prefix, permissions, rate limit and a warning', async () => {
      const res = await stack.rest(
        'POST',
        '/v1/admin/api-clients',
        { name: 'risk team', service: 'risk', environment: 'test', permissions: ['evaluate'], rateLimit: 50 },
        { 'x-admin-secret': ADMIN_SECRET },
      );
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ name: 'risk team', service: 'risk', environment: 'test', permissions: ['evaluate'], rateLimit: 50 });
      expect(res.body.apiKey).toMatch(/^risk_test_[A-Za-z0-9_-]{20,}$/);
      expect(res.body.message).toMatch(/not be shown again/);
      const viaGraphQL = await stack.gql(
        `mutation { createApiClient(input: { name: "notify", service: NOTIFY }) {
          apiClient { service environment rateLimit permissions active } apiKey userErrors { field }
        } }`,
        {},
        { 'x-admin-secret': ADMIN_SECRET },
      );
      expect(viaGraphQL.body.data.createApiClient).toEqual({
        apiClient: { service: 'NOTIFY', environment: 'LIVE', rateLimit: 1000, permissions: [], active: true },
        apiKey: expect.stringMatching(/^nk_live_/),
        userErrors: [],
      });
    });

    it('answers GraphQL mistakes as user errors naming the field', async () => {
      const admin = { 'x-admin-secret': ADMIN_SECRET };
      const create = `mutation($input: CreateApiClientInput!) {
        createApiClient(input: $input) { apiClient { id } apiKey userErrors { field code message } }
      }`;
      const empty = await stack.gql(create, { input: { name: '', rateLimit: 0 } }, admin);
      expect(empty.body.data.createApiClient).toEqual({
        apiClient: null,
        apiKey: null,
        userErrors: [{ field: ['input', 'name'], code: 'VALIDATION_FAILED', message: 'name must not be empty' }],
      });
      const limits = await stack.gql(create, { input: { name: 'x', rateLimit: 0 } }, admin);
      expect(limits.body.data.createApiClient.userErrors).toEqual([
        { field: ['input', 'rateLimit'], code: 'VALIDATION_FAILED', message: expect.stringMatching(/^rateLimit must be an integer/) },
      ]);
      const permissions = await stack.gql(create, { input: { name: 'x', permissions: ['fly'] } }, admin);
      expect(permissions.body.data.createApiClient.userErrors).toEqual([
        { field: ['input', 'permissions'], code: 'VALIDATION_FAILED', message: expect.stringMatching(/^permissions must be among/) },
      ]);
      const revoke = `mutation($id: ID!) { revokeApiClient(input: { id: $id }) { apiClient { id } userErrors { field code message } } }`;
      const unknown = await stack.gql(revoke, { id: '00000000-0000-4000-8000-000000000000' }, admin);
      expect(unknown.body.data.revokeApiClient).toEqual({
        apiClient: null,
        userErrors: [{ field: null, code: 'NOT_FOUND', message: 'API client 00000000-0000-4000-8000-000000000000 not found' }],
      });
      // a key is no operator: refused at the top, whatever the input
      const key = { 'x-api-key': (await stack.createClient({ name: 'not an operator' })).apiKey };
      expect((await stack.gql(create, { input: { name: 'x' } }, key)).body.errors![0].extensions.code).toBe('FORBIDDEN');
    });

    it('refuses a missing or wrong admin secret and invalid input', async () => {
      expect((await stack.rest('POST', '/admin/api-clients', { name: 'x' })).status).toBe(401);
      const wrong = await stack.rest('POST', '/admin/api-clients', { name: 'x' }, { 'x-admin-secret': 'nope' });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toMatchObject({ statusCode: 401, error: 'Unauthorized', code: 'UNAUTHENTICATED' });
      const admin = { 'x-admin-secret': ADMIN_SECRET };
      const missing = await stack.rest('POST', '/admin/api-clients', {}, admin);
      expect(missing.status).toBe(400);
      expect(missing.body.message).toEqual(['name is required']);
      const badPermission = await stack.rest('POST', '/admin/api-clients', { name: 'x', permissions: ['fly'] }, admin);
      expect(badPermission.status).toBe(422);
      expect(badPermission.body.message[0]).toMatch(/permissions must be among/);
      expect((await stack.rest('POST', '/admin/api-clients', { name: 'x', service: 'billing' }, admin)).status).toBe(422);
      expect((await stack.rest('POST', '/admin/api-clients', { name: 'x', rateLimit: 0 }, admin)).status).toBe(422);
      expect(
        (await stack.rest('POST', '/admin/api-clients', { name: 'x', organizationId: '00000000-0000-0000-0000-000000000000' }, admin))
          .status,
      ).toBe(404);
    });

    it('adds a client to an existing organization: both keys see the same data', async () => {
      const first = await stack.createClient({ name: 'org one' });
      const second = await stack.createClient({
        name: 'org one reader',
        organizationId: first.organizationId,
        permissions: ['identity:read'],
      });
      const created = await stack.rest('POST', '/verifications/identity', { userId: 'shared-user' }, { 'x-api-key': first.apiKey });
      const read = await stack.rest('GET', `/verifications/identity/${created.body.id}`, undefined, { 'x-api-key': second.apiKey });
      expect(read.status).toBe(200);
      expect(read.body.id).toBe(created.body.id);
    });

    it('enforces the per-client rate limit with 429 and Retry-After', async () => {
      const limited = await stack.createClient({ name: 'tiny', rateLimit: 2 });
      const h = { 'x-api-key': limited.apiKey };
      const statuses: number[] = [];
      let last: Awaited<ReturnType<TestStack['rest']>> | undefined;
      for (let i = 0; i < 3; i++) {
        last = await stack.rest('GET', '/verifications/identity/user/u', undefined, h);
        statuses.push(last.status);
      }
      expect(statuses.slice(0, 2)).toEqual([200, 200]);
      if (statuses[2] !== 429) {
        // the first two may straddle a minute boundary: the window resets, so try once more
        last = await stack.rest('GET', '/verifications/identity/user/u', undefined, h);
        last = last.status === 429 ? last : await stack.rest('GET', '/verifications/identity/user/u', undefined, h);
      }
      expect(last!.status).toBe(429);
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(last!.body.code).toBe('RATE_LIMITED');
      const gql = await stack.gql('{ verificationStatus { service } }', {}, h);
      expect(gql.status).toBe(429);
    });
  });

  describe('authentication and permissions', () => {
    it('401 without a key or with an unknown one, on REST and GraphQL', async () => {
      expect((await stack.rest('GET', '/verifications/identity/user/u1')).status).toBe(401);
      expect((await stack.rest('GET', '/verifications/identity/user/u1', undefined, { 'x-api-key': 'vk_live_nope' })).status).toBe(401);
      const gql = await stack.gql('{ verificationStatus { service } }');
      expect(gql.status).toBe(401);
      expect(gql.body.errors![0].extensions.code).toBe('UNAUTHENTICATED');
    });

    it('accepts Authorization: Bearer as well as X-API-Key', async () => {
      const res = await stack.rest('GET', '/verifications/identity/user/u1', undefined, { authorization: `Bearer ${key}` });
      expect(res.status).toBe(200);
    });

    it('403 when the key lacks the permission or belongs to another service', async () => {
      const reader = await stack.createClient({ name: 'reader', permissions: ['identity:read'] });
      const denied = await stack.rest('POST', '/verifications/identity', { userId: 'u' }, { 'x-api-key': reader.apiKey });
      expect(denied.status).toBe(403);
      expect(denied.body.code).toBe('FORBIDDEN');
      const risk = await stack.createClient({ name: 'risk', service: 'risk' });
      expect(
        (await stack.rest('GET', '/verifications/identity/user/u', undefined, { authorization: `Bearer ${risk.apiKey}` })).status,
      ).toBe(403);
      expect((await stack.rest('POST', '/admin/api-clients', { name: 'x' }, headers)).status).toBe(403);
    });

    it('subgraphs refuse calls that did not come through the gateway', async () => {
      const res = await fetch(stack.urls.verification!, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify({ query: '{ verificationStatus { service } }' }),
      });
      expect(res.status).toBe(401);
    });
  });

  describe('validation', () => {
    it('400 for missing or malformed fields, 422 for invalid values, per field', async () => {
      const missing = await stack.rest('POST', '/verifications/identity', { tier: 'BASIC' }, headers);
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({
        statusCode: 400,
        error: 'Bad Request',
        code: 'BAD_USER_INPUT',
        message: ['userId is required'],
      });
      expect(typeof missing.body.timestamp).toBe('string');
      const badTier = await stack.rest('POST', '/verifications/identity', { userId: 'u', tier: 'GOLD' }, headers);
      expect(badTier.status).toBe(422);
      expect(badTier.body.message).toEqual(['tier must be one of: BASIC, STANDARD, ENHANCED']);
      expect((await stack.rest('POST', '/verifications/identity', { userId: '' }, headers)).status).toBe(422);
      expect((await stack.rest('POST', '/verifications/identity', { userId: 42 }, headers)).status).toBe(400);
      expect(
        (await stack.rest('POST', '/verifications/identity', '{"userId": ', { ...headers, 'content-type': 'application/json' })).status,
      ).toBe(400);
      const review = await stack.rest(
        'POST',
        '/verifications/identity/00000000-0000-0000-0000-000000000000/review',
        { decision: 'MAYBE', reviewedBy: 'a', reviewNotes: 'b' },
        headers,
      );
      expect(review.status).toBe(422);
      const reviewMissing = await stack.rest(
        'POST',
        '/verifications/identity/00000000-0000-0000-0000-000000000000/review',
        { decision: 'VERIFIED' },
        headers,
      );
      expect(reviewMissing.status).toBe(400);
      expect(reviewMissing.body.message).toEqual(expect.arrayContaining(['reviewedBy is required', 'reviewNotes is required']));
      expect((await stack.rest('GET', '/verifications/identity/user/u?limit=101', undefined, headers)).status).toBe(400);
      expect((await stack.rest('GET', '/verifications/identity/user/u?page=0', undefined, headers)).status).toBe(400);
      expect((await stack.rest('GET', '/verifications/identity/user/u?page=abc', undefined, headers)).status).toBe(400);
    });

    it('GraphQL reports the same codes', async () => {
      const res = await stack.gql(
        `mutation($input: CreateIdentityVerificationInput!) { createIdentityVerification(input: $input) { created } }`,
        { input: { userId: 'u', tier: 'GOLD' } },
        headers,
      );
      expect(res.body.errors![0].extensions.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors![0].message).toBe('tier must be one of: BASIC, STANDARD, ENHANCED');
    });
  });

  describe('lifecycle', () => {
    it('creates PENDING with tier BASIC, and returns the active one instead of a second', async () => {
      const first = await stack.rest('POST', '/verifications/identity', { userId: 'alice' }, headers);
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({ userId: 'alice', tier: 'BASIC', overallStatus: 'PENDING' });
      expect(first.body.id).toMatch(UUID);
      expect(Date.now() - Date.parse(first.body.createdAt)).toBeLessThan(60_000);
      expect(first.body).toMatchObject({ verifiedAt: null, invalidatedAt: null, replacedById: null });
      const again = await stack.rest('POST', '/v1/verifications/identity', { userId: 'alice', tier: 'ENHANCED' }, headers);
      expect(again.status).toBe(200);
      expect(again.body.id).toBe(first.body.id);
      expect((await stack.rest('GET', `/verifications/identity/${first.body.id}`, undefined, headers)).body).toMatchObject({
        id: first.body.id,
        overallStatus: 'PENDING',
      });
    });

    it('concurrent creates for one user yield one verification', async () => {
      const results = await Promise.all(
        Array.from({ length: 6 }, () => stack.rest('POST', '/verifications/identity', { userId: 'racer', tier: 'STANDARD' }, headers)),
      );
      expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    });

    it('review from PENDING verifies once; a second review is a 409', async () => {
      const created = (await stack.rest('POST', '/verifications/identity', { userId: 'bob', tier: 'STANDARD' }, headers)).body;
      const reviewed = await stack.rest(
        'POST',
        `/verifications/identity/${created.id}/review`,
        { decision: 'VERIFIED', reviewedBy: 'officer-7', reviewNotes: 'documents match' },
        headers,
      );
      expect(reviewed.status).toBe(200);
      expect(reviewed.body).toMatchObject({ overallStatus: 'VERIFIED', reviewedBy: 'officer-7', reviewNotes: 'documents match' });
      expect(reviewed.body.verifiedAt).toBe(reviewed.body.reviewedAt);
      expect(Date.now() - Date.parse(reviewed.body.verifiedAt)).toBeLessThan(60_000);
      const again = await stack.rest(
        'POST',
        `/verifications/identity/${created.id}/review`,
        { decision: 'REJECTED', reviewedBy: 'x', reviewNotes: 'y' },
        headers,
      );
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('CONFLICT');
    });

    it('restart invalidates the current verification and starts a new one; lists page newest first', async () => {
      const created = (await stack.rest('POST', '/verifications/identity', { userId: 'carol', tier: 'ENHANCED' }, headers)).body;
      await stack.rest(
        'POST',
        `/verifications/identity/${created.id}/review`,
        { decision: 'REJECTED', reviewedBy: 'officer', reviewNotes: 'blurry' },
        headers,
      );
      const restarted = await stack.rest('POST', `/verifications/identity/${created.id}/restart`, undefined, headers);
      expect(restarted.status).toBe(200);
      expect(restarted.body).toMatchObject({ userId: 'carol', tier: 'ENHANCED', overallStatus: 'PENDING', restartedFromId: created.id });
      expect(restarted.body.id).not.toBe(created.id);
      const old = (await stack.rest('GET', `/verifications/identity/${created.id}`, undefined, headers)).body;
      expect(old).toMatchObject({ overallStatus: 'REJECTED', replacedById: restarted.body.id });
      expect(Date.parse(old.invalidatedAt)).toBeGreaterThanOrEqual(Date.parse(old.reviewedAt));
      expect(new Date(old.invalidatedAt).toISOString()).toBe(old.invalidatedAt);
      expect((await stack.rest('POST', `/verifications/identity/${created.id}/restart`, undefined, headers)).status).toBe(409);

      const list = await stack.rest('GET', '/verifications/identity/user/carol?page=1&limit=1', undefined, headers);
      expect(list.status).toBe(200);
      expect(list.body).toMatchObject({ total: 2, page: 1, limit: 1 });
      expect(list.body.data.map((d: { id: string }) => d.id)).toEqual([restarted.body.id]);
      const defaults = await stack.rest('GET', '/verifications/identity/user/carol', undefined, headers);
      expect(defaults.body).toMatchObject({ total: 2, page: 1, limit: 20 });
    });

    it('restarting a PENDING verification frees the user for the new one', async () => {
      const created = (await stack.rest('POST', '/verifications/identity', { userId: 'dave' }, headers)).body;
      const restarted = (await stack.rest('POST', `/verifications/identity/${created.id}/restart`, undefined, headers)).body;
      const again = await stack.rest('POST', '/verifications/identity', { userId: 'dave' }, headers);
      expect(again.status).toBe(200);
      expect(again.body.id).toBe(restarted.id);
    });

    it("another organization's verification is a 404", async () => {
      const created = (await stack.rest('POST', '/verifications/identity', { userId: 'eve' }, headers)).body;
      const other = await stack.createClient({ name: 'other org' });
      const h = { 'x-api-key': other.apiKey };
      expect((await stack.rest('GET', `/verifications/identity/${created.id}`, undefined, h)).status).toBe(404);
      expect(
        (
          await stack.rest(
            'POST',
            `/verifications/identity/${created.id}/review`,
            { decision: 'VERIFIED', reviewedBy: 'x', reviewNotes: 'y' },
            h,
          )
        ).status,
      ).toBe(404);
      expect((await stack.rest('POST', `/verifications/identity/${created.id}/restart`, undefined, h)).status).toBe(404);
      expect((await stack.rest('GET', '/verifications/identity/user/eve', undefined, h)).body.total).toBe(0);
      expect((await stack.rest('GET', '/verifications/identity/not-a-uuid', undefined, headers)).status).toBe(404);
    });

    it('test keys and live keys of one organization see separate data', async () => {
      const live = await stack.createClient({ name: 'env org' });
      const test = await stack.createClient({ name: 'env org test', organizationId: live.organizationId, environment: 'test' });
      expect(test.apiKey).toMatch(/^vk_test_/);
      const created = (await stack.rest('POST', '/verifications/identity', { userId: 'frank' }, { 'x-api-key': live.apiKey })).body;
      expect((await stack.rest('GET', `/verifications/identity/${created.id}`, undefined, { 'x-api-key': test.apiKey })).status).toBe(404);
    });
  });

  describe('subscriptions through the gateway', () => {
    it('receives every status change of a verification after a review', async () => {
      const created = (
        await stack.gql(`mutation { createIdentityVerification(input: { userId: "grace" }) { identityVerification { id } } }`, {}, headers)
      ).body.data.createIdentityVerification.identityVerification;
      const byId = stack.subscribe(
        `subscription($id: ID!) { identityVerificationUpdated(id: $id) { type occurredAt node { ${IDENTITY_FIELDS} } } }`,
        { id: created.id },
        { 'x-api-key': key },
      );
      const byUser = stack.subscribe(
        `subscription($u: String!) { identityVerificationUpdatedForUser(userId: $u) { node { id overallStatus } } }`,
        { u: 'grace' },
        { 'x-api-key': key },
      );
      await Promise.all([byId.ready, byUser.ready]);
      await stack.gql(
        `mutation($id: ID!) { reviewIdentityVerification(input: { id: $id, decision: VERIFIED, reviewedBy: "o", reviewNotes: "ok" }) { identityVerification { id } } }`,
        { id: created.id },
        headers,
      );
      const [event] = await byId.next(1);
      expect(event.data.identityVerificationUpdated.type).toBe('IDENTITY_VERIFIED');
      expect(Date.parse(event.data.identityVerificationUpdated.occurredAt)).toBeGreaterThan(Date.now() - 60_000);
      expect(event.data.identityVerificationUpdated.node).toMatchObject({
        id: created.id,
        userId: 'grace',
        overallStatus: 'VERIFIED',
        reviewedBy: 'o',
      });
      expect((await byUser.next(1))[0].data.identityVerificationUpdatedForUser.node).toEqual({ id: created.id, overallStatus: 'VERIFIED' });
      await byId.close();
      await byUser.close();
    });

    it("does not deliver another organization's changes, and refuses a connection without a key", async () => {
      const other = await stack.createClient({ name: 'snoop' });
      const snoop = stack.subscribe(
        `subscription { identityVerificationUpdatedForUser(userId: "heidi") { node { id } } }`,
        {},
        { 'x-api-key': other.apiKey },
      );
      const mine = stack.subscribe(
        `subscription { identityVerificationUpdatedForUser(userId: "heidi") { node { id } } }`,
        {},
        { 'x-api-key': key },
      );
      await Promise.all([snoop.ready, mine.ready]);
      const heidi = (await stack.rest('POST', '/verifications/identity', { userId: 'heidi' }, headers)).body;
      await mine.next(1);
      // events reach a subscriber in commit order: once the snoop sees its own organization's
      // change, the other organization's earlier one would have arrived before it
      const own = (await stack.rest('POST', '/verifications/identity', { userId: 'heidi' }, { 'x-api-key': other.apiKey })).body;
      expect(own.id).not.toBe(heidi.id);
      const seen = await snoop.next(1);
      expect(seen.map((e) => e.data.identityVerificationUpdatedForUser.node.id)).toEqual([own.id]);
      await snoop.close();
      await mine.close();

      const anonymous = stack.subscribe(`subscription { identityVerificationUpdatedForUser(userId: "x") { node { id } } }`, {}, {});
      const [failure] = await anonymous.next(1);
      expect(failure.error).toMatchObject({ code: 4401 });
      await anonymous.close();
    });
  });
});
