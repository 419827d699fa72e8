import { selfSignedCertificate, startReceiver, verifiedPayload } from './support/https-receiver.js';
import { eventually, startTestStack, type TestStack } from './support/stack.js';

/**
 * Email verification end to end: REST (Form A with OTP and magic links, Form B) and GraphQL against
 * the whole stack. A live key's email goes out through notify (its sandbox provider here) and is
 * read back from notify's sandbox messages, as the user's mailbox would show it.
 */

const cert = selfSignedCertificate();
let serial = 0;
const newAddress = () => `user${process.pid}x${serial++}@example.com`;
const decode = (html: string) => html.replace(/&#x3D;/g, '=').replace(/&amp;/g, '&');

describe('email verification end to end', () => {
  let stack: TestStack;
  let live: Record<string, string>;
  let liveNotify: Record<string, string>;
  let sandbox: Record<string, string>;
  let clientId: string;

  beforeAll(async () => {
    // a cool-down long enough that a loaded machine still resends within it, short enough to wait out
    stack = await startTestStack({ OTP_PER_ADDRESS_PER_HOUR: '2', OTP_RESEND_COOLDOWN_SECONDS: '3' }, { webhookCa: cert.cert });
    const api = await stack.createClient({ name: 'email live' });
    live = { 'x-api-key': api.apiKey };
    clientId = api.id;
    const notify = await stack.createClient({ name: 'email notify', service: 'notify', organizationId: api.organizationId });
    liveNotify = { authorization: `Bearer ${notify.apiKey}` };
    sandbox = { 'x-api-key': (await stack.createClient({ name: 'email test', environment: 'test' })).apiKey };
  }, 60_000);
  afterAll(() => stack?.stop());

  /** The email the address received (its code and magic link), from notify's sandbox messages. */
  const received = async (to: string, count = 1) =>
    eventually(async () => {
      const res = await stack.rest('GET', `/v1/sandbox/messages?to=${encodeURIComponent(to)}`, undefined, liveNotify);
      const [mail] = (res.body.data ?? []) as Array<{ html: string; subject: string }>;
      if (!mail || res.body.total < count) return null;
      const html = decode(mail.html);
      const link = /href="([^"]*magic-link\?token=[^"]+)"/.exec(html)?.[1] ?? null;
      return { code: /<strong>(\d{6})<\/strong>/.exec(html)![1], link, subject: mail.subject };
    });
  /** A link as the browser opens it: on the REST adapter, no API key, redirects not followed. */
  const open = (link: string) => fetch(stack.urls.rest + new URL(link).pathname + new URL(link).search, { redirect: 'manual' });

  it('Form A OTP: 15 minutes, 3 attempts; a wrong code spends one, the right one verifies; the code is never in an answer', async () => {
    const email = newAddress();
    const created = await stack.rest('POST', '/v1/verifications/email', { email, userId: 'user-a' }, live);
    expect([created.status, created.body.message]).toEqual([201, undefined]);
    expect(created.body).toMatchObject({
      userId: 'user-a',
      email,
      status: 'PENDING',
      method: 'OTP',
      attemptsRemaining: 3,
      disposable: false,
    });
    expect(Date.parse(created.body.expiresAt) - Date.parse(created.body.createdAt)).toBe(900_000);
    const mail = await received(email);
    expect(mail.link).toBeNull();
    expect(JSON.stringify(created.body)).not.toContain(mail.code);
    const wrong = mail.code === '000000' ? '000001' : '000000';
    const miss = await stack.rest('POST', `/v1/verifications/email/${created.body.id}/verify`, { code: wrong }, live);
    expect(miss.body).toMatchObject({ status: 'PENDING', attemptsRemaining: 2 });
    const hit = await stack.rest('POST', `/v1/verifications/email/${created.body.id}/verify`, { code: mail.code }, live);
    expect(hit.body).toMatchObject({ status: 'VERIFIED', verifiedAt: expect.any(String) });
    expect((await stack.rest('GET', `/v1/verifications/email/${created.body.id}`, undefined, live)).body.status).toBe('VERIFIED');
  });

  it('resends a new code after the cool-down (429 with Retry-After before it); the old code stops working', async () => {
    const email = newAddress();
    const created = await stack.rest('POST', '/v1/verifications/email', { email, userId: 'user-r', method: 'MAGIC_LINK' }, live);
    const first = await received(email);
    const early = await stack.rest('POST', `/v1/verifications/email/${created.body.id}/resend`, undefined, live);
    expect(early.status).toBe(429);
    expect(Number(early.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(early.headers.get('retry-after'))).toBeLessThanOrEqual(3);
    const resent = await eventually(
      async () => {
        const res = await stack.rest('POST', `/v1/verifications/email/${created.body.id}/resend`, undefined, live);
        return res.status === 200 ? res : null;
      },
      10_000,
      250,
    );
    expect(resent.body).toMatchObject({ status: 'PENDING', sends: 2, attemptsRemaining: 3 });
    const second = await received(email, 2);
    expect(second.link).not.toBe(first.link);
    // the first link was replaced: it no longer verifies (no redirectUrl: a 409)
    expect((await open(first.link!)).status).toBe(409);
    if (first.code !== second.code) {
      const old = await stack.rest('POST', `/v1/verifications/email/${created.body.id}/verify`, { code: first.code }, live);
      expect(old.body).toMatchObject({ status: 'PENDING', attemptsRemaining: 2 });
    }
    const opened = await open(second.link!);
    expect([opened.status, await opened.text()]).toEqual([200, 'Your email address is verified. You can close this page.']);
    expect((await stack.rest('GET', `/v1/verifications/email/${created.body.id}`, undefined, live)).body.status).toBe('VERIFIED');
  });

  it('Form A magic link: opened without an API key it verifies once and redirects to redirectUrl; a forged link is refused', async () => {
    const email = newAddress();
    const created = await stack.rest(
      'POST',
      '/v1/verifications/email',
      { email, userId: 'user-m', method: 'MAGIC_LINK', redirectUrl: 'https://app.example.com/verified?from=mail' },
      live,
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ method: 'MAGIC_LINK', redirectUrl: 'https://app.example.com/verified?from=mail' });
    const mail = await received(email);
    expect(mail.link).toMatch(/\/v1\/verifications\/email\/magic-link\?token=mlt_/);
    expect(JSON.stringify(created.body)).not.toContain(new URL(mail.link!).searchParams.get('token'));

    const first = await open(mail.link!);
    expect(first.status).toBe(302);
    const to = new URL(first.headers.get('location')!);
    expect([
      to.origin + to.pathname,
      to.searchParams.get('from'),
      to.searchParams.get('status'),
      to.searchParams.get('verificationId'),
    ]).toEqual(['https://app.example.com/verified', 'mail', 'VERIFIED', created.body.id]);
    expect((await stack.rest('GET', `/v1/verifications/email/${created.body.id}`, undefined, live)).body.status).toBe('VERIFIED');
    // used: back to the integrator, told how it stands; nothing changes
    const again = await open(mail.link!);
    expect(again.status).toBe(302);
    expect(new URL(again.headers.get('location')!).searchParams.get('status')).toBe('VERIFIED');

    const forged = mail.link!.replace(/.{4}$/, 'AAAA');
    const refused = await open(forged);
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ statusCode: 404, message: expect.stringMatching(/^token: this link is not valid/) });
    expect((await open(mail.link!.replace(/\?.*$/, ''))).status).toBe(404);
  });

  it('Form B: verify with verificationId (test keys: code 123456); 3 wrong codes fail it and a 4th is refused; webhooks of both', async () => {
    const receiver = await startReceiver(cert);
    const hook = await stack.rest(
      'POST',
      '/webhooks/configure',
      { clientId, callbackUrl: receiver.url, events: ['email.verified', 'email.failed'] },
      live,
    );
    expect(hook.status).toBe(201);
    try {
      const ok = await stack.rest('POST', '/verifications/email', { email: newAddress(), userId: 'user-b' }, live);
      const { code } = await received(ok.body.email);
      const verified = await stack.rest('POST', '/verifications/email/verify', { verificationId: ok.body.id, code }, live);
      expect(verified.body).toEqual({ id: ok.body.id, status: 'VERIFIED', email: ok.body.email, verifiedAt: expect.any(String) });

      const bad = await stack.rest('POST', '/verifications/email', { email: newAddress(), userId: 'user-b' }, live);
      const statuses = [];
      for (let i = 0; i < 3; i++)
        statuses.push(
          (await stack.rest('POST', '/verifications/email/verify', { verificationId: bad.body.id, code: '99999x' }, live)).body.status,
        );
      expect(statuses).toEqual(['PENDING', 'PENDING', 'FAILED']);
      expect((await stack.rest('POST', '/verifications/email/verify', { verificationId: bad.body.id, code: '123456' }, live)).status).toBe(
        409,
      );

      // deliveries may repeat (a slow answer is retried): wait for both kinds, not for a count
      const byEvent = await eventually(async () => {
        const seen = Object.fromEntries(receiver.received.map((r) => verifiedPayload(hook.body.secret, r)).map((p) => [p.event, p.data]));
        return seen['email.verified'] && seen['email.failed'] ? seen : null;
      }, 20_000);
      expect(byEvent['email.verified']).toMatchObject({ verificationId: ok.body.id, userId: 'user-b', status: 'VERIFIED', method: 'OTP' });
      expect(byEvent['email.failed']).toMatchObject({
        verificationId: bad.body.id,
        status: 'FAILED',
        failureReason: 'MAX_ATTEMPTS_EXCEEDED',
      });
      for (const r of receiver.received) expect(r.body).not.toContain(code);

      const test = await stack.rest('POST', '/verifications/email', { email: newAddress(), userId: 'user-t' }, sandbox);
      const sandboxed = await stack.rest('POST', '/verifications/email/verify', { verificationId: test.body.id, code: '123456' }, sandbox);
      expect(sandboxed.body.status).toBe('VERIFIED');
    } finally {
      await receiver.close();
      await stack.rest('DELETE', `/webhooks/${hook.body.id}`, undefined, live);
    }
  });

  it('refuses invalid addresses, methods and redirect URLs naming the field; flags disposable domains; limits sends (429)', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ email: 'not-an-address', userId: 'u' }, /^email must be a valid email address/],
      [{ email: 'a@b', userId: 'u' }, /^email must be a valid email address/],
      [{ email: newAddress(), userId: 'u', method: 'magic_link' }, /^method must be one of: OTP, MAGIC_LINK/],
      [
        { email: newAddress(), userId: 'u', method: 'MAGIC_LINK', redirectUrl: 'javascript:alert(1)' },
        /^redirectUrl must be an absolute http\(s\) URL/,
      ],
      [{ email: newAddress() }, /userId/],
    ];
    for (const [body, message] of cases) {
      const res = await stack.rest('POST', '/v1/verifications/email', body, sandbox);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
      expect([res.body.message].flat().join(' ')).toMatch(message);
    }
    const disposable = await stack.rest('POST', '/v1/verifications/email', { email: 'someone@mailinator.com', userId: 'u' }, sandbox);
    expect(disposable.body).toMatchObject({ status: 'PENDING', disposable: true });

    const email = newAddress();
    for (let i = 0; i < 2; i++)
      expect((await stack.rest('POST', '/v1/verifications/email', { email, userId: 'u' }, sandbox)).status).toBe(201);
    const over = await stack.rest('POST', '/v1/verifications/email', { email, userId: 'u' }, sandbox);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(3000);
  });

  it('GraphQL: start, follow, verify, and list under User.emailVerifications', async () => {
    const userId = `gql-mail-${process.pid}`;
    const created = await stack.gql(
      `mutation($input: StartEmailVerificationInput!) { startEmailVerification(input: $input) { emailVerification { id status email } userErrors { field code message } } }`,
      { input: { userId, email: newAddress() } },
      sandbox,
    );
    const v = created.body.data.startEmailVerification.emailVerification;
    expect(v.status).toBe('PENDING');
    const sub = stack.subscribe(
      `subscription($id: ID!) { emailVerificationUpdated(id: $id) { type node { id status } } }`,
      { id: v.id },
      sandbox,
    );
    await sub.ready;
    try {
      const verified = await stack.gql(
        `mutation($input: VerifyEmailCodeInput!) { verifyEmailCode(input: $input) { emailVerification { status } userErrors { message } } }`,
        { input: { id: v.id, code: '123456' } },
        sandbox,
      );
      expect(verified.body.data.verifyEmailCode).toEqual({ emailVerification: { status: 'VERIFIED' }, userErrors: [] });
      const [event] = await sub.next(1);
      expect(event.data.emailVerificationUpdated).toEqual({ type: 'EMAIL_VERIFIED', node: { id: v.id, status: 'VERIFIED' } });
      const user = await stack.gql(
        `query($id: ID!) { user(id: $id) { emailVerifications { nodes { id status } } } }`,
        { id: userId },
        sandbox,
      );
      expect(user.body.data.user.emailVerifications.nodes).toEqual([{ id: v.id, status: 'VERIFIED' }]);
      const bad = await stack.gql(
        `mutation($input: StartEmailVerificationInput!) { startEmailVerification(input: $input) { emailVerification { id } userErrors { field code message } } }`,
        { input: { userId, email: 'nope' } },
        sandbox,
      );
      expect(bad.body.data.startEmailVerification.userErrors).toEqual([
        { field: ['input', 'email'], code: 'BAD_USER_INPUT', message: 'email must be a valid email address' },
      ]);
    } finally {
      await sub.close();
    }
  });
});

