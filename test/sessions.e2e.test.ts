import { mintSessionToken } from '../platform/auth/session-token.js';
import { electricityBill, daysAgo } from './support/bills.js';
import { idCardForm } from './support/documents.js';
import { portrait } from './support/faces.js';
import { form, livenessClient } from './support/liveness.js';
import { listIndividuals } from './support/lists.js';
import { poses } from './support/poses.js';
import { ADMIN_SECRET, INTERNAL_SECRET, startTestStack, type TestStack } from './support/stack.js';

/**
 * Credentials that fit a frontend: keys for every service, and session tokens a backend mints
 * for a browser, limited to one user's records and some scopes, cut off at expiry.
 */
describe('credentials: all-services keys and session tokens', () => {
  let stack: TestStack;
  let client: { apiKey: string; id: string; organizationId: string };
  let h: Record<string, string>;

  const mint = async (input: Record<string, unknown>, headers = h) =>
    (
      await stack.gql(
        `mutation($input: CreateSessionTokenInput!) { createSessionToken(input: $input) {
          sessionToken { token userId scopes expiresAt } userErrors { field code message } } }`,
        { input },
        headers,
      )
    ).body;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const createIdentity = async (userId: string) =>
    (await stack.rest('POST', '/verifications/identity', { userId }, h)).body as { id: string; userId: string };

  beforeAll(async () => {
    stack = await startTestStack();
    await listIndividuals(stack.databaseUrl, ['Ahmed Musa Bello']);
    client = await stack.createClient({ name: 'backend' });
    h = { 'x-api-key': client.apiKey };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('an all-services key reads and writes every subgraph, over GraphQL and REST', async () => {
    const all = await stack.createClient({ name: 'whole graph', service: 'all' });
    expect(all.apiKey).toMatch(/^ak_live_/);
    const headers = { authorization: `Bearer ${all.apiKey}` };
    const res = await stack.gql(`{ verificationStatus { service } riskStatus { service } notifyStatus { service } }`, {}, headers);
    expect(res.body).toEqual({
      data: { verificationStatus: { service: 'verification' }, riskStatus: { service: 'risk' }, notifyStatus: { service: 'notify' } },
    });
    expect((await stack.rest('POST', '/verifications/identity', { userId: 'whole' }, headers)).status).toBe(201);
    const evaluation = await stack.rest(
      'POST',
      '/evaluate',
      { transaction_id: 'all-1', amount: 10, currency: 'KES', sender: 'a', receiver: 'b' },
      headers,
    );
    expect(evaluation.status).toBe(200);
  });

  it('a session token reads its own user’s records and nothing of another user', async () => {
    const mine = await createIdentity('ama');
    const theirs = await createIdentity('kofi');
    const minted = await mint({ userId: 'ama', scopes: ['IDENTITY_READ'], ttlSeconds: 600 });
    expect(minted.data.createSessionToken.userErrors).toEqual([]);
    const session = minted.data.createSessionToken.sessionToken;
    expect(session).toMatchObject({ userId: 'ama', scopes: ['IDENTITY_READ'], token: expect.stringMatching(/^st_/) });
    expect(Date.parse(session.expiresAt) - Date.now()).toBeGreaterThan(590_000);

    const read = (query: string, variables: Record<string, unknown> = {}) => stack.gql(query, variables, bearer(session.token));
    expect((await read(`query($id: ID!) { identityVerification(id: $id) { id userId } }`, { id: mine.id })).body.data).toEqual({
      identityVerification: { id: mine.id, userId: 'ama' },
    });
    expect((await read(`query($id: ID!) { identityVerification(id: $id) { id } }`, { id: theirs.id })).body.data).toEqual({
      identityVerification: null,
    });
    const list = await read(`{ identityVerifications { nodes { userId } } }`);
    expect(list.body.data.identityVerifications.nodes).toEqual([{ userId: 'ama' }]);
    const asked = await read(`{ identityVerifications(filter: { userId: "kofi" }) { totalCount nodes { userId } } }`);
    expect(asked.body.data.identityVerifications.nodes.every((n: { userId: string }) => n.userId === 'ama')).toBe(true);
    // REST takes it too
    expect((await stack.rest('GET', `/verifications/identity/${theirs.id}`, undefined, bearer(session.token))).status).toBe(404);
    expect((await stack.rest('GET', `/verifications/identity/${mine.id}`, undefined, bearer(session.token))).status).toBe(200);
  });

  it('sees its own User and no other (null)', async () => {
    const created = await createIdentity('abena');
    const session = (await mint({ userId: 'abena', scopes: ['IDENTITY_READ'] })).data.createSessionToken.sessionToken;
    const query = `query($id: ID!) { user(id: $id) { id currentIdentityVerification { id } identityVerifications { totalCount } } }`;
    expect((await stack.gql(query, { id: 'abena' }, bearer(session.token))).body.data.user).toEqual({
      id: 'abena',
      currentIdentityVerification: { id: created.id },
      identityVerifications: { totalCount: 1 },
    });
    expect((await stack.gql(query, { id: 'kofi' }, bearer(session.token))).body).toEqual({ data: { user: null } });
  });

  it('every scope a session may hold reads only its user’s records', async () => {
    for (const userId of ['ama', 'kofi']) {
      await stack.rest('POST', '/screening/aml', { userId, fullName: `${userId} Person` }, h);
      await stack.rest('POST', '/monitoring/watchlist/subscribe', { userId, fullName: `${userId} Person` }, h);
      await stack.rest('POST', '/intelligence/ip', { ip: '41.90.1.2', userId }, h);
      await stack.rest(
        'POST',
        '/intelligence/device/fingerprint',
        { userId, sessionId: 's', fingerprint: { userAgent: 'x' }, ip: '41.90.1.2' },
        h,
      );
    }
    const batch = (await stack.rest('POST', '/screening/aml/batch', { subjects: [{ userId: 'kofi', fullName: 'Kofi Person' }] }, h)).body;
    const theirs = async (query: string, pick: (data: any) => { id: string }[]) =>
      pick((await stack.gql(query, { u: 'kofi' }, h)).body.data)[0].id;
    const kofi = {
      screening: await theirs(`query($u: String) { amlScreenings(filter: { userId: $u }) { nodes { id } } }`, (d) => d.amlScreenings.nodes),
      subscription: await theirs(
        `query($u: String) { watchlistSubscriptions(filter: { userId: $u }) { nodes { id } } }`,
        (d) => d.watchlistSubscriptions.nodes,
      ),
      device: await theirs(
        `query($u: String) { deviceAssessments(filter: { userId: $u }) { nodes { id } } }`,
        (d) => d.deviceAssessments.nodes,
      ),
      ip: await theirs(`query($u: String) { ipAnalyses(filter: { userId: $u }) { nodes { id } } }`, (d) => d.ipAnalyses.nodes),
    };
    const session = (await mint({ userId: 'ama', scopes: ['IDENTITY_READ', 'SCREENING_READ', 'MONITORING_READ', 'INTELLIGENCE_READ'] }))
      .data.createSessionToken.sessionToken;
    const read = async (query: string, variables: Record<string, unknown> = {}) => {
      const res = await stack.gql(query, variables, bearer(session.token));
      expect({ query, errors: res.body.errors }).toEqual({ query, errors: undefined });
      return res.body.data;
    };
    const users = (nodes: Array<{ userId: string }>) => [...new Set(nodes.map((n) => n.userId))];
    expect(users((await read(`{ amlScreenings { nodes { userId } } }`)).amlScreenings.nodes)).toEqual(['ama']);
    expect(users((await read(`{ amlScreenings(filter: { userId: "kofi" }) { nodes { userId } } }`)).amlScreenings.nodes)).not.toContain(
      'kofi',
    );
    expect(users((await read(`{ watchlistSubscriptions { nodes { userId } } }`)).watchlistSubscriptions.nodes)).toEqual(['ama']);
    expect(users((await read(`{ deviceAssessments { nodes { userId } } }`)).deviceAssessments.nodes)).toEqual(['ama']);
    expect(users((await read(`{ ipAnalyses { nodes { userId } } }`)).ipAnalyses.nodes)).toEqual(['ama']);
    // reference data every organization shares reads as for a key
    await read(`{ ipFeeds { totalCount } }`);
    expect(
      await read(
        `query($s: ID!, $w: ID!, $d: ID!, $i: ID!, $b: ID!) { amlScreening(id: $s) { id } watchlistSubscription(id: $w) { id }
          deviceAssessment(id: $d) { id } ipAnalysis(id: $i) { id } amlBatch(id: $b) { id } }`,
        { s: kofi.screening, w: kofi.subscription, d: kofi.device, i: kofi.ip, b: batch.batchId },
      ),
    ).toEqual({ amlScreening: null, watchlistSubscription: null, deviceAssessment: null, ipAnalysis: null, amlBatch: null });
  });

  it('a session token may do nothing beyond its scopes: no writes, no other areas, no new tokens', async () => {
    const session = (await mint({ userId: 'ama', scopes: ['IDENTITY_READ'] })).data.createSessionToken.sessionToken;
    const create = await stack.gql(
      `mutation { createIdentityVerification(input: { userId: "ama" }) { userErrors { code } } }`,
      {},
      bearer(session.token),
    );
    expect(create.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    const webhooks = await stack.rest('POST', '/verifications/identity', { userId: 'ama' }, bearer(session.token));
    expect(webhooks.status).toBe(403);
    const again = await mint({ userId: 'ama', scopes: ['IDENTITY_READ'] }, bearer(session.token));
    expect(again.errors?.[0].extensions.code).toBe('FORBIDDEN');
  });

  describe('submit scopes: a browser submits its own user’s checks', () => {
    const SUBMIT = ['DOCUMENT_SUBMIT', 'LIVENESS_SUBMIT', 'PHONE_SUBMIT', 'EMAIL_SUBMIT', 'ADDRESS_SUBMIT'];
    /** A test-environment key (codes are 123456, nothing is sent) and sessions it mints. */
    let sandbox: Record<string, string>;
    const submitter = async (userId: string, scopes = SUBMIT) => {
      const minted = await mint({ userId, scopes }, sandbox);
      expect(minted.data.createSessionToken.userErrors).toEqual([]);
      return bearer(minted.data.createSessionToken.sessionToken.token);
    };
    const bill = () => electricityBill('AMA MENSAH', ['12 Moi Ave', 'Nairobi'], daysAgo(20));
    const billForm = async (userId: string) =>
      form({ userId, documentType: 'UTILITY_BILL', country: 'KE' }, { document: { bytes: await bill(), name: 'bill.jpg' } });
    let serial = 0;
    const newNumber = () => `+25471${String(process.pid % 1000).padStart(3, '0')}${String(serial++).padStart(4, '0')}`;

    beforeAll(async () => {
      sandbox = { 'x-api-key': (await stack.createClient({ name: 'browser backend', environment: 'test' })).apiKey };
    });

    it('creates and continues its own user’s document, liveness, phone, email and address checks (REST and GraphQL)', async () => {
      const session = await submitter('ama');
      const document = await stack.rest('POST', '/v1/verifications/document', await idCardForm('ama', await portrait('woman')), session);
      expect({ status: document.status, userId: document.body.userId }).toEqual({ status: 201, userId: 'ama' });

      const phoneNumber = newNumber();
      const phone = await stack.rest('POST', '/verifications/phone', { phoneNumber, userId: 'ama' }, session);
      expect({ status: phone.status, userId: phone.body.userId }).toEqual({ status: 201, userId: 'ama' });
      expect((await stack.rest('POST', `/verifications/phone/${phone.body.id}/resend`, {}, session)).status).not.toBe(403);
      const phoneVerified = await stack.rest(
        'POST',
        '/verifications/phone/verify',
        { verificationId: phone.body.id, code: '123456' },
        session,
      );
      expect({ status: phoneVerified.status, body: phoneVerified.body.status }).toEqual({ status: 200, body: 'VERIFIED' });

      // GraphQL too
      const email = await stack.gql(
        `mutation { startEmailVerification(input: { userId: "ama", email: "ama@example.com" }) { emailVerification { id userId } userErrors { code } } }`,
        {},
        session,
      );
      expect(email.body.data?.startEmailVerification).toMatchObject({ emailVerification: { userId: 'ama' }, userErrors: [] });
      const emailVerified = await stack.gql(
        `mutation($id: ID!) { verifyEmailCode(input: { id: $id, code: "123456" }) { emailVerification { status } userErrors { code } } }`,
        { id: email.body.data.startEmailVerification.emailVerification.id },
        session,
      );
      expect(emailVerified.body.data?.verifyEmailCode).toEqual({ emailVerification: { status: 'VERIFIED' }, userErrors: [] });

      const liveness = livenessClient(stack, session);
      const created = await liveness.create('ama');
      expect((await stack.rest('GET', `/verifications/liveness/${created.id}`, undefined, sandbox)).body.userId).toBe('ama');
      const reference = await liveness.reference(created.sessionToken, (await poses()).frontal);
      expect(reference.status).toBe(200);

      const address = await stack.rest('POST', '/v1/verifications/address', await billForm('ama'), session);
      expect({ status: address.status, userId: address.body.userId }).toEqual({ status: 201, userId: 'ama' });
    }, 60_000);

    it('refuses to submit for another user (403) and finds none of another user’s records (404)', async () => {
      const session = await submitter('ama');
      const refused = [
        await stack.rest('POST', '/v1/verifications/document', await idCardForm('kofi', await portrait('woman')), session),
        await stack.rest('POST', '/verifications/phone', { phoneNumber: newNumber(), userId: 'kofi' }, session),
        await stack.rest('POST', '/verifications/email', { email: 'kofi@example.com', userId: 'kofi' }, session),
        await stack.rest('POST', '/v1/verifications/liveness/session', { userId: 'kofi' }, session),
        await stack.rest('POST', '/v1/verifications/address', await billForm('kofi'), session),
      ];
      expect(refused.map((r) => [r.status, r.body.code])).toEqual(Array(5).fill([403, 'FORBIDDEN']));
      const gql = await stack.gql(
        `mutation { startEmailVerification(input: { userId: "kofi", email: "kofi@example.com" }) { emailVerification { id } } }`,
        {},
        session,
      );
      expect(gql.body.errors?.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(['FORBIDDEN']);
      // a browser's token uploads its proof of address: it does not make the server fetch a URL
      const byUrl = await stack.rest(
        'POST',
        '/verifications/address',
        { userId: 'ama', documentType: 'UTILITY_BILL', documentUrl: 'https://example.com/bill.jpg' },
        session,
      );
      expect(byUrl.status).toBe(403);

      // kofi's records, made by the key, cannot be continued by ama's session
      const phone = (await stack.rest('POST', '/verifications/phone', { phoneNumber: newNumber(), userId: 'kofi' }, sandbox)).body;
      const email = (await stack.rest('POST', '/verifications/email', { email: 'kofi@example.com', userId: 'kofi' }, sandbox)).body;
      const kofiLiveness = await livenessClient(stack, sandbox).create('kofi');
      const continued = [
        await stack.rest('POST', '/verifications/phone/verify', { verificationId: phone.id, code: '123456' }, session),
        await stack.rest('POST', `/verifications/phone/${phone.id}/resend`, {}, session),
        await stack.rest('POST', '/verifications/email/verify', { verificationId: email.id, code: '123456' }, session),
        await livenessClient(stack, session).reference(kofiLiveness.sessionToken, (await poses()).frontal),
        await livenessClient(stack, session).challenge(
          kofiLiveness.sessionToken,
          kofiLiveness.challenges[0].id,
          (await poses()).turnedLeft,
        ),
      ];
      expect(continued.map((r) => r.status)).toEqual([404, 404, 404, 404, 404]);
      // and they are as they were
      expect((await stack.rest('GET', `/verifications/phone/${phone.id}`, undefined, sandbox)).body.status).toBe('PENDING');
      expect((await stack.rest('GET', `/verifications/email/${email.id}`, undefined, sandbox)).body.status).toBe('PENDING');
    }, 60_000);

    it('does only the steps granted, never reviews or deletes, and reads only what its user submitted', async () => {
      const phoneOnly = await submitter('ama', ['PHONE_SUBMIT']);
      const notGranted = [
        await stack.rest('POST', '/verifications/email', { email: 'ama@example.com', userId: 'ama' }, phoneOnly),
        await stack.rest('POST', '/v1/verifications/document', await idCardForm('ama', await portrait('woman')), phoneOnly),
        await stack.rest('POST', '/v1/verifications/liveness/session', { userId: 'ama' }, phoneOnly),
        await stack.rest('POST', '/v1/verifications/address', await billForm('ama'), phoneOnly),
        await stack.rest('POST', '/verifications/identity', { userId: 'ama' }, phoneOnly),
      ];
      expect(notGranted.map((r) => r.status)).toEqual([403, 403, 403, 403, 403]);

      // every submit scope, and the records it made itself: still no review or deletion
      const session = await submitter('ama');
      const document = (await stack.rest('POST', '/v1/verifications/document', await idCardForm('ama', await portrait('woman')), session))
        .body;
      const address = (await stack.rest('POST', '/v1/verifications/address', await billForm('ama'), session)).body;
      const codes = async (query: string, variables: Record<string, unknown> = {}) =>
        (await stack.gql(query, variables, session)).body.errors?.map((e: { extensions: { code: string } }) => e.extensions.code);
      const review = { decision: 'VERIFIED', reviewedBy: 'ama', reviewNotes: 'looks fine' };
      expect(
        await codes(
          `mutation($id: ID!) { reviewDocumentVerification(input: { id: $id, decision: VERIFIED, reviewedBy: "ama", reviewNotes: "mine" }) { userErrors { code } } }`,
          {
            id: document.id,
          },
        ),
      ).toEqual(['FORBIDDEN']);
      expect(
        await codes(`mutation($id: ID!) { deleteDocumentVerificationImages(input: { id: $id }) { userErrors { code } } }`, {
          id: document.id,
        }),
      ).toEqual(['FORBIDDEN']);
      expect((await stack.rest('POST', `/verifications/address/${address.id}/review`, review, session)).status).toBe(403);
      // what its user submitted it reads and follows (the page shows how a check ends), nobody else's
      const listed = (await stack.gql(`{ documentVerifications { nodes { id userId } } }`, {}, session)).body.data.documentVerifications;
      expect(listed.nodes.length).toBeGreaterThan(0);
      expect(listed.nodes.every((n: { userId: string }) => n.userId === 'ama')).toBe(true);
      expect((await stack.gql(`query($id: ID!) { documentVerification(id: $id) { id } }`, { id: document.id }, session)).body.data).toEqual(
        {
          documentVerification: { id: document.id },
        },
      );
      expect((await stack.rest('GET', `/verifications/address/${address.id}`, undefined, session)).body).toMatchObject({ userId: 'ama' });
      // a scope to submit phones reads no documents
      expect((await stack.rest('GET', `/verifications/address/${address.id}`, undefined, phoneOnly)).status).toBe(403);
      const hook = { clientId: client.id, callbackUrl: 'https://hooks.example.com/v', events: ['document.verified'] };
      expect((await stack.rest('POST', '/webhooks/configure', hook, session)).status).toBe(403);
      expect((await mint({ userId: 'ama', scopes: ['PHONE_SUBMIT'] }, session)).errors?.[0].extensions.code).toBe('FORBIDDEN');
    }, 60_000);

    it('is minted only by a key that may write the area', async () => {
      const reader = await stack.createClient({ name: 'reader', environment: 'test', permissions: ['document:read', 'phone'] });
      const refused = await mint({ userId: 'ama', scopes: ['DOCUMENT_SUBMIT', 'PHONE_SUBMIT'] }, { 'x-api-key': reader.apiKey });
      expect(refused.data.createSessionToken.userErrors).toEqual([
        expect.objectContaining({ field: ['input', 'scopes'], message: expect.stringMatching(/\(not: document:submit\)$/) }),
      ]);
      // a key is told the permission it can be given
      const submitted = await stack.rest('POST', '/v1/verifications/document', await idCardForm('ama', await portrait('woman')), {
        'x-api-key': reader.apiKey,
      });
      expect({ status: submitted.status, message: submitted.body.message }).toEqual({
        status: 403,
        message: 'Insufficient permissions: requires document:write',
      });
      const writer = await stack.createClient({ name: 'writer', environment: 'test', permissions: ['document:write'] });
      const granted = await mint({ userId: 'ama', scopes: ['DOCUMENT_SUBMIT'] }, { 'x-api-key': writer.apiKey });
      expect(granted.data.createSessionToken.sessionToken.scopes).toEqual(['DOCUMENT_SUBMIT']);
    });
  });

  it('refuses scopes the key does not hold, and says which field is wrong', async () => {
    const riskKey = (await stack.createClient({ name: 'risk only', service: 'risk' })).apiKey;
    const refused = await mint({ userId: 'ama', scopes: ['IDENTITY_READ'] }, { authorization: `Bearer ${riskKey}` });
    expect(refused.data.createSessionToken).toEqual({
      sessionToken: null,
      userErrors: [
        {
          field: ['input', 'scopes'],
          code: 'VALIDATION_FAILED',
          message: expect.stringMatching(/^scopes must be ones this key holds .*\(not: identity:read\)$/),
        },
      ],
    });
    const bad = await mint({ userId: '', scopes: [], ttlSeconds: 5 });
    expect(bad.data.createSessionToken.userErrors.map((e: { field: string[] }) => e.field)).toEqual([
      ['input', 'userId'],
      ['input', 'scopes'],
      ['input', 'ttlSeconds'],
    ]);
  });

  it('a forged, expired or orphaned token is refused', async () => {
    const session = (await mint({ userId: 'ama', scopes: ['IDENTITY_READ'] })).data.createSessionToken.sessionToken;
    const [value, signature] = session.token.slice(3).split('.');
    const claims = JSON.parse(Buffer.from(value, 'base64url').toString());
    const forged = `st_${Buffer.from(JSON.stringify({ ...claims, userId: 'kofi' })).toString('base64url')}.${signature}`;
    expect((await stack.gql(`{ identityVerifications { totalCount } }`, {}, bearer(forged))).status).toBe(401);

    // revoking the key that minted it ends the session too
    const minter = await stack.createClient({ name: 'short-lived backend' });
    const orphan = (await mint({ userId: 'ama', scopes: ['IDENTITY_READ'] }, { 'x-api-key': minter.apiKey })).data.createSessionToken
      .sessionToken;
    expect((await stack.gql(`{ identityVerifications { totalCount } }`, {}, bearer(orphan.token))).status).toBe(200);
    await stack.rest('DELETE', `/admin/api-clients/${minter.id}`, undefined, { 'x-admin-secret': ADMIN_SECRET });
    expect((await stack.gql(`{ identityVerifications { totalCount } }`, {}, bearer(orphan.token))).status).toBe(401);
  });

  it('follows its own user live over graphql-ws, and never another user', async () => {
    const session = (await mint({ userId: 'efua', scopes: ['IDENTITY_READ'], ttlSeconds: 60 })).data.createSessionToken.sessionToken;
    const mine = stack.subscribe(
      `subscription { identityVerificationUpdatedForUser(userId: "efua") { type node { userId } } }`,
      {},
      bearer(session.token),
    );
    const other = stack.subscribe(
      `subscription { identityVerificationUpdatedForUser(userId: "yaw") { type node { userId } } }`,
      {},
      bearer(session.token),
    );
    await Promise.all([mine.ready, other.ready]);
    await createIdentity('yaw');
    await createIdentity('efua');
    expect((await mine.next(1))[0].data.identityVerificationUpdatedForUser).toEqual({ type: 'IDENTITY_CREATED', node: { userId: 'efua' } });
    // yaw's event was committed first: had it passed the session's filter it would be here by now
    expect(other.events).toEqual([]);
    await other.close();
    await mine.close();
  });

  it('an open subscription ends with 4401 when its token expires', async () => {
    // a token that expires in two seconds (the API's shortest is a minute), signed as the gateway's subgraphs sign them
    const token = mintSessionToken(
      {
        clientId: client.id,
        organizationId: client.organizationId,
        environment: 'live',
        userId: 'kwesi',
        scopes: ['identity:read'],
        exp: Math.floor(Date.now() / 1000) + 2,
      },
      INTERNAL_SECRET,
    );
    const sub = stack.subscribe(`subscription { identityVerificationUpdatedForUser(userId: "kwesi") { type } }`, {}, bearer(token));
    await sub.ready;
    const [ended] = await sub.next(1, 10_000);
    expect(ended.error).toMatchObject({ code: 4401, reason: 'Session token expired' });
    await sub.close();
    expect((await stack.gql(`{ identityVerifications { totalCount } }`, {}, bearer(token))).status).toBe(401);
  });
});
