import { createHmac, randomBytes } from 'node:crypto';
import { listIndividuals } from './support/lists.js';
import { openCorporatesCompany, startOpenCorporatesFake } from './support/opencorporates-fake.js';
import { eventually, startTestStack, type TestStack } from './support/stack.js';
import { selfSignedCertificate, startReceiver, verifiedPayload } from './support/https-receiver.js';

/**
 * Business verification (KYB) end to end: REST in both forms (Form A with /v1, Form B without) and
 * GraphQL; the sandbox registry (test keys) and OpenCorporates' company endpoint (live keys, against
 * a local fake speaking its protocol); directors and UBOs screened against a fixture list; steps,
 * automatic outcomes, review, subscriptions and webhooks.
 */

const cert = selfSignedCertificate();
const TOKEN = `oc-token-${randomBytes(8).toString('hex')}`;
const LISTED = 'Ahmed Musa Bello';

const BUSINESS_FIELDS = `id userId businessName registrationNumber country businessType taxId status
  steps { registration directors ubo amlScreening }
  registryData { legalName dateIncorporated status registeredAddress capital companyType officers { name position } }
  registryLookup { provider attempts lastAttemptAt nextAttemptAt lastError }
  directors { id fullName role dateOfBirth nationality idNumber screeningStatus matchCount amlScreening { id status matchCount } }
  ubos { id fullName ownershipPercentage controlType screeningStatus matchCount amlScreening { id status } }
  reasons reviewedBy reviewNotes reviewedAt completedAt createdAt updatedAt user { id }`;
const USER_ERRORS = 'userErrors { field code message }';

type Way = 'Form A' | 'Form B' | 'GraphQL';
const WAYS: Way[] = ['Form A', 'Form B', 'GraphQL'];

const unique = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex').toUpperCase()}`;