describe('email verification expiry', () => {
  let stack: TestStack;
  afterAll(() => stack?.stop());

  it('expires a pending code by the sweep alone (email.failed, status EXPIRED), then refuses codes', async () => {
    stack = await startTestStack({ EMAIL_OTP_SECONDS: '1', OTP_SWEEP_MS: '100' });
    const headers = { 'x-api-key': (await stack.createClient({ name: 'expiry', environment: 'test' })).apiKey };
    const sub = stack.subscribe(
      `subscription { emailVerificationUpdatedForUser(userId: "user-x") { type node { id status failureReason } } }`,
      {},
      headers,
    );
    await sub.ready;
    try {
      const created = await stack.rest('POST', '/v1/verifications/email', { email: newAddress(), userId: 'user-x' }, headers);
      expect(created.status).toBe(201);
      const [, expired] = await sub.next(2);
      expect(expired.data.emailVerificationUpdatedForUser).toEqual({
        type: 'EMAIL_FAILED',
        node: { id: created.body.id, status: 'EXPIRED', failureReason: 'EXPIRED' },
      });
      expect((await stack.rest('POST', `/v1/verifications/email/${created.body.id}/verify`, { code: '123456' }, headers)).status).toBe(409);
    } finally {
      await sub.close();
    }
  }, 60_000);
});
