import pg from 'pg';
import { selfSignedCertificate, startReceiver, verifiedPayload } from './support/https-receiver.js';
import { startMtnMomoFake, userInfo, type MtnMomoFake } from './support/mtn-momo-fake.js';
import { eventually, startTestStack, TEST_MASTER_KEY, type TestStack } from './support/stack.js';
import { Keyring } from '../platform/crypto/keyring.js';
import { LocalKeyProvider, parseMasterKey } from '../platform/crypto/key-provider.js';
import { MOBILE_MONEY } from './support/spec-tables.js';

const cert = selfSignedCertificate();
const MTN = { subscriptionKey: 'fake-subscription-key', apiUser: '0c8a4b2e-8d1f-4e57-9a0b-5a8e6f2d1c33', apiKey: 'fake-api-key' };

const FIELDS = `id userId phoneNumber provider country status accountHolder nameMatch nameMatchScore accountStatus verifiedAt createdAt
  expectedName nameMatchExplanation { summary threshold parts { expected holder how score } } failureReason adapter attempts checkedAt updatedAt`;
const CREATE = `mutation($input: CreateMobileMoneyVerificationInput!) {
  createMobileMoneyVerification(input: $input) { mobileMoneyVerification { ${FIELDS} } userErrors { field code message } }
}`;
const RETRY = `mutation($id: ID!) {
  retryMobileMoneyVerification(input: { id: $id }) { mobileMoneyVerification { id status attempts } userErrors { field code message } }
}`;

/** The spec's record, in its order (then what the product adds). */
const SPEC_FIELDS = [...MOBILE_MONEY];

