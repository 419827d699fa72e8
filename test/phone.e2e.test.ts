import { selfSignedCertificate, startReceiver, verifiedPayload } from './support/https-receiver.js';
import { eventually, startTestStack, type TestStack } from './support/stack.js';

/**
 * Phone verification end to end: REST (Form A and Form B) and GraphQL against the whole stack. A
 * live key's code goes out through notify (its sandbox provider here) and is read back from
 * notify's sandbox messages, as the user's phone would show it; test keys always use 123456.
 */

const cert = selfSignedCertificate();
let serial = 100;
/** A valid Kenyan mobile number no other test uses (send limits count per number; notify's sandbox fails numbers ending 0001-0003). */
const newNumber = () => `+25472${String(process.pid % 1000).padStart(3, '0')}${String(serial++).padStart(4, '0')}`;
const PHONE_FIELDS = 'id userId phoneNumber channel status attemptsRemaining failureReason verifiedAt expiresAt';

describe('phone verification end to end', () => {
  let stack: TestStack;
  let live: Record<string, string>;
  let liveNotify: Record<string, string>;
  let sandbox: Record<string, string>;
  let clientId: string;

  beforeAll(async () => {
    stack = await startTestStack({ OTP_PER_ADDRESS_PER_HOUR: '3' }, { webhookCa: cert.cert });
    const api = await stack.createClient({ name: 'phone live' });
    live = { 'x-api-key': api.apiKey };
    clientId = api.id;
    const notify = await stack.createClient({ name: 'phone notify', service: 'notify', organizationId: api.organizationId });
    liveNotify = { authorization: `Bearer ${notify.apiKey}` };
    sandbox = { 'x-api-key': (await stack.createClient({ name: 'phone test', environment: 'test' })).apiKey };
  }, 60_000);
  afterAll(() => stack?.stop());

  /** The code the number received, from notify's sandbox messages (never from the verification API). */
  const receivedCode = async (to: string, after = 0) =>
    eventually(async () => {
      const res = await stack.rest('GET', `/v1/sandbox/messages?to=${encodeURIComponent(to)}`, undefined, liveNotify);
      const messages = (res.body.data ?? []) as Array<{ body: string }>;
      return messages.length > after ? /\b(\d{6})\b/.exec(messages[0].body)![1] : null;
    });

  it('Form A: sends a code by SMS (never in the answer), refuses a wrong one, verifies the right one, then refuses codes', async () => {
    const phoneNumber = newNumber();
    const created = await stack.rest(
      'POST',
      '/v1/verifications/phone',
      { phoneNumber, userId: 'user-a', channel: 'SMS', locale: 'en' },
      live,
    );
    expect([created.status, created.body.message]).toEqual([201, undefined]);
    expect(created.body).toMatchObject({ userId: 'user-a', phoneNumber, channel: 'SMS', status: 'PENDING', attemptsRemaining: 3 });
    expect(Date.parse(created.body.expiresAt) - Date.parse(created.body.createdAt)).toBe(600_000);
    const code = await receivedCode(phoneNumber);
    expect(JSON.stringify(created.body)).not.toContain(code);
    const wrong = code === '000000' ? '000001' : '000000';

    const miss = await stack.rest('POST', `/v1/verifications/phone/${created.body.id}/verify`, { code: wrong }, live);
    expect(miss.status).toBe(200);
    expect(miss.body).toMatchObject({ status: 'PENDING', attemptsRemaining: 2 });
    const hit = await stack.rest('POST', `/v1/verifications/phone/${created.body.id}/verify`, { code }, live);
    expect(hit.body).toMatchObject({ status: 'VERIFIED', attemptsRemaining: 2, verifiedAt: expect.any(String) });
    const again = await stack.rest('POST', `/v1/verifications/phone/${created.body.id}/verify`, { code }, live);
    expect(again.status).toBe(409);

    const read = await stack.rest('GET', `/v1/verifications/phone/${created.body.id}`, undefined, live);
    expect(read.body).toMatchObject({ id: created.body.id, status: 'VERIFIED' });
    expect(JSON.stringify(read.body)).not.toContain(code);
    expect((await stack.rest('GET', '/v1/verifications/phone/00000000-0000-4000-8000-000000000000', undefined, live)).status).toBe(404);
  });

  it('Form B: channel sms answered in lower case, verify with verificationId (test keys: code 123456)', async () => {
    const phoneNumber = newNumber();
    const created = await stack.rest('POST', '/verifications/phone', { phoneNumber, userId: 'user-b', channel: 'sms' }, sandbox);
    expect(created.status).toBe(201);
    expect(created.body.channel).toBe('sms');
    const verified = await stack.rest('POST', '/verifications/phone/verify', { verificationId: created.body.id, code: '123456' }, sandbox);
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ id: created.body.id, status: 'VERIFIED', phoneNumber, verifiedAt: expect.any(String) });
    // the other environment does not see it
    expect((await stack.rest('GET', `/verifications/phone/${created.body.id}`, undefined, live)).status).toBe(404);
  });

  it('fails after 3 wrong codes, refuses a 4th, and tells webhooks of verified and failed', async () => {
    const receiver = await startReceiver(cert);
    const hook = await stack.rest(
      'POST',
      '/webhooks/configure',
      { clientId, callbackUrl: receiver.url, events: ['phone.verified', 'phone.failed'] },
      live,
    );
    expect(hook.status).toBe(201);
    try {
      const failing = await stack.rest('POST', '/v1/verifications/phone', { phoneNumber: newNumber(), userId: 'user-f' }, live);
      expect([failing.status, failing.body.message]).toEqual([201, undefined]);
      const code = await receivedCode(failing.body.phoneNumber);
      const wrong = code === '999999' ? '999998' : '999999';
      const answers = [];
      for (let i = 0; i < 3; i++)
        answers.push((await stack.rest('POST', `/v1/verifications/phone/${failing.body.id}/verify`, { code: wrong }, live)).body);
      expect(answers.map((a) => [a.status, a.attemptsRemaining])).toEqual([
        ['PENDING', 2],
        ['PENDING', 1],
        ['FAILED', 0],
      ]);
      expect(answers[2].failureReason).toBe('MAX_ATTEMPTS_EXCEEDED');
      const fourth = await stack.rest('POST', `/v1/verifications/phone/${failing.body.id}/verify`, { code }, live);
      expect(fourth.status).toBe(409);

      const passing = await stack.rest('POST', '/v1/verifications/phone', { phoneNumber: newNumber(), userId: 'user-f' }, live);
      expect([passing.status, passing.body.message]).toEqual([201, undefined]);
      const right = await receivedCode(passing.body.phoneNumber);
      expect(
        (await stack.rest('POST', '/verifications/phone/verify', { verificationId: passing.body.id, code: right }, live)).body.status,
      ).toBe('VERIFIED');

      // deliveries may repeat (a slow answer is retried): wait for both kinds, not for a count
      const byEvent = await eventually(async () => {
        const seen = Object.fromEntries(receiver.received.map((r) => verifiedPayload(hook.body.secret, r)).map((p) => [p.event, p.data]));
        return seen['phone.failed'] && seen['phone.verified'] ? seen : null;
      }, 20_000);
      expect(byEvent['phone.failed']).toMatchObject({
        verificationId: failing.body.id,
        userId: 'user-f',
        status: 'FAILED',
        failureReason: 'MAX_ATTEMPTS_EXCEEDED',
      });
      expect(byEvent['phone.verified']).toMatchObject({
        verificationId: passing.body.id,
        status: 'VERIFIED',
        verifiedAt: expect.any(String),
      });
      for (const r of receiver.received) expect(r.body).not.toMatch(new RegExp(`${code}|${right}`));
    } finally {
      await receiver.close();
      await stack.rest('DELETE', `/webhooks/${hook.body.id}`, undefined, live);
    }
  });

  /** The code of the WhatsApp template message the number received: its body parameter, in notify's sandbox. */
  const whatsAppCode = (to: string) =>
    eventually(async () => {
      const res = await stack.gql(
        `query($to: String) { sandboxMessages(filter: { to: $to, channel: WHATSAPP }) { nodes { whatsapp { template language parameters } } } }`,
        { to },
        liveNotify,
      );
      const [message] = res.body.data.sandboxMessages.nodes;
      if (!message) return null;
      expect(message.whatsapp).toMatchObject({ template: 'verification_code', language: 'en' });
      return message.whatsapp.parameters[0] as string;
    });

  it('Form A VOICE: the code is said in a call (notify voice channel), also to a fixed line; verified with it', async () => {
    const phoneNumber = newNumber();
    const created = await stack.rest('POST', '/v1/verifications/phone', { phoneNumber, userId: 'user-v', channel: 'VOICE' }, live);
    expect([created.status, created.body.channel, created.body.status]).toEqual([201, 'VOICE', 'PENDING']);
    const code = await receivedCode(phoneNumber);
    expect(JSON.stringify(created.body)).not.toContain(code);
    const spoken = (await stack.rest('GET', `/v1/sandbox/messages?to=${encodeURIComponent(phoneNumber)}`, undefined, liveNotify)).body
      .data[0];
    expect(spoken).toMatchObject({ channel: 'voice', body: expect.stringContaining(`Your verification code is ${code}.`) });
    const hit = await stack.rest('POST', `/v1/verifications/phone/${created.body.id}/verify`, { code }, live);
    expect(hit.body).toMatchObject({ status: 'VERIFIED', attemptsRemaining: 3 });
    // a call reaches a fixed line too
    const other = await stack.rest(
      'POST',
      '/v1/verifications/phone',
      { phoneNumber: '+254202123456', userId: 'user-v', channel: 'VOICE' },
      live,
    );
    expect([other.status, other.body.lineType]).toEqual([201, 'FIXED_LINE']);
    expect(await receivedCode('+254202123456')).toMatch(/^\d{6}$/);
  });

  it('Form B whatsapp: the code is the WhatsApp template message parameter; answered in lower case, verified with it', async () => {
    const phoneNumber = newNumber();
    const created = await stack.rest('POST', '/verifications/phone', { phoneNumber, userId: 'user-w', channel: 'whatsapp' }, live);
    expect([created.status, created.body.channel, created.body.status]).toEqual([201, 'whatsapp', 'PENDING']);
    const code = await whatsAppCode(phoneNumber);
    expect(code).toMatch(/^\d{6}$/);
    expect(JSON.stringify(created.body)).not.toContain(code);
    const wrong = code === '000000' ? '000001' : '000000';
    const miss = await stack.rest('POST', '/verifications/phone/verify', { verificationId: created.body.id, code: wrong }, live);
    expect(miss.body.status).toBe('PENDING');
    const hit = await stack.rest('POST', '/verifications/phone/verify', { verificationId: created.body.id, code }, live);
    expect(hit.body).toEqual({ id: created.body.id, status: 'VERIFIED', phoneNumber, verifiedAt: expect.any(String) });
    // a fixed line takes no WhatsApp message
    const fixed = await stack.rest(
      'POST',
      '/verifications/phone',
      { phoneNumber: '+254202123457', userId: 'u', channel: 'whatsapp' },
      live,
    );
    expect(fixed.status).toBe(422);
  });

  it('GraphQL: WHATSAPP and VOICE start codes too (test keys: 123456, through notify sandbox)', async () => {
    for (const channel of ['WHATSAPP', 'VOICE']) {
      const started = await stack.gql(
        `mutation($input: StartPhoneVerificationInput!) { startPhoneVerification(input: $input) { phoneVerification { id channel status } userErrors { message } } }`,
        { input: { userId: 'user-g', phoneNumber: newNumber(), channel } },
        sandbox,
      );
      expect(started.body.data.startPhoneVerification).toMatchObject({ phoneVerification: { channel, status: 'PENDING' }, userErrors: [] });
      const id = started.body.data.startPhoneVerification.phoneVerification.id;
      const verified = await stack.gql(
        `mutation($id: ID!) { verifyPhoneCode(input: { id: $id, code: "123456" }) { phoneVerification { status } } }`,
        { id },
        sandbox,
      );
      expect(verified.body.data.verifyPhoneCode.phoneVerification.status).toBe('VERIFIED');
    }
  });

  it('refuses invalid numbers, channels and locales naming the field', async () => {
    const post = (body: Record<string, unknown>) => stack.rest('POST', '/v1/verifications/phone', body, live);
    const cases: Array<[Record<string, unknown>, number, RegExp]> = [
      [{ phoneNumber: '0712345678', userId: 'u' }, 400, /^phoneNumber must be in E\.164/],
      [{ phoneNumber: '+2541234', userId: 'u' }, 400, /^phoneNumber is not a valid phone number/],
      [{ phoneNumber: newNumber(), userId: 'u', channel: 'EMAIL' }, 400, /^channel must be one of/],
      [{ phoneNumber: newNumber(), userId: 'u', channel: 'Sms' }, 400, /^channel must be one of/],
      [{ phoneNumber: newNumber(), userId: 'u', locale: 'English!' }, 422, /^locale/],
      [{ phoneNumber: newNumber() }, 400, /userId/],
      // the spec's spellings only (SMS, VOICE; sms, whatsapp)
      [{ phoneNumber: newNumber(), userId: 'u', channel: 'voice' }, 400, /^channel must be one of/],
      [{ phoneNumber: newNumber(), userId: 'u', channel: 'WHATSAPP' }, 400, /^channel must be one of/],
      // a fixed line (Nairobi) takes no text messages
      [{ phoneNumber: '+254202123456', userId: 'u' }, 422, /^phoneNumber .* FIXED_LINE line/],
    ];
    for (const [body, status, message] of cases) {
      const res = await post(body);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), status]);
      expect([res.body.message].flat().join(' ')).toMatch(message);
    }
  });

  it('limits codes per number (429 with Retry-After) and resends after the cool-down only', async () => {
    const phoneNumber = newNumber();
    const first = await stack.rest('POST', '/v1/verifications/phone', { phoneNumber, userId: 'user-l' }, sandbox);
    const resend = await stack.rest('POST', `/v1/verifications/phone/${first.body.id}/resend`, undefined, sandbox);
    expect(resend.status).toBe(429);
    expect(Number(resend.headers.get('retry-after'))).toBeGreaterThan(0);
    for (let i = 0; i < 2; i++)
      expect((await stack.rest('POST', '/v1/verifications/phone', { phoneNumber, userId: 'user-l' }, sandbox)).status).toBe(201);
    const over = await stack.rest('POST', '/v1/verifications/phone', { phoneNumber, userId: 'user-l' }, sandbox);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(3000);
  });

  it('GraphQL: start, follow by subscription, verify, and list under User.phoneVerifications', async () => {
    const userId = `gql-${process.pid}`;
    const sub = stack.subscribe(
      `subscription($userId: String!) { phoneVerificationUpdatedForUser(userId: $userId) { type node { id status attemptsRemaining } } }`,
      { userId },
      sandbox,
    );
    await sub.ready;
    try {
      const started = await stack.gql(
        `mutation($input: StartPhoneVerificationInput!) { startPhoneVerification(input: $input) { phoneVerification { ${PHONE_FIELDS} } userErrors { field code message } } }`,
        { input: { userId, phoneNumber: newNumber() } },
        sandbox,
      );
      const { phoneVerification: v, userErrors } = started.body.data.startPhoneVerification;
      expect(userErrors).toEqual([]);
      const bad = await stack.gql(
        `mutation($input: StartPhoneVerificationInput!) { startPhoneVerification(input: $input) { phoneVerification { id } userErrors { field code message } } }`,
        { input: { userId, phoneNumber: '+1' } },
        sandbox,
      );
      expect(bad.body.data.startPhoneVerification.userErrors).toEqual([
        { field: ['input', 'phoneNumber'], code: 'BAD_USER_INPUT', message: expect.stringMatching(/^phoneNumber must be in E\.164/) },
      ]);
      const verified = await stack.gql(
        `mutation($input: VerifyPhoneCodeInput!) { verifyPhoneCode(input: $input) { phoneVerification { status } userErrors { message } } }`,
        { input: { id: v.id, code: '123456' } },
        sandbox,
      );
      expect(verified.body.data.verifyPhoneCode).toEqual({ phoneVerification: { status: 'VERIFIED' }, userErrors: [] });
      const events = await sub.next(2);
      expect(events.map((e) => e.data.phoneVerificationUpdatedForUser.type)).toEqual(['PHONE_CREATED', 'PHONE_VERIFIED']);
      const user = await stack.gql(
        `query($id: ID!) { user(id: $id) { phoneVerifications { nodes { id status } totalCount } } }`,
        { id: userId },
        sandbox,
      );
      expect(user.body.data.user.phoneVerifications).toEqual({ nodes: [{ id: v.id, status: 'VERIFIED' }], totalCount: 1 });
      const one = await stack.gql(`query($id: ID!) { phoneVerification(id: $id) { id status } }`, { id: v.id }, sandbox);
      expect(one.body.data.phoneVerification).toEqual({ id: v.id, status: 'VERIFIED' });
    } finally {
      await sub.close();
    }
  });
});