describe('business verification (KYB) end to end', () => {
  let stack: TestStack;
  let fake: Awaited<ReturnType<typeof startOpenCorporatesFake>>;
  /** A test key: the sandbox registry. */
  let t: Record<string, string>;
  let testClientId: string;
  /** A live key of the same organization: OpenCorporates (the local fake). */
  let l: Record<string, string>;

  beforeAll(async () => {
    fake = await startOpenCorporatesFake(TOKEN);
    stack = await startTestStack(
      {
        WEBHOOK_RETRY_DELAYS: '1,1,1',
        WEBHOOK_TIMEOUT_MS: '3000',
        BUSINESS_REGISTRY: 'opencorporates',
        OPENCORPORATES_API_URL: fake.url,
        OPENCORPORATES_API_TOKEN: TOKEN,
        BUSINESS_REGISTRY_TIMEOUT_MS: '500',
        BUSINESS_REGISTRY_RETRY_DELAYS: '1,1',
      },
      { webhookCa: cert.cert },
    );
    const test = await stack.createClient({ name: 'kyb sandbox', environment: 'test' });
    t = { 'x-api-key': test.apiKey };
    testClientId = test.id;
    const live = await stack.createClient({ name: 'kyb live', organizationId: test.organizationId });
    l = { 'x-api-key': live.apiKey };
    await listIndividuals(stack.databaseUrl, [LISTED]);
    // every process reloads its screening index on the snapshot notification
    await eventually(
      async () => (await stack.rest('POST', '/screening/aml', { userId: 'warmup', fullName: LISTED }, t)).body.matchCount > 0,
    );
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await fake?.close();
  });

  const get = (id: string, headers = t) => stack.rest('GET', `/verifications/business/${id}`, undefined, headers);
  /** The business once `done` holds for it (the registry lookup runs in a job). */
  const until = (id: string, done: (b: any) => boolean, headers = t, ms = 20_000) =>
    eventually(async () => {
      const res = await get(id, headers);
      return done(res.body) ? res.body : null;
    }, ms);
  const settled = (id: string, headers = t) => until(id, (b) => b.steps.registration !== 'PROCESSING', headers);

  const gqlPayload = async (mutation: string, input: Record<string, unknown>, headers = t) => {
    const res = await stack.gql(
      `mutation($input: ${mutation[0].toUpperCase()}${mutation.slice(1)}Input!) { ${mutation}(input: $input) { businessVerification { ${BUSINESS_FIELDS} } ${USER_ERRORS} } }`,
      { input },
      headers,
    );
    expect(res.body.errors).toBeUndefined();
    return res.body.data[mutation];
  };

  /** Creates a business the given way; answers the record (REST status 201). */
  async function create(way: Way, over: Record<string, unknown> = {}, headers = t) {
    const body = {
      userId: 'kyb-user',
      businessName: 'Kilimo Fresh Produce Limited',
      registrationNumber: unique('PVT'),
      country: 'KE',
      businessType: 'LLC',
      ...(way === 'Form A' && { taxId: 'P051234567X' }),
      ...over,
    };
    if (way === 'GraphQL') {
      const payload = await gqlPayload('createBusinessVerification', body, headers);
      expect(payload.userErrors).toEqual([]);
      return payload.businessVerification;
    }
    const res = await stack.rest('POST', way === 'Form A' ? '/v1/verifications/business' : '/verifications/business', body, headers);
    expect([res.status, res.body.status]).toEqual([201, 'PENDING']);
    return res.body;
  }

  interface Person {
    fullName: string;
    role?: string;
    ownershipPercentage?: number;
    [k: string]: unknown;
  }

  /** Declares directors: Form A as an array with `role`, Form B one record per call with `position`, GraphQL as input. */
  async function addDirectors(way: Way, id: string, directors: Person[], headers = t) {
    if (way === 'GraphQL') return gqlPayload('addBusinessDirectors', { id, directors }, headers);
    if (way === 'Form A') return stack.rest('POST', `/v1/verifications/business/${id}/directors`, { directors }, headers);
    let res: any;
    for (const { role, ...d } of directors) {
      res = await stack.rest('POST', `/verifications/business/${id}/directors`, { ...d, position: role }, headers);
      if (res.status !== 200) return res;
    }
    return res;
  }

  async function addUbos(way: Way, id: string, ubos: Person[], headers = t) {
    if (way === 'GraphQL') return gqlPayload('addBusinessUbos', { id, ubos }, headers);
    if (way === 'Form A') return stack.rest('POST', `/v1/verifications/business/${id}/ubos`, { ubos }, headers);
    let res: any;
    for (const { controlType: _c, ...u } of ubos) {
      res = await stack.rest('POST', `/verifications/business/${id}/ubos`, u, headers);
      if (res.status !== 200) return res;
    }
    return res;
  }

  const DIRECTORS: Person[] = [
    { fullName: 'Wanjiku Kamau', role: 'Managing Director', dateOfBirth: '1980-05-14', nationality: 'KE', idNumber: '23456789' },
    { fullName: 'Otieno Odhiambo', role: 'Finance Director', nationality: 'KE' },
  ];
  const UBOS: Person[] = [
    { fullName: 'Wanjiku Kamau', ownershipPercentage: 60, controlType: 'DIRECT', nationality: 'KE' },
    { fullName: 'Baraka Mwangi', ownershipPercentage: 40, controlType: 'INDIRECT' },
  ];
  const okResult = (way: Way, res: any) => (way === 'GraphQL' ? expect(res.userErrors).toEqual([]) : expect(res.status).toBe(200));

  describe.each(WAYS)('through %s', (way) => {
    it('creates the record as the spec shows: PENDING, registration PROCESSING, the other steps PENDING', async () => {
      const created = await create(way, { userId: `shape-${way}` });
      expect(created).toMatchObject({
        id: expect.any(String),
        userId: `shape-${way}`,
        businessName: 'Kilimo Fresh Produce Limited',
        country: 'KE',
        businessType: 'LLC',
        taxId: way === 'Form A' ? 'P051234567X' : null,
        status: 'PENDING',
        steps: { registration: 'PROCESSING', directors: 'PENDING', ubo: 'PENDING', amlScreening: 'PENDING' },
        registryData: null,
        registryLookup: { provider: 'sandbox', attempts: 0 },
        directors: [],
        ubos: [],
        completedAt: null,
      });
      expect(Date.parse(created.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    });

    it('VERIFIED: found in the registry under its name, directors and UBOs declared and screened clear', async () => {
      const created = await create(way);
      const looked = await settled(created.id);
      expect(looked).toMatchObject({
        status: 'PENDING',
        steps: { registration: 'VERIFIED', directors: 'PENDING', ubo: 'PENDING', amlScreening: 'PENDING' },
        registryData: {
          legalName: 'Kilimo Fresh Produce Limited',
          dateIncorporated: '2015-03-12',
          status: 'Active',
          registeredAddress: '12 Sandbox Avenue, KE',
          capital: '1000000',
        },
        registryLookup: { provider: 'sandbox', attempts: 1 },
      });
      const withDirectors = await addDirectors(way, created.id, DIRECTORS);
      okResult(way, withDirectors);
      const afterDirectors = way === 'GraphQL' ? withDirectors.businessVerification : withDirectors.body;
      expect(afterDirectors).toMatchObject({
        status: 'PENDING',
        steps: { directors: 'VERIFIED', ubo: 'PENDING', amlScreening: 'CLEAR' },
        directors: [
          { fullName: 'Wanjiku Kamau', role: 'Managing Director', dateOfBirth: '1980-05-14', nationality: 'KE', screeningStatus: 'CLEAR' },
          { fullName: 'Otieno Odhiambo', role: 'Finance Director', screeningStatus: 'CLEAR', matchCount: 0 },
        ],
      });
      if (way !== 'GraphQL')
        expect(afterDirectors.directors[0]).toMatchObject({ position: 'Managing Director', amlScreeningId: expect.any(String) });
      const withUbos = await addUbos(way, created.id, UBOS);
      okResult(way, withUbos);
      const verified = await until(created.id, (b) => b.status === 'VERIFIED');
      expect(verified).toMatchObject({
        steps: { registration: 'VERIFIED', directors: 'VERIFIED', ubo: 'VERIFIED', amlScreening: 'CLEAR' },
        reasons: [],
        completedAt: expect.any(String),
        ubos: [
          { fullName: 'Wanjiku Kamau', ownershipPercentage: 60, controlType: way === 'Form B' ? null : 'DIRECT' },
          { fullName: 'Baraka Mwangi', ownershipPercentage: 40 },
        ],
      });
    });

    it('REJECTED: the registry does not know the number (at once); declarations are then refused (409)', async () => {
      const created = await create(way, { registrationNumber: unique('NOTFOUND') });
      const rejected = await until(created.id, (b) => b.status === 'REJECTED');
      expect(rejected).toMatchObject({
        steps: { registration: 'NOT_FOUND', directors: 'PENDING', ubo: 'PENDING', amlScreening: 'PENDING' },
        reasons: ['REGISTRATION_NOT_FOUND'],
        registryData: null,
        completedAt: expect.any(String),
      });
      const late = await addDirectors(way, created.id, DIRECTORS.slice(0, 1));
      if (way === 'GraphQL') expect(late.userErrors).toMatchObject([{ code: 'CONFLICT', field: null }]);
      else expect([late.status, late.body.code]).toEqual([409, 'CONFLICT']);
    });

    it('MANUAL_REVIEW: the registry knows the number under another name; a reviewer settles it (409 otherwise)', async () => {
      const created = await create(way, { registrationNumber: unique('MISMATCH') });
      okResult(way, await addDirectors(way, created.id, DIRECTORS));
      okResult(way, await addUbos(way, created.id, UBOS));
      const flagged = await until(created.id, (b) => b.status === 'MANUAL_REVIEW');
      expect(flagged).toMatchObject({
        steps: { registration: 'NAME_MISMATCH', directors: 'VERIFIED', ubo: 'VERIFIED', amlScreening: 'CLEAR' },
        reasons: ['REGISTRY_NAME_MISMATCH'],
        registryData: { legalName: 'Sandbox Mismatch Holdings Limited' },
        completedAt: null,
      });
      const review = { decision: 'REJECTED', reviewedBy: 'compliance@example.com', reviewNotes: 'Another company holds this number' };
      if (way === 'GraphQL') {
        const decided = await stack.gql(
          `mutation($input: ReviewBusinessVerificationInput!) { reviewBusinessVerification(input: $input) { businessVerification { status reviewedBy reviewNotes reviewedAt completedAt } ${USER_ERRORS} } }`,
          { input: { id: created.id, ...review } },
          t,
        );
        expect(decided.body.data.reviewBusinessVerification).toMatchObject({
          businessVerification: { status: 'REJECTED', reviewedBy: 'compliance@example.com', completedAt: expect.any(String) },
          userErrors: [],
        });
        const again = await stack.gql(
          `mutation($input: ReviewBusinessVerificationInput!) { reviewBusinessVerification(input: $input) { businessVerification { id } ${USER_ERRORS} } }`,
          { input: { id: created.id, ...review } },
          t,
        );
        expect(again.body.data.reviewBusinessVerification.userErrors).toMatchObject([{ code: 'CONFLICT' }]);
      } else {
        const path = `${way === 'Form A' ? '/v1' : ''}/verifications/business/${created.id}/review`;
        const decided = await stack.rest('POST', path, review, t);
        expect(decided.status).toBe(200);
        expect(decided.body).toMatchObject({ status: 'REJECTED', reviewedBy: 'compliance@example.com', reviewNotes: review.reviewNotes });
        const again = await stack.rest('POST', path, { ...review, decision: 'VERIFIED' }, t);
        expect([again.status, again.body.code]).toEqual([409, 'CONFLICT']);
        expect(String(again.body.message)).toMatch(/MANUAL_REVIEW/);
        // a decided business takes no more declarations
        const late = await addDirectors(way, created.id, [{ fullName: 'Late Director', role: 'Director' }]);
        expect([late.status, late.body.code]).toEqual([409, 'CONFLICT']);
      }
    });
  });

  it('a director on a sanctions list → amlScreening FLAGGED → MANUAL_REVIEW, with the screening and its match', async () => {
    const created = await create('Form A', { userId: 'kyb-hit' });
    const res = await addDirectors('Form A', created.id, [{ fullName: 'Bello Ahmed Musa', role: 'Chairman' }, DIRECTORS[1]]);
    expect(res.body).toMatchObject({
      steps: { directors: 'VERIFIED', amlScreening: 'FLAGGED' },
      reasons: ['AML_POTENTIAL_MATCH'],
      directors: [
        { fullName: 'Bello Ahmed Musa', screeningStatus: 'POTENTIAL_MATCH', matchCount: 1, amlScreeningId: expect.any(String) },
        { screeningStatus: 'CLEAR' },
      ],
    });
    // the screening is an AML screening of the user like any other
    const screening = await stack.rest('GET', `/screening/aml/${res.body.directors[0].amlScreeningId}`, undefined, t);
    expect(screening.body).toMatchObject({ userId: 'kyb-hit', fullName: 'Bello Ahmed Musa', status: 'POTENTIAL_MATCH' });
    expect(screening.body.matches[0]).toMatchObject({ primaryName: LISTED, kind: 'SANCTIONS' });
    await addUbos('Form A', created.id, [{ fullName: 'Baraka Mwangi', ownershipPercentage: 100 }]);
    const flagged = await until(created.id, (b) => b.status === 'MANUAL_REVIEW');
    expect(flagged).toMatchObject({ steps: { registration: 'VERIFIED', amlScreening: 'FLAGGED' }, reasons: ['AML_POTENTIAL_MATCH'] });
    // a business the checks verified still takes declarations (Form B sends one per call): a listed one moves it to review
    const clean = await create('Form B', { userId: 'kyb-hit' });
    await addDirectors('Form B', clean.id, DIRECTORS.slice(0, 1));
    await addUbos('Form B', clean.id, [{ fullName: 'Baraka Mwangi', ownershipPercentage: 75 }]);
    const verified = await until(clean.id, (b) => b.status === 'VERIFIED');
    expect(verified.completedAt).toEqual(expect.any(String));
    const second = await addUbos('Form B', clean.id, [{ fullName: 'Otieno Odhiambo', ownershipPercentage: 25 }]);
    expect(second.body).toMatchObject({ status: 'VERIFIED', steps: { amlScreening: 'CLEAR' } });
    const listed = await addDirectors('Form B', clean.id, [{ fullName: LISTED, role: 'Director' }]);
    expect(listed.body).toMatchObject({
      status: 'MANUAL_REVIEW',
      steps: { amlScreening: 'FLAGGED' },
      reasons: ['AML_POTENTIAL_MATCH'],
      completedAt: null,
    });
    // a UBO on the list does the same, in GraphQL, where the match reads through the owner
    const other = await create('GraphQL', { userId: 'kyb-hit' });
    const ubo = await gqlPayload('addBusinessUbos', { id: other.id, ubos: [{ fullName: LISTED, ownershipPercentage: 25 }] });
    expect(ubo.businessVerification).toMatchObject({
      steps: { amlScreening: 'FLAGGED', ubo: 'VERIFIED', directors: 'PENDING' },
      ubos: [{ fullName: LISTED, screeningStatus: 'POTENTIAL_MATCH', amlScreening: { status: 'POTENTIAL_MATCH' } }],
    });
  });

  describe('directors and UBOs are validated', () => {
    let id: string;
    beforeAll(async () => {
      id = (await create('Form A', { userId: 'kyb-validation' })).id;
    });
    const directors = (body: unknown) => stack.rest('POST', `/verifications/business/${id}/directors`, body, t);
    const ubos = (body: unknown) => stack.rest('POST', `/verifications/business/${id}/ubos`, body, t);

    it('400 for a missing required field, named as the form names it', async () => {
      const a = await directors({ directors: [{ fullName: 'No Role' }] });
      expect([a.status, a.body.message]).toEqual([400, ['directors[0].role is required']]);
      const b = await directors({ fullName: 'No Position' });
      expect([b.status, b.body.message]).toEqual([400, ['position is required']]);
      const c = await ubos({ fullName: 'No Share' });
      expect([c.status, c.body.message]).toEqual([400, ['ownershipPercentage is required']]);
      const d = await ubos({ ubos: [{ ownershipPercentage: 10 }] });
      expect([d.status, d.body.message]).toEqual([400, ['ubos[0].fullName is required']]);
      const e = await ubos({ fullName: 'Text Share', ownershipPercentage: 'half' });
      expect(e.status).toBe(400);
      expect(e.body.message.join(' ')).toMatch(/ownershipPercentage must be a number/);
    });

    it('422 for invalid values, naming the field', async () => {
      const cases: Array<[() => Promise<any>, RegExp]> = [
        [
          () => ubos({ ubos: [{ fullName: 'Too Much', ownershipPercentage: 120 }] }),
          /ubos\.0\.ownershipPercentage must be between 0 and 100/,
        ],
        [() => ubos({ fullName: 'Negative', ownershipPercentage: -1 }), /ownershipPercentage must be between 0 and 100/],
        [
          () => ubos({ ubos: [{ fullName: 'Bad Control', ownershipPercentage: 5, controlType: 'SOMETIMES' }] }),
          /controlType must be one of: DIRECT, INDIRECT, BOTH/,
        ],
        [
          () => directors({ directors: [{ fullName: 'Bad Nation', role: 'Director', nationality: 'kenya' }] }),
          /directors\.0\.nationality must be an uppercase ISO 3166-1 alpha-2/,
        ],
        [
          () => directors({ fullName: 'Bad Birth', position: 'Director', dateOfBirth: '1980-02-30' }),
          /directors\.0\.dateOfBirth must be a date/,
        ],
        [() => directors({ directors: [] }), /directors must contain at least one record/],
        [() => directors({ directors: [{ fullName: '   ', role: 'Director' }] }), /directors\.0\.fullName must not be empty/],
      ];
      for (const [call, message] of cases) {
        const res = await call();
        expect([res.status, res.body.code]).toEqual([422, 'VALIDATION_FAILED']);
        expect(res.body.message.join(' ')).toMatch(message);
      }
    });

    it('a total ownership above 100 % is refused (422 naming ownershipPercentage), within one call and across calls', async () => {
      const one = await ubos({
        ubos: [
          { fullName: 'Half Owner', ownershipPercentage: 60 },
          { fullName: 'Other Half', ownershipPercentage: 50 },
        ],
      });
      expect([one.status, one.body.message]).toEqual([
        422,
        ['ubos.ownershipPercentage must not add up to more than 100: the total would be 110'],
      ]);
      expect((await ubos({ fullName: 'First Owner', ownershipPercentage: 70 })).status).toBe(200);
      const over = await ubos({ fullName: 'Second Owner', ownershipPercentage: 30.5 });
      expect([over.status, over.body.message]).toEqual([
        422,
        ['ubos.ownershipPercentage must not add up to more than 100: the total would be 100.5 (70 declared before)'],
      ]);
      expect((await ubos({ fullName: 'Second Owner', ownershipPercentage: 30 })).status).toBe(200);
      // GraphQL names the field in the user error
      const graph = await gqlPayload('addBusinessUbos', { id, ubos: [{ fullName: 'Third Owner', ownershipPercentage: 1 }] });
      expect(graph.userErrors).toEqual([
        {
          field: ['input', 'ubos', 'ownershipPercentage'],
          code: 'VALIDATION_FAILED',
          message: 'ubos.ownershipPercentage must not add up to more than 100: the total would be 101 (100 declared before)',
        },
      ]);
    });

    it('the business itself: 400 missing, 422 invalid country or type, 404 for an unknown id', async () => {
      const missing = await stack.rest('POST', '/verifications/business', { userId: 'v', registrationNumber: 'X1', country: 'KE' }, t);
      expect([missing.status, missing.body.message]).toEqual([400, ['businessName is required']]);
      for (const country of ['ke', 'ZZ', 'KEN']) {
        const res = await stack.rest(
          'POST',
          '/verifications/business',
          { userId: 'v', businessName: 'B', registrationNumber: 'X1', country },
          t,
        );
        expect([res.status, res.body.message]).toEqual([422, ['country must be an uppercase ISO 3166-1 alpha-2 country code']]);
      }
      const type = await stack.rest(
        'POST',
        '/verifications/business',
        { userId: 'v', businessName: 'B', registrationNumber: 'X1', country: 'KE', businessType: 'LTD' },
        t,
      );
      expect([type.status, type.body.message]).toEqual([
        422,
        ['businessType must be one of: SOLE_PROPRIETORSHIP, PARTNERSHIP, LLC, CORPORATION, NGO'],
      ]);
      const blank = await stack.rest(
        'POST',
        '/verifications/business',
        { userId: 'v', businessName: ' ', registrationNumber: 'X1', country: 'KE' },
        t,
      );
      expect([blank.status, blank.body.message]).toEqual([422, ['businessName must not be empty']]);
      expect((await get('00000000-0000-4000-8000-000000000000')).status).toBe(404);
      expect((await get('not-an-id')).status).toBe(404);
      expect((await directors({ fullName: 'Nobody', position: 'Director' })).status).toBe(200);
      const unknown = await stack.rest(
        'POST',
        '/verifications/business/00000000-0000-4000-8000-000000000000/directors',
        { fullName: 'Nobody', position: 'Director' },
        t,
      );
      expect(unknown.status).toBe(404);
    });
  });

  describe('registry unavailable (sandbox)', () => {
    it('says so on the registration step, retries by job, and sends the business to review once every retry failed', async () => {
      const created = await create('Form B', { registrationNumber: unique('DOWN') });
      const first = await settled(created.id);
      expect(first).toMatchObject({
        status: 'PENDING',
        steps: { registration: 'UNAVAILABLE' },
        reasons: [],
        registryLookup: { attempts: 1, nextAttemptAt: expect.any(String), lastError: expect.stringMatching(/unavailable/) },
      });
      await addDirectors('Form B', created.id, DIRECTORS.slice(0, 1));
      await addUbos('Form B', created.id, [{ fullName: 'Baraka Mwangi', ownershipPercentage: 100 }]);
      // BUSINESS_REGISTRY_RETRY_DELAYS=1,1: two retries, then a reviewer decides
      const review = await until(created.id, (b) => b.status === 'MANUAL_REVIEW');
      expect(review).toMatchObject({
        steps: { registration: 'UNAVAILABLE', directors: 'VERIFIED', ubo: 'VERIFIED', amlScreening: 'CLEAR' },
        reasons: ['REGISTRY_UNAVAILABLE'],
        registryLookup: { attempts: 3, nextAttemptAt: null },
      });
    });

    it('a registry back at the retry: UNAVAILABLE, then VERIFIED', async () => {
      const created = await create('Form A', { registrationNumber: unique('FLAKY') });
      await addDirectors('Form A', created.id, DIRECTORS);
      await addUbos('Form A', created.id, UBOS);
      const verified = await until(created.id, (b) => b.status === 'VERIFIED');
      expect(verified).toMatchObject({
        steps: { registration: 'VERIFIED' },
        registryLookup: { attempts: 2, nextAttemptAt: null, lastError: null },
      });
    });
  });

  describe('OpenCorporates (live keys), against a local fake of its company endpoint', () => {
    it('found: registryData from the company record, the token sent, the jurisdiction from the country', async () => {
      fake.answers('C.123456', { company: openCorporatesCompany() });
      const created = await create('Form A', { registrationNumber: 'C.123456', businessName: 'Kilimo Fresh Produce Ltd' }, l);
      expect(created.registryLookup.provider).toBe('opencorporates');
      const looked = await settled(created.id, l);
      expect(looked).toMatchObject({
        steps: { registration: 'VERIFIED' },
        registryData: {
          legalName: 'KILIMO FRESH PRODUCE LIMITED',
          dateIncorporated: '2015-03-12',
          status: 'Registered',
          registeredAddress: 'Kilimo House, Moi Avenue, Nairobi, 00100',
          capital: null,
          registrationNumber: 'C.123456',
          companyType: 'Private Company Limited by Shares',
          // current officers only
          officers: [{ name: 'WANJIKU KAMAU', position: 'director' }],
        },
        registryLookup: { provider: 'opencorporates', attempts: 1, lastError: null },
      });
      expect(fake.requests.find((r) => r.companyNumber === 'C.123456')).toEqual({
        method: 'GET',
        jurisdiction: 'ke',
        companyNumber: 'C.123456',
        apiToken: TOKEN,
      });
      await addDirectors('Form A', created.id, DIRECTORS, l);
      await addUbos('Form A', created.id, UBOS, l);
      expect((await until(created.id, (b) => b.status === 'VERIFIED', l)).reasons).toEqual([]);
    });

    it('404 → not found → REJECTED; a number with a slash travels encoded', async () => {
      const created = await create('Form B', { registrationNumber: 'PVT/2019/404', country: 'NG' }, l);
      const rejected = await until(created.id, (b) => b.status === 'REJECTED', l);
      expect(rejected).toMatchObject({ steps: { registration: 'NOT_FOUND' }, reasons: ['REGISTRATION_NOT_FOUND'] });
      expect(fake.requests.find((r) => r.companyNumber === 'PVT/2019/404')).toMatchObject({ jurisdiction: 'ng', apiToken: TOKEN });
    });

    it('a dissolved company → REJECTED', async () => {
      fake.answers('C.DISSOLVED', {
        company: openCorporatesCompany({ company_number: 'C.DISSOLVED', current_status: 'Dissolved', inactive: true }),
      });
      const created = await create('GraphQL', { registrationNumber: 'C.DISSOLVED' }, l);
      expect(await until(created.id, (b) => b.status === 'REJECTED', l)).toMatchObject({
        steps: { registration: 'INACTIVE' },
        reasons: ['REGISTRY_STATUS_INACTIVE'],
      });
    });

    it.each([
      ['a 5xx', { status: 503, body: { error: { message: 'Service unavailable' } } }, /opencorporates: HTTP 503/],
      ['a refused token (401)', { status: 401, body: { error: { message: 'Invalid Api Token' } } }, /opencorporates: HTTP 401/],
      ['an answer that is not JSON', { malformed: '<html>Bad gateway</html>' }, /not JSON/],
      ['JSON without a company', { malformed: '{"results":{}}' }, /no company record/],
      ['no answer within the timeout', { hang: true as const }, /no answer within 500 ms/],
    ])('%s → registry unavailable (the step says so, never a 500), then found at the retry', async (_what, failure, error) => {
      const number = unique('C');
      fake.answers(number, failure, failure, { company: openCorporatesCompany({ company_number: number }) });
      const created = await create('Form A', { registrationNumber: number }, l);
      const down = await settled(created.id, l);
      expect(down).toMatchObject({
        status: 'PENDING',
        steps: { registration: 'UNAVAILABLE' },
        registryLookup: { attempts: 1, nextAttemptAt: expect.any(String), lastError: expect.stringMatching(error) },
      });
      expect(JSON.stringify(down)).not.toContain(TOKEN);
      // the third attempt (second retry) finds it
      const found = await until(created.id, (b) => b.steps.registration === 'VERIFIED', l);
      expect(found.registryLookup).toMatchObject({ attempts: 3, nextAttemptAt: null, lastError: null });
    });
  });

  it('GraphQL: query by id, the user’s connection, subscriptions to the record and to the user', async () => {
    const userId = unique('kyb-graph');
    const forUser = stack.subscribe(
      `subscription($userId: String!) { businessVerificationUpdatedForUser(userId: $userId) { type occurredAt node { id status steps { registration directors ubo amlScreening } directors { fullName } } } }`,
      { userId },
      t,
    );
    await forUser.ready;
    const created = await create('GraphQL', { userId });
    const one = stack.subscribe(
      `subscription($id: ID!) { businessVerificationUpdated(id: $id) { type node { id status ubos { fullName ownershipPercentage } } } }`,
      { id: created.id },
      t,
    );
    await one.ready;
    await addDirectors('GraphQL', created.id, DIRECTORS);
    await addUbos('GraphQL', created.id, UBOS);
    await eventually(async () => forUser.events.some((e) => e.data?.businessVerificationUpdatedForUser.type === 'BUSINESS_VERIFIED'));
    const types = forUser.events.map((e) => e.data.businessVerificationUpdatedForUser.type);
    expect(types[0]).toBe('BUSINESS_CREATED');
    expect(types).toContain('BUSINESS_UPDATED');
    const last = forUser.events.at(-1).data.businessVerificationUpdatedForUser;
    expect(last).toMatchObject({
      type: 'BUSINESS_VERIFIED',
      node: { id: created.id, status: 'VERIFIED', directors: [{ fullName: 'Wanjiku Kamau' }, { fullName: 'Otieno Odhiambo' }] },
    });
    await eventually(async () => one.events.some((e) => e.data?.businessVerificationUpdated.type === 'BUSINESS_VERIFIED'));
    expect(one.events.at(-1).data.businessVerificationUpdated.node.ubos).toEqual([
      { fullName: 'Wanjiku Kamau', ownershipPercentage: 60 },
      { fullName: 'Baraka Mwangi', ownershipPercentage: 40 },
    ]);
    await forUser.close();
    await one.close();

    const byId = await stack.gql(`query($id: ID!) { businessVerification(id: $id) { ${BUSINESS_FIELDS} } }`, { id: created.id }, t);
    expect(byId.body.data.businessVerification).toMatchObject({
      status: 'VERIFIED',
      user: { id: userId },
      directors: [{ amlScreening: { status: 'CLEAR', matchCount: 0 } }, { amlScreening: { status: 'CLEAR' } }],
    });
    const user = await stack.gql(
      `query($id: ID!) { user(id: $id) { businessVerifications(first: 5) { totalCount nodes { id status } } } }`,
      { id: userId },
      t,
    );
    expect(user.body.data.user.businessVerifications).toEqual({ totalCount: 1, nodes: [{ id: created.id, status: 'VERIFIED' }] });
    const queue = await stack.gql(`{ businessVerifications(filter: { status: VERIFIED }, first: 100) { nodes { id } } }`, {}, t);
    expect(queue.body.data.businessVerifications.nodes.map((n: { id: string }) => n.id)).toContain(created.id);
    expect(
      (await stack.gql(`query($id: ID!) { businessVerification(id: $id) { id } }`, { id: 'nope' }, t)).body.data.businessVerification,
    ).toBeNull();
  });

  it('lists by user (page, limit ≤ 100), per organization and environment', async () => {
    const userId = unique('kyb-list');
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await create('Form B', { userId })).id);
    const page = await stack.rest('GET', `/v1/verifications/business/user/${userId}?page=2&limit=2`, undefined, t);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect(page.body.data.map((b: { id: string }) => b.id)).toEqual([ids[0]]);
    const first = await stack.rest('GET', `/verifications/business/user/${userId}`, undefined, t);
    expect(first.body.data.map((b: { id: string }) => b.id)).toEqual([...ids].reverse());
    const tooMany = await stack.rest('GET', `/verifications/business/user/${userId}?limit=101`, undefined, t);
    expect([tooMany.status, tooMany.body.message]).toEqual([400, ['limit must be at most 100']]);
    // the live environment of the same organization, and another organization, see nothing
    expect((await stack.rest('GET', `/verifications/business/user/${userId}`, undefined, l)).body.total).toBe(0);
    expect((await get(ids[0], l)).status).toBe(404);
    const other = { 'x-api-key': (await stack.createClient({ name: 'other org', environment: 'test' })).apiKey };
    expect((await get(ids[0], other)).status).toBe(404);
    expect(
      (await stack.rest('POST', `/verifications/business/${ids[0]}/directors`, { fullName: 'X Y', position: 'Director' }, other)).status,
    ).toBe(404);
  });

  it('signed webhooks for business.verified, business.rejected and business.manual_review', async () => {
    const receiver = await startReceiver(cert);
    const hook = await stack.rest(
      'POST',
      '/webhooks/configure',
      { clientId: testClientId, callbackUrl: receiver.url, events: ['business.verified', 'business.rejected', 'business.manual_review'] },
      t,
    );
    expect(hook.status).toBe(201);
    const userId = unique('kyb-hooks');
    const verified = await create('Form A', { userId });
    await addDirectors('Form A', verified.id, DIRECTORS);
    await addUbos('Form A', verified.id, UBOS);
    const rejected = await create('Form B', { userId, registrationNumber: unique('NOTFOUND') });
    const review = await create('GraphQL', { userId, registrationNumber: unique('MISMATCH') });
    await addDirectors('GraphQL', review.id, DIRECTORS);
    await addUbos('GraphQL', review.id, UBOS);

    // deliveries may repeat (a slow answer is retried): wait for the three kinds, not for a count
    await eventually(async () => new Set(receiver.received.map((r) => JSON.parse(r.body).event)).size === 3, 20_000);
    const delivered = receiver.received.map((r) => {
      // the spec's signature: lowercase hex HMAC-SHA256 of the raw body with the secret
      const expected = createHmac('sha256', hook.body.secret).update(r.body).digest('hex');
      expect(r.headers['x-webhook-signature']).toBe(expected);
      return verifiedPayload(hook.body.secret, r);
    });
    const byEvent = Object.fromEntries(delivered.map((d) => [d.event, d]));
    expect(Object.keys(byEvent).sort()).toEqual(['business.manual_review', 'business.rejected', 'business.verified']);
    expect(byEvent['business.verified']).toMatchObject({
      timestamp: expect.any(String),
      data: {
        businessVerificationId: verified.id,
        userId,
        status: 'VERIFIED',
        steps: { registration: 'VERIFIED', directors: 'VERIFIED', ubo: 'VERIFIED', amlScreening: 'CLEAR' },
        legalName: 'Kilimo Fresh Produce Limited',
        directors: 2,
        ubos: 2,
        completedAt: expect.any(String),
      },
    });
    expect(byEvent['business.rejected'].data).toMatchObject({
      businessVerificationId: rejected.id,
      status: 'REJECTED',
      reasons: ['REGISTRATION_NOT_FOUND'],
    });
    expect(byEvent['business.manual_review'].data).toMatchObject({
      businessVerificationId: review.id,
      status: 'MANUAL_REVIEW',
      reasons: ['REGISTRY_NAME_MISMATCH'],
      legalName: 'Sandbox Mismatch Holdings Limited',
    });
  });
});