describe('mobile money account verification end to end (REST both forms, GraphQL, MTN MoMo, webhooks)', () => {
  let stack: TestStack;
  let fake: MtnMomoFake;
  let test: Record<string, string>;
  let live: Record<string, string>;
  let liveClient: { id: string; organizationId: string };

  beforeAll(async () => {
    fake = await startMtnMomoFake({ ...MTN, targetEnvironment: 'mtnghana' });
    stack = await startTestStack(
      {
        WEBHOOK_RETRY_DELAYS: '1,1,1',
        MTN_MOMO_BASE_URL: fake.url,
        MTN_MOMO_SUBSCRIPTION_KEY: MTN.subscriptionKey,
        MTN_MOMO_API_USER: MTN.apiUser,
        MTN_MOMO_API_KEY: MTN.apiKey,
        MTN_MOMO_TARGET_ENVIRONMENT: 'GH=mtnghana',
        MTN_MOMO_TIMEOUT_MS: '500',
        MOBILE_MONEY_TIMEOUT_MS: '3000',
        MOBILE_MONEY_SWEEP_MS: '200',
      },
      { webhookCa: cert.cert },
    );
    test = { 'x-api-key': (await stack.createClient({ name: 'momo sandbox', environment: 'test' })).apiKey };
    const liveKey = await stack.createClient({ name: 'momo live' });
    liveClient = liveKey;
    live = { 'x-api-key': liveKey.apiKey };
    fake.accounts.set('233241234567', { active: true, info: userInfo('Kwame', 'Mensah') });
    fake.accounts.set('233241234568', { active: false });
  });
  afterAll(async () => {
    await stack?.stop();
    await fake?.close();
  });

  const post = (prefix: '/v1' | '', body: Record<string, unknown>, as = test) =>
    stack.rest('POST', `${prefix}/verifications/mobile-money`, body, as);
  const ghana = (phoneNumber: string, expectedName?: string, userId = 'momo-user') => ({
    userId,
    phoneNumber,
    provider: 'MTN_MOMO',
    country: 'GH',
    ...(expectedName !== undefined && { expectedName }),
  });

  describe('the sandbox (test keys): every outcome through both forms and GraphQL', () => {
    it.each(['/v1', ''] as const)('VERIFIED with the holder in capitals and the name comparison, 200 (form %s)', async (prefix) => {
      const res = await post(prefix, ghana('+233241234567', 'Kwame Mensah'));
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).slice(0, SPEC_FIELDS.length)).toEqual(SPEC_FIELDS);
      expect(res.body).toMatchObject({
        userId: 'momo-user',
        phoneNumber: '+233241234567',
        provider: 'MTN_MOMO',
        country: 'GH',
        status: 'VERIFIED',
        accountHolder: 'KWAME MENSAH',
        nameMatch: true,
        nameMatchScore: 1,
        accountStatus: 'ACTIVE',
        verifiedAt: expect.any(String),
        expectedName: 'Kwame Mensah',
        failureReason: null,
        adapter: 'sandbox',
        attempts: 1,
      });
      expect(res.body.nameMatchExplanation).toEqual({
        summary:
          'The account holder KWAME MENSAH matches the expected name Kwame Mensah: score 1.00 against a threshold of 0.85; matched: kwame, mensah.',
        threshold: 0.85,
        parts: [
          { expected: 'kwame', holder: 'kwame', how: 'EXACT', score: 1 },
          { expected: 'mensah', holder: 'mensah', how: 'EXACT', score: 1 },
        ],
      });
      const got = await stack.rest('GET', `${prefix}/verifications/mobile-money/${res.body.id}`, undefined, test);
      expect(got.status).toBe(200);
      expect(got.body).toEqual(res.body);
    });

    it.each(['/v1', ''] as const)('NAME_MISMATCH, NOT_FOUND and PROVIDER_ERROR, each 200 (form %s)', async (prefix) => {
      const mismatch = await post(prefix, ghana('+233240000002', 'Kwame Mensah'));
      expect(mismatch.status).toBe(200);
      expect(mismatch.body).toMatchObject({
        status: 'NAME_MISMATCH',
        accountHolder: 'AMA SERWAA BOATENG',
        accountStatus: 'ACTIVE',
        nameMatch: false,
        nameMatchScore: 0,
        verifiedAt: null,
        failureReason: expect.stringMatching(/does not match expectedName/),
      });
      const notFound = await post(prefix, ghana('+233240000001', 'Kwame Mensah'));
      expect(notFound.status).toBe(200);
      expect(notFound.body).toMatchObject({
        status: 'NOT_FOUND',
        accountStatus: null,
        accountHolder: null,
        nameMatch: null,
        nameMatchScore: null,
      });
      const inactive = await post(prefix, ghana('+233240000005'));
      expect(inactive.body).toMatchObject({ status: 'NOT_FOUND', accountStatus: 'INACTIVE' });
      for (const number of ['+233240000003', '+233240000004']) {
        const failed = await post(prefix, ghana(number, 'Kwame Mensah'));
        expect(failed.status).toBe(200);
        expect(failed.body).toMatchObject({
          status: 'PROVIDER_ERROR',
          accountStatus: null,
          failureReason: expect.stringMatching(/^MTN_MOMO /),
        });
      }
      // no expected name: the account alone is verified
      const noName = await post(prefix, ghana('+233240000006'));
      expect(noName.body).toMatchObject({ status: 'VERIFIED', accountHolder: null, nameMatch: null, nameMatchExplanation: null });
    });

    it('every provider of the spec in a country it serves; another provider’s country, number or a bad value is refused naming the field', async () => {
      const providers = [
        ['MTN_MOMO', 'UG', '+256771234567'],
        ['ORANGE_MONEY', 'SN', '+221771234567'],
        ['AIRTEL_MONEY', 'KE', '+254733123456'],
        ['MPESA', 'KE', '+254712345678'],
        ['WAVE', 'CI', '+2250701234567'],
        ['FREE_MONEY', 'SN', '+221761234567'],
        ['MOOV_MONEY', 'BJ', '+2290197123456'],
      ];
      for (const [provider, country, phoneNumber] of providers) {
        const res = await post('/v1', { userId: 'providers', phoneNumber, provider, country, expectedName: 'Awa Ndiaye' });
        expect([provider, res.status, res.body.status, res.body.accountHolder]).toEqual([provider, 200, 'VERIFIED', 'AWA NDIAYE']);
      }
      const lower = await post('', { ...ghana('+233241234567'), provider: 'mtn_momo' });
      expect(lower.status).toBe(422);
      expect(lower.body.message).toEqual([
        'provider must be one of: MTN_MOMO, ORANGE_MONEY, AIRTEL_MONEY, MPESA, WAVE, FREE_MONEY, MOOV_MONEY',
      ]);
      const missing = await post('/v1', { userId: 'x', provider: 'MTN_MOMO', country: 'GH' });
      expect(missing.status).toBe(400);
      expect(missing.body.message).toEqual(['phoneNumber is required']);
      const local = await post('/v1', ghana('0241234567'));
      expect(local.status).toBe(422);
      expect(local.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: [expect.stringMatching(/^phoneNumber must be in E.164 format/)],
      });
      const kenyan = await post('/v1', ghana('+254712345678'));
      expect(kenyan.body.message).toEqual(['phoneNumber +254712345678 is a number of KE, not of GH']);
      const wave = await post('/v1', { ...ghana('+233241234567'), provider: 'WAVE' });
      expect(wave.status).toBe(422);
      expect(wave.body.message).toEqual(['provider WAVE offers no mobile money service in GH (it does in: BF, CI, GM, ML, SN, UG)']);
      const landline = await stack.gql(CREATE, { input: ghana('+233302123456') }, test);
      expect(landline.body.data.createMobileMoneyVerification).toEqual({
        mobileMoneyVerification: null,
        userErrors: [
          {
            field: ['input', 'phoneNumber'],
            code: 'VALIDATION_FAILED',
            message: 'phoneNumber must be a mobile number (+233302123456 is a fixed-line number)',
          },
        ],
      });
      const country = await post('', { ...ghana('+233241234567'), country: 'Ghana' });
      expect(country.body.message).toEqual(['country must be an uppercase ISO 3166-1 alpha-2 country code']);
    });

    it('GraphQL: the mutation answers each outcome; the query by id, the connection and User.mobileMoneyVerifications list them', async () => {
      const outcomes: Record<string, string> = {};
      for (const [number, expected] of [
        ['+233241111111', 'VERIFIED'],
        ['+233240000002', 'NAME_MISMATCH'],
        ['+233240000001', 'NOT_FOUND'],
        ['+233240000003', 'PROVIDER_ERROR'],
      ]) {
        const res = await stack.gql(CREATE, { input: ghana(number, 'Yaw Owusu', 'gql-user') }, test);
        const v = res.body.data.createMobileMoneyVerification.mobileMoneyVerification;
        expect([number, v.status]).toEqual([number, expected]);
        outcomes[expected] = v.id;
      }
      const byId = await stack.gql(
        `query($id: ID!) { mobileMoneyVerification(id: $id) { id status accountHolder nameMatch user { id } } }`,
        { id: outcomes.VERIFIED },
        test,
      );
      expect(byId.body.data.mobileMoneyVerification).toEqual({
        id: outcomes.VERIFIED,
        status: 'VERIFIED',
        accountHolder: 'YAW OWUSU',
        nameMatch: true,
        user: { id: 'gql-user' },
      });
      const errors = await stack.gql(
        `{ mobileMoneyVerifications(filter: { userId: "gql-user", status: PROVIDER_ERROR }) { totalCount nodes { id } } }`,
        {},
        test,
      );
      expect(errors.body.data.mobileMoneyVerifications).toEqual({ totalCount: 1, nodes: [{ id: outcomes.PROVIDER_ERROR }] });
      const user = await stack.gql(
        `{ user(id: "gql-user") { mobileMoneyVerifications(first: 10) { totalCount nodes { status } } } }`,
        {},
        test,
      );
      expect(user.body.data.user.mobileMoneyVerifications).toEqual({
        totalCount: 4,
        nodes: [{ status: 'PROVIDER_ERROR' }, { status: 'NOT_FOUND' }, { status: 'NAME_MISMATCH' }, { status: 'VERIFIED' }],
      });
      const page = await stack.rest('GET', '/v1/verifications/mobile-money/user/gql-user?page=2&limit=3', undefined, test);
      expect(page.body).toMatchObject({ total: 4, page: 2, limit: 3, data: [{ id: outcomes.VERIFIED }] });
      // a final outcome is not retried
      const retried = await stack.gql(RETRY, { id: outcomes.VERIFIED }, test);
      expect(retried.body.data.retryMobileMoneyVerification.userErrors).toEqual([
        {
          field: null,
          code: 'CONFLICT',
          message: expect.stringMatching(/^Cannot apply retried to a mobile money verification in status VERIFIED/),
        },
      ]);
      const again = await stack.rest('POST', `/verifications/mobile-money/${outcomes.PROVIDER_ERROR}/retry`, undefined, test);
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ status: 'PROVIDER_ERROR', attempts: 2 });
    });

    it('follows a user’s verifications live: PENDING, then the outcome', async () => {
      const subscription = stack.subscribe(
        `subscription($u: String!) { mobileMoneyVerificationUpdatedForUser(userId: $u) { type node { id status accountHolder } } }`,
        { u: 'live-follow' },
        test,
      );
      await subscription.ready;
      const made = await post('', ghana('+233241234567', 'Kwame Mensah', 'live-follow'));
      const events = await subscription.next(2);
      expect(events.map((e) => e.data.mobileMoneyVerificationUpdatedForUser)).toEqual([
        { type: 'MOBILE_MONEY_PENDING', node: { id: made.body.id, status: 'PENDING', accountHolder: null } },
        { type: 'MOBILE_MONEY_VERIFIED', node: { id: made.body.id, status: 'VERIFIED', accountHolder: 'KWAME MENSAH' } },
      ]);
      await subscription.close();
    });
  });

  describe('MTN MoMo (live keys) against its local fake', () => {
    it.each(['/v1', ''] as const)('VERIFIED, NAME_MISMATCH and NOT_FOUND from the operator’s answers (form %s)', async (prefix) => {
      const verified = await post(prefix, ghana('+233241234567', 'Kwame Mensah'), live);
      expect(verified.status).toBe(200);
      expect(verified.body).toMatchObject({
        status: 'VERIFIED',
        accountHolder: 'KWAME MENSAH',
        accountStatus: 'ACTIVE',
        adapter: 'mtn_momo',
      });
      const mismatch = await post(prefix, ghana('+233241234567', 'Abena Asante'), live);
      expect(mismatch.body).toMatchObject({ status: 'NAME_MISMATCH', accountHolder: 'KWAME MENSAH', nameMatch: false });
      const unknown = await post(prefix, ghana('+233209999999', 'Kwame Mensah'), live);
      expect(unknown.body).toMatchObject({
        status: 'NOT_FOUND',
        accountStatus: null,
        failureReason: 'MTN MoMo knows no account holder +233209999999',
      });
      const inactive = await post(prefix, ghana('+233241234568', 'Kwame Mensah'), live);
      expect(inactive.body).toMatchObject({ status: 'NOT_FOUND', accountStatus: 'INACTIVE' });
      // the fake saw the protocol: its target environment for GH, the subscription key, one token for all
      const lookup = fake.requests.find((r) => r.path.endsWith('/233241234567/active'))!;
      expect(lookup.headers).toMatchObject({ 'x-target-environment': 'mtnghana', 'ocp-apim-subscription-key': MTN.subscriptionKey });
      expect(fake.tokensIssued()).toBe(1);
    });

    it('a 5xx, a timeout or malformed JSON is PROVIDER_ERROR with 200, never a 500; a retry once the operator recovers verifies', async () => {
      const outcomes = [];
      for (const [msisdn, fault] of [
        ['233241230001', 'server_error'],
        ['233241230002', 'hang'],
        ['233241230003', 'malformed'],
      ] as const) {
        fake.accounts.set(msisdn, { active: true, info: userInfo('Efua', 'Sarpong') });
        fake.faults.set(msisdn, fault);
        const res = await post('/v1', ghana(`+${msisdn}`, 'Efua Sarpong'), live);
        expect(res.status).toBe(200);
        outcomes.push([res.body.status, res.body.failureReason]);
      }
      expect(outcomes).toEqual([
        ['PROVIDER_ERROR', 'MTN MoMo failed to answer the account holder status (HTTP 500, INTERNAL_PROCESSING_ERROR)'],
        ['PROVIDER_ERROR', 'MTN MoMo did not answer within 500 ms'],
        ['PROVIDER_ERROR', 'MTN MoMo answered the account holder status with a body that is not a JSON object'],
      ]);
      const failed = await post('', ghana('+233241230001', 'Efua Sarpong'), live);
      fake.faults.delete('233241230001');
      const retried = await stack.rest('POST', `/v1/verifications/mobile-money/${failed.body.id}/retry`, undefined, live);
      expect(retried.status).toBe(200);
      expect(retried.body).toMatchObject({ status: 'VERIFIED', accountHolder: 'EFUA SARPONG', attempts: 2, failureReason: null });
    });

    it('a live provider without a real adapter is answered by the sandbox, which says so', async () => {
      const res = await post('/v1', { userId: 'momo-user', phoneNumber: '+2250701234567', provider: 'ORANGE_MONEY', country: 'CI' }, live);
      expect(res.body).toMatchObject({ status: 'VERIFIED', adapter: 'sandbox (no live ORANGE_MONEY adapter configured)' });
    });
  });

  it('delivers signed mobile_money.verified and mobile_money.failed (mismatch, not found) webhooks', async () => {
    const receiver = await startReceiver(cert);
    const hook = await stack.rest(
      'POST',
      '/webhooks/configure',
      { clientId: liveClient.id, callbackUrl: receiver.url, events: ['mobile_money.verified', 'mobile_money.failed'] },
      live,
    );
    expect(hook.status).toBe(201);
    try {
      // a provider error is no failure of the account: no event for this webhook (made first: the others' arrival says it was relayed)
      fake.faults.set('233241230009', 'server_error');
      const providerError = (await post('', ghana('+233241230009', 'Kwame Mensah', 'hooked'), live)).body;
      const verified = (await post('', ghana('+233241234567', 'Kwame Mensah', 'hooked'), live)).body;
      const mismatch = (await post('', ghana('+233241234567', 'Abena Asante', 'hooked'), live)).body;
      const notFound = (await post('', ghana('+233209999998', 'Kwame Mensah', 'hooked'), live)).body;
      const about = (id: string) => receiver.received.find((r) => JSON.parse(r.body).data.verificationId === id);
      await eventually(async () => about(verified.id) && about(mismatch.id) && about(notFound.id));
      expect(verifiedPayload(hook.body.secret, about(verified.id)!)).toEqual({
        event: 'mobile_money.verified',
        timestamp: expect.any(String),
        data: {
          verificationId: verified.id,
          userId: 'hooked',
          status: 'VERIFIED',
          phoneNumber: '+233241234567',
          provider: 'MTN_MOMO',
          country: 'GH',
          accountHolder: 'KWAME MENSAH',
          accountStatus: 'ACTIVE',
          nameMatch: true,
          nameMatchScore: 1,
          verifiedAt: verified.verifiedAt,
          checkedAt: verified.checkedAt,
        },
      });
      expect(verifiedPayload(hook.body.secret, about(mismatch.id)!)).toMatchObject({
        event: 'mobile_money.failed',
        data: { verificationId: mismatch.id, status: 'NAME_MISMATCH', nameMatch: false, accountHolder: 'KWAME MENSAH' },
      });
      expect(verifiedPayload(hook.body.secret, about(notFound.id)!)).toMatchObject({
        event: 'mobile_money.failed',
        data: { verificationId: notFound.id, status: 'NOT_FOUND', accountStatus: null, failureReason: expect.any(String) },
      });
      expect(providerError.status).toBe('PROVIDER_ERROR');
      expect(about(providerError.id)).toBeUndefined();
      expect(receiver.received.filter((r) => JSON.parse(r.body).data.userId === 'hooked')).toHaveLength(3);
    } finally {
      await stack.rest('DELETE', `/webhooks/${hook.body.id}`, undefined, live);
      await receiver.close();
    }
  });

  it('keeps organizations apart', async () => {
    const mine = await post('/v1', ghana('+233241234567', 'Kwame Mensah', 'private-user'));
    const other = { 'x-api-key': (await stack.createClient({ name: 'other org', environment: 'test' })).apiKey };
    const read = await stack.rest('GET', `/v1/verifications/mobile-money/${mine.body.id}`, undefined, other);
    expect(read.status).toBe(404);
    expect(read.body.code).toBe('NOT_FOUND');
    const listed = await stack.rest('GET', '/verifications/mobile-money/user/private-user', undefined, other);
    expect(listed.body).toMatchObject({ total: 0, data: [] });
    // the same organization's live key sees none of its test data
    expect((await stack.rest('GET', `/verifications/mobile-money/${mine.body.id}`, undefined, live)).status).toBe(404);
  });

  it('a lookup a crash interrupted (PENDING past twice the deadline) becomes PROVIDER_ERROR, which may be retried', async () => {
    const pool = new pg.Pool({ connectionString: stack.databaseUrl, max: 1 });
    const id = '5d7e0f62-2a5c-4c0e-9b7e-2f3f9a4c6b10';
    try {
      // the row as the service wrote it before the crash: the number sealed with the organization's key
      const number = await new Keyring(pool, new LocalKeyProvider(parseMasterKey(TEST_MASTER_KEY))).sealJson(
        liveClient.organizationId,
        '+233241234567',
      );
      await pool.query(
        `insert into verification.mobile_money_verifications
           (id, organization_id, environment, user_id, phone_number_sealed, provider, country, expected_name, status, adapter, created_at, updated_at)
         values ($1, $2, 'live', 'crashed', $3, 'MTN_MOMO', 'GH', 'Kwame Mensah', 'PENDING', 'mtn_momo', now() - interval '1 minute', now() - interval '1 minute')`,
        [id, liveClient.organizationId, number],
      );
    } finally {
      await pool.end();
    }
    const settled = await eventually(async () => {
      const res = await stack.rest('GET', `/verifications/mobile-money/${id}`, undefined, live);
      return res.body.status === 'PROVIDER_ERROR' ? res.body : null;
    });
    expect(settled.failureReason).toMatch(/^The lookup was interrupted/);
    const retried = await stack.rest('POST', `/verifications/mobile-money/${id}/retry`, undefined, live);
    expect(retried.body).toMatchObject({ status: 'VERIFIED', accountHolder: 'KWAME MENSAH', attempts: 2 });
  });
});
