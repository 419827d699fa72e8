import pg from 'pg';
import sharp from 'sharp';
import { AMINA, passportPage } from './support/documents.js';
import { portrait } from './support/faces.js';
import { startTestStack, type TestStack } from './support/stack.js';

/**
 * Hosted verification flows through REST and GraphQL: a key creates one for a user, the page opens
 * its link once and acts with the session it gets (only that user, only the steps' scopes), each
 * step's state is read from the user's checks, and the flow completes when they pass.
 */
describe('hosted verification flows', () => {
  let stack: TestStack;
  let h: Record<string, string>;
  const gateway = () => new URL(stack.urls.gateway!).origin;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  const createFlow = async (body: Record<string, unknown>, headers = h) => stack.rest('POST', '/v1/verifications/flows', body, headers);
  /** The page's first call: the link opened for its session. */
  const open = async (url: string) => {
    const res = await fetch(`${url}/session`, { method: 'POST' });
    return { status: res.status, body: (await res.json()) as any };
  };
  const flowOf = async (id: string, headers: Record<string, string>) =>
    (await stack.gql(`query($id: ID!) { verificationFlow(id: $id) { id userId status steps { step status checkId } } }`, { id }, headers))
      .body;

  beforeAll(async () => {
    stack = await startTestStack();
    // the sandbox: phone and email codes are always 123456
    h = { 'x-api-key': (await stack.createClient({ name: 'onboarding', environment: 'test' })).apiKey };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('creates a flow with a one-use link on the gateway; opening it answers a session of that user with only its steps’ scopes', async () => {
    const created = await createFlow({
      userId: 'amina-flow',
      steps: ['PHONE', 'EMAIL'],
      locale: 'fr',
      redirectUrl: 'https://app.example.com/done',
      branding: { primaryColor: '#0b5fff', accentColor: '#ffaa00' },
    });
    expect(`${created.status} ${JSON.stringify(created.body)}`).toMatch(/^201 /);
    expect(created.body).toMatchObject({
      userId: 'amina-flow',
      status: 'CREATED',
      steps: [
        { step: 'PHONE', status: 'NOT_STARTED', checkId: null },
        { step: 'EMAIL', status: 'NOT_STARTED', checkId: null },
      ],
      locale: 'fr',
      redirectUrl: 'https://app.example.com/done',
      branding: { logoUrl: null, primaryColor: '#0b5fff', accentColor: '#ffaa00' },
      embedOrigins: [],
      openedAt: null,
    });
    expect(Date.parse(created.body.expiresAt) - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(created.body.url).toMatch(new RegExp(`^${gateway()}/flow/[A-Za-z0-9_-]{43}$`));

    // the user's flows, and their changes, as the graph shows every record of a user
    const listed = await stack.gql(`{ user(id: "amina-flow") { verificationFlows { nodes { id status } } } }`, {}, h);
    expect(listed.body.data.user.verificationFlows.nodes).toEqual([{ id: created.body.id, status: 'CREATED' }]);
    const watched = stack.subscribe(
      `subscription { verificationFlowUpdatedForUser(userId: "amina-flow") { type node { id openedAt } } }`,
      {},
      h,
    );
    await watched.ready;

    const opened = await open(created.body.url);
    expect(opened.status).toBe(200);
    const [openedEvent] = await watched.next(1);
    expect(openedEvent.data.verificationFlowUpdatedForUser).toMatchObject({
      type: 'VERIFICATION_FLOW_OPENED',
      node: { id: created.body.id, openedAt: expect.any(String) },
    });
    await watched.close();
    expect(opened.body).toMatchObject({
      sessionToken: expect.stringMatching(/^st_/),
      expiresAt: created.body.expiresAt,
      flow: { id: created.body.id, userId: 'amina-flow', steps: ['PHONE', 'EMAIL'], locale: 'fr', organizationName: expect.any(String) },
    });
    // one use: a forwarded or leaked link is worth nothing once the person started
    const again = await open(created.body.url);
    expect(again.status).toBe(409);
    expect(again.body.errors[0]).toMatchObject({ extensions: { code: 'CONFLICT' }, message: expect.stringMatching(/already opened/) });
    expect((await open(`${gateway()}/flow/${'x'.repeat(43)}`)).status).toBe(404);

    const session = bearer(opened.body.sessionToken);
    const read = await stack.rest('GET', `/v1/verifications/flows/${created.body.id}`, undefined, h);
    expect(read.body).toMatchObject({ status: 'OPENED', openedAt: expect.any(String) });

    // the page's session: the user's phone and email steps, nothing else
    const started = await stack.gql(
      `mutation { startPhoneVerification(input: { userId: "amina-flow", phoneNumber: "+254711000123" }) { phoneVerification { id status } } }`,
      {},
      session,
    );
    const phone = started.body.data.startPhoneVerification.phoneVerification;
    expect(phone.status).toBe('PENDING');
    expect((await flowOf(created.body.id, session)).data.verificationFlow).toMatchObject({
      status: 'OPENED',
      steps: [
        { step: 'PHONE', status: 'IN_PROGRESS', checkId: phone.id },
        { step: 'EMAIL', status: 'NOT_STARTED', checkId: null },
      ],
    });
    // what it submitted it may read and follow
    const followed = stack.subscribe(
      `subscription($id: ID!) { phoneVerificationUpdated(id: $id) { type node { status } } }`,
      { id: phone.id },
      bearer(opened.body.sessionToken),
    );
    await followed.ready;
    await stack.gql(
      `mutation($id: ID!) { verifyPhoneCode(input: { id: $id, code: "123456" }) { phoneVerification { status } } }`,
      { id: phone.id },
      session,
    );
    const [event] = await followed.next(1);
    expect(event.data.phoneVerificationUpdated).toEqual({ type: 'PHONE_VERIFIED', node: { status: 'VERIFIED' } });
    await followed.close();
    const mine = await stack.gql(`query($id: ID!) { phoneVerification(id: $id) { status } }`, { id: phone.id }, session);
    expect(mine.body.data.phoneVerification).toEqual({ status: 'VERIFIED' });

    const refused = [
      // another user
      `mutation { startEmailVerification(input: { userId: "someone-else", email: "x@example.com" }) { emailVerification { id } } }`,
      // a step it was not given
      `mutation { createIdentityVerification(input: { userId: "amina-flow" }) { identityVerification { id } } }`,
      // lists and keys' business
      `{ webhooks { nodes { id } } }`,
    ];
    for (const query of refused) {
      const res = await stack.gql(query, {}, session);
      expect(res.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    }

    const email = await stack.gql(
      `mutation { startEmailVerification(input: { userId: "amina-flow", email: "amina@example.com" }) { emailVerification { id } } }`,
      {},
      session,
    );
    const emailId = email.body.data.startEmailVerification.emailVerification.id;
    await stack.gql(
      `mutation($id: ID!) { verifyEmailCode(input: { id: $id, code: "123456" }) { emailVerification { status } } }`,
      { id: emailId },
      session,
    );
    expect((await flowOf(created.body.id, session)).data.verificationFlow).toMatchObject({
      status: 'COMPLETED',
      steps: [
        { step: 'PHONE', status: 'PASSED' },
        { step: 'EMAIL', status: 'PASSED', checkId: emailId },
      ],
    });
  });

  it('a tier names its steps and starts the identity verification they complete', async () => {
    const created = await createFlow({ userId: 'kofi-flow', tier: 'STANDARD', redirectUrl: 'https://app.example.com/done' });
    expect(`${created.status} ${JSON.stringify(created.body)}`).toMatch(/^201 /);
    expect(created.body).toMatchObject({
      tier: 'STANDARD',
      locale: 'en',
      steps: [
        { step: 'DOCUMENT', status: 'NOT_STARTED' },
        { step: 'LIVENESS', status: 'NOT_STARTED' },
      ],
      identityVerificationId: expect.any(String),
    });
    const identity = await stack.rest('GET', `/v1/verifications/identity/${created.body.identityVerificationId}`, undefined, h);
    expect(identity.body).toMatchObject({ userId: 'kofi-flow', tier: 'STANDARD' });
    const opened = await open(created.body.url);
    const session = bearer(opened.body.sessionToken);
    // the liveness step's scope: start the user's session
    const liveness = await stack.gql(
      `mutation { createLivenessSession(input: { userId: "kofi-flow" }) { livenessSession { id status } } }`,
      {},
      session,
    );
    expect(liveness.body.data.createLivenessSession.livenessSession.status).toBe('IN_PROGRESS');
    // not the steps it was not given
    const phone = await stack.gql(
      `mutation { startPhoneVerification(input: { userId: "kofi-flow", phoneNumber: "+254711000124" }) { phoneVerification { id } } }`,
      {},
      session,
    );
    expect(phone.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('judges a document photo as the check would before it is sent, for the page’s session only', async () => {
    const created = await createFlow({ userId: 'zawadi-flow', steps: ['DOCUMENT'], redirectUrl: 'https://a.example' });
    const session = bearer((await open(created.body.url)).body.sessionToken);
    const assess = async (image: Buffer, type: string, headers: Record<string, string>) => {
      const body = new FormData();
      body.append(
        'operations',
        JSON.stringify({
          query: `mutation($input: AssessDocumentImageInput!) { assessDocumentImage(input: $input) {
            assessment { acceptable problems sharpness glare } } }`,
          variables: { input: { image: null } },
        }),
      );
      body.append('map', JSON.stringify({ 0: ['variables.input.image'] }));
      body.append('0', new Blob([new Uint8Array(image)], { type }), 'frame');
      const res = await fetch(stack.urls.gateway!, { method: 'POST', headers: { ...headers, 'apollo-require-preflight': 'true' }, body });
      return (await res.json()) as any;
    };
    const page = await passportPage(AMINA, await portrait('woman'));
    const sharp_ = await assess(page, 'image/jpeg', session);
    expect(sharp_.data.assessDocumentImage.assessment).toMatchObject({ acceptable: true, problems: [] });
    // a shaken hand
    const blurred = await assess(await sharp(page).blur(6).jpeg().toBuffer(), 'image/jpeg', session);
    expect(blurred.data.assessDocumentImage.assessment).toMatchObject({
      acceptable: false,
      problems: expect.arrayContaining(['TOO_BLURRY']),
    });
    // a lamp's reflection over a third of the page
    const { width, height } = await sharp(page).metadata();
    const glare = await sharp(page)
      .composite([
        { input: { create: { width: Math.round(width! / 2), height: Math.round(height! * 0.6), channels: 3, background: '#ffffff' } } },
      ])
      .jpeg()
      .toBuffer();
    expect((await assess(glare, 'image/jpeg', session)).data.assessDocumentImage.assessment.problems).toContain('GLARE');
    expect((await assess(Buffer.from('%PDF-1.4 not an image'), 'application/pdf', session)).errors[0].extensions.code).toBe(
      'UNSUPPORTED_MEDIA_TYPE',
    );
    // a session for another step may not
    const phoneFlow = await createFlow({ userId: 'zawadi-flow', steps: ['PHONE'], redirectUrl: 'https://a.example' });
    const phoneSession = bearer((await open(phoneFlow.body.url)).body.sessionToken);
    expect((await assess(page, 'image/jpeg', phoneSession)).errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('refuses what a flow cannot be, naming each field, and a key that may not do its steps', async () => {
    const bad = await createFlow({
      userId: ' ',
      steps: ['DOCUMENT'],
      tier: 'BASIC',
      redirectUrl: 'javascript:alert(1)',
      branding: { logoUrl: 'http://cdn.example.com/logo.png', primaryColor: 'blue' },
      embedOrigins: ['https://shop.example.com/checkout', 'http://shop.example.com'],
      expiresInMinutes: 2,
    });
    expect(`${bad.status} ${JSON.stringify(bad.body)}`).toMatch(/^422 /);
    const said = JSON.stringify(bad.body);
    for (const field of [
      'userId',
      'either steps or tier',
      'redirectUrl',
      'branding.primaryColor',
      'branding.logoUrl',
      'embedOrigins',
      'expiresInMinutes',
    ]) {
      expect(said).toContain(field);
    }
    expect((await createFlow({ userId: 'u', steps: ['SELFIE'], redirectUrl: 'https://a.example' })).status).toBe(422);

    const phoneOnly = await stack.createClient({ name: 'phone only', environment: 'test', permissions: ['phone:write', 'flow:write'] });
    const refused = await createFlow(
      { userId: 'u', steps: ['PHONE', 'DOCUMENT'], redirectUrl: 'https://a.example' },
      { 'x-api-key': phoneOnly.apiKey },
    );
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('document:write');
    const allowed = await createFlow(
      { userId: 'u', steps: ['PHONE'], redirectUrl: 'https://a.example' },
      { 'x-api-key': phoneOnly.apiKey },
    );
    expect(allowed.status).toBe(201);
  });

  it('an expired link opens nothing and its flow reads EXPIRED', async () => {
    const created = await createFlow({ userId: 'late', steps: ['PHONE'], redirectUrl: 'https://a.example', expiresInMinutes: 5 });
    const opened = await open(created.body.url);
    expect(opened.status).toBe(200);
    const other = await createFlow({ userId: 'later', steps: ['PHONE'], redirectUrl: 'https://a.example', expiresInMinutes: 5 });
    // five minutes pass
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      await db.query(`update verification.verification_flows set expires_at = now() - interval '1 second' where id = $1`, [other.body.id]);
    } finally {
      await db.end();
    }
    const late = await open(other.body.url);
    expect(late.status).toBe(409);
    expect(late.body.errors[0]).toMatchObject({ extensions: { code: 'CONFLICT' }, message: expect.stringMatching(/expired/) });
    expect((await stack.rest('GET', `/v1/verifications/flows/${other.body.id}`, undefined, h)).body.status).toBe('EXPIRED');
  });
});