describe('phone verification expiry', () => {
  let stack: TestStack;
  afterAll(() => stack?.stop());

  it('expires a pending code when its time is over, by the sweep alone (phone.failed, status EXPIRED)', async () => {
    stack = await startTestStack({ PHONE_OTP_SECONDS: '1', OTP_SWEEP_MS: '100' });
    const headers = { 'x-api-key': (await stack.createClient({ name: 'expiry', environment: 'test' })).apiKey };
    // followed before it starts: the code lives one second
    const sub = stack.subscribe(
      `subscription { phoneVerificationUpdatedForUser(userId: "user-x") { type node { id status failureReason } } }`,
      {},
      headers,
    );
    await sub.ready;
    try {
      const created = await stack.rest('POST', '/v1/verifications/phone', { phoneNumber: newNumber(), userId: 'user-x' }, headers);
      expect(created.status).toBe(201);
      const [, expired] = await sub.next(2);
      expect(expired.data.phoneVerificationUpdatedForUser).toEqual({
        type: 'PHONE_FAILED',
        node: { id: created.body.id, status: 'EXPIRED', failureReason: 'EXPIRED' },
      });
      expect((await stack.rest('POST', `/v1/verifications/phone/${created.body.id}/verify`, { code: '123456' }, headers)).status).toBe(409);
    } finally {
      await sub.close();
    }
  }, 60_000);
});
