import pg from 'pg';
import { eventually, startTestStack, type TestStack } from './support/stack.js';

const NOTIFICATION_FIELDS = `id to recipientId status createdAt template { id name version } batch { id } recipient { id email }
  channels { channel status provider latencyMs openedAt reason attempts sentAt deliveredAt failedAt }`;

const WELCOME = {
  name: 'welcome',
  channels: {
    email: { subject: 'Welcome, {{first_name}}', html: '<html><body><p>Hello {{first_name}}, your code is {{code}}.</p></body></html>' },
    sms: { body: 'Hi {{first_name}}, code {{code}}' },
    push: { title: 'Hi {{first_name}}', body: 'Your code: {{code}}' },
  },
};

describe('notify end to end: templates, recipients, send, status (sandbox)', () => {
  let stack: TestStack;
  let h: Record<string, string>;
  let orgId: string;

  beforeAll(async () => {
    stack = await startTestStack({ NOTIFY_RETRY_DELAYS: '0.2,0.2' });
    const client = await stack.createClient({ name: 'notify test', service: 'notify', environment: 'test' });
    h = { authorization: `Bearer ${client.apiKey}` };
    orgId = client.organizationId;
    expect((await stack.rest('POST', '/v1/templates', WELCOME, h)).status).toBe(201);
  });
  afterAll(() => stack?.stop());

  /** Waits until every channel of the notification is past `queued`. */
  async function settled(id: string) {
    return eventually(async () => {
      const res = await stack.rest('GET', `/v1/notifications/${id}`, undefined, h);
      return Object.values(res.body.channels).every((c: any) => c.status !== 'queued') ? res.body : null;
    });
  }

  describe('templates', () => {
    it('refuses the log helper, and bounds what a render may produce (loops and output)', async () => {
      // an organization of its own: its templates stay out of the other tests' lists
      const h = { authorization: `Bearer ${(await stack.createClient({ name: 'render limits', service: 'notify' })).apiKey}` };
      const logging = await stack.rest('POST', '/v1/templates', { name: 'noisy', channels: { sms: { body: 'Hi {{log first_name}}' } } }, h);
      expect(logging.status).toBe(400);
      expect(logging.body.message).toEqual(['channels.sms.body is not a valid template: the log helper is not available']);

      const nested = { name: 'grid', channels: { sms: { body: '{{#each rows}}{{#each ../cols}}.{{/each}}{{/each}}' } } };
      expect((await stack.rest('POST', '/v1/templates', nested, h)).status).toBe(201);
      const many = Array.from({ length: 1_000 }, (_, i) => i);
      const started = Date.now();
      const send = await stack.rest(
        'POST',
        '/v1/send',
        { to: '+254700000005', template: 'grid', channels: ['sms'], data: { rows: many, cols: many } },
        h,
      );
      expect(send.status).toBe(400);
      expect(send.body.message).toEqual([
        'data does not fit template "grid" version 1 (sms): the template repeats more than 10000 times; send less data or simplify the template',
      ]);
      // refused quickly, not after a million iterations (a generous bound for a shared machine)
      expect(Date.now() - started).toBeLessThan(2_000);
      const fine = await stack.rest(
        'POST',
        '/v1/send',
        { to: '+254700000005', template: 'grid', channels: ['sms'], data: { rows: [1, 2], cols: [1, 2, 3] } },
        h,
      );
      expect(fine.status).toBe(202);
    });

    it('creates immutable versions; sends use the latest unless one is named', async () => {
      const first = await stack.rest('POST', '/v1/templates', { name: 'receipt', channels: { sms: { body: 'Paid {{amount}}' } } }, h);
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({ name: 'receipt', version: 1, channels: ['sms'], placeholders: ['amount'] });
      expect(first.body.template_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(Date.parse(first.body.created_at)).not.toBeNaN();
      const second = await stack.rest(
        'POST',
        '/v1/templates',
        { name: 'receipt', channels: { sms: { body: 'You paid {{amount}} to {{shop}}' } } },
        h,
      );
      expect(second.body).toMatchObject({ version: 2, placeholders: ['amount', 'shop'] });
      expect(second.body.template_id).not.toBe(first.body.template_id);

      const latest = await stack.rest('GET', '/v1/templates/receipt', undefined, h);
      expect(latest.body).toMatchObject({ version: 2, content: { sms: { body: 'You paid {{amount}} to {{shop}}' } } });
      expect((await stack.rest('GET', '/v1/templates/receipt?version=1', undefined, h)).body.content.sms.body).toBe('Paid {{amount}}');
      const versions = await stack.rest('GET', '/v1/templates/receipt/versions', undefined, h);
      expect(versions.body.versions.map((v: any) => v.version)).toEqual([2, 1]);
      const list = await stack.rest('GET', '/v1/templates', undefined, h);
      expect(list.body.data.map((t: any) => [t.name, t.version])).toEqual([
        ['receipt', 2],
        ['welcome', 1],
      ]);

      const v1 = await stack.rest(
        'POST',
        '/v1/send',
        { to: '+254711000111', template: 'receipt', template_version: 1, channels: ['sms'], data: { amount: 'KES 100' } },
        h,
      );
      expect(v1.status).toBe(202);
      expect(v1.body).toMatchObject({ template: 'receipt', template_version: 1 });
      const latestSend = await stack.rest(
        'POST',
        '/v1/send',
        { to: '+254711000111', template: 'receipt', channels: ['sms'], data: { amount: 'KES 5', shop: 'Duka' } },
        h,
      );
      expect(latestSend.body.template_version).toBe(2);
      await settled(latestSend.body.notification_id);
      const sent = await stack.rest('GET', `/v1/sandbox/messages?notification_id=${latestSend.body.notification_id}`, undefined, h);
      expect(sent.body.data).toEqual([expect.objectContaining({ channel: 'sms', to: '+254711000111', body: 'You paid KES 5 to Duka' })]);
    });

    it('400 for invalid templates, naming each problem; 404 for unknown names and versions', async () => {
      const bad = await stack.rest(
        'POST',
        '/v1/templates',
        { name: 'bad name!', channels: { email: { subject: '', html: '<p>{{#if}}</p>' } } },
        h,
      );
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('BAD_USER_INPUT');
      expect(bad.body.message).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^name must be/),
          'channels.email.subject must not be empty',
          expect.stringMatching(/^channels\.email\.html is not a valid template/),
        ]),
      );
      expect((await stack.rest('POST', '/v1/templates', { name: 'x', channels: {} }, h)).body.message).toEqual([
        'channels must contain at least one of email, sms, push',
      ]);
      expect((await stack.rest('POST', '/v1/templates', { name: 'x', channels: { sms: { body: '{{> partial}}' } } }, h)).status).toBe(400);
      const missing = await stack.rest('POST', '/v1/templates', { name: 'x', channels: { email: { subject: 's' } } }, h);
      expect(missing.status).toBe(400);
      expect(missing.body.message).toEqual(['channels.email.html is required']);
      expect((await stack.rest('POST', '/v1/templates', { name: 'x', channels: { fax: { body: 'b' } } }, h)).status).toBe(400);
      expect((await stack.rest('POST', '/v1/templates', { channels: { sms: { body: 'b' } } }, h)).body.message).toEqual([
        'name is required',
      ]);
      expect((await stack.rest('GET', '/v1/templates/nothing', undefined, h)).status).toBe(404);
      expect((await stack.rest('GET', '/v1/templates/welcome?version=9', undefined, h)).status).toBe(404);
    });

    it('escapes placeholders in email HTML, not in the subject, SMS or push', async () => {
      const data = { first_name: '<b>Ama & "Kofi"</b>', code: '42' };
      const res = await stack.rest('POST', '/v1/send', { to: 'ama@example.com', template: 'welcome', channels: ['email'], data }, h);
      await settled(res.body.notification_id);
      const [mail] = (await stack.rest('GET', `/v1/sandbox/messages?notification_id=${res.body.notification_id}`, undefined, h)).body.data;
      expect(mail.subject).toBe('Welcome, <b>Ama & "Kofi"</b>');
      expect(mail.html).toContain('Hello &lt;b&gt;Ama &amp; &quot;Kofi&quot;&lt;/b&gt;, your code is 42.');
      expect(mail.html).toMatch(/<img src="http:\/\/localhost:4003\/track\/open\/[0-9a-f-]{36}\.gif"[^>]*><\/body>/);
    });
  });

  describe('send', () => {
    it('accepts at once (dispatched, channels queued), then delivers every channel through the sandbox', async () => {
      await stack.rest(
        'PUT',
        '/v1/recipients/user-42',
        { email: 'kwame@example.com', phone: '+233241234567', push_tokens: ['device-token-1'], locale: 'en-GH' },
        h,
      );
      const res = await stack.rest(
        'POST',
        '/v1/send',
        { to: 'user-42', template: 'welcome', channels: ['email', 'sms', 'push'], data: { first_name: 'Kwame', code: '123' } },
        h,
      );
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({
        status: 'dispatched',
        to: 'user-42',
        recipient_id: 'user-42',
        template: 'welcome',
        template_version: 1,
      });
      expect(res.body.notification_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(Object.keys(res.body.channels)).toEqual(['email', 'sms', 'push']);
      for (const c of Object.values(res.body.channels) as any[]) expect(c).toMatchObject({ provider: 'sandbox' });
      expect(res.body.channels.email).toHaveProperty('opened_at', null);
      expect(res.body.channels.sms).not.toHaveProperty('opened_at');

      const done = await settled(res.body.notification_id);
      expect(done.status).toBe('delivered');
      for (const c of Object.values(done.channels) as any[]) {
        expect(c).toMatchObject({ status: 'delivered', provider: 'sandbox', attempts: 1, reason: null });
        expect(c.latency_ms).toBeGreaterThanOrEqual(0);
      }
      const sent = (await stack.rest('GET', `/v1/sandbox/messages?notification_id=${res.body.notification_id}`, undefined, h)).body.data;
      const byChannel = Object.fromEntries(sent.map((m: any) => [m.channel, m]));
      expect(byChannel.email).toMatchObject({ to: 'kwame@example.com', subject: 'Welcome, Kwame' });
      expect(byChannel.sms).toMatchObject({ to: '+233241234567', body: 'Hi Kwame, code 123' });
      expect(byChannel.push).toMatchObject({ to: 'device-token-1', title: 'Hi Kwame', body: 'Your code: 123' });

      const gql = await stack.gql(
        `query($id: ID!) { notification(id: $id) { ${NOTIFICATION_FIELDS} } }`,
        { id: res.body.notification_id },
        h,
      );
      expect(gql.body.data.notification).toMatchObject({
        id: res.body.notification_id,
        status: 'DELIVERED',
        recipientId: 'user-42',
        template: { id: res.body.template_id, name: 'welcome', version: 1 },
        batch: null,
        recipient: { id: 'user-42', email: 'kwame@example.com' },
      });
      expect(gql.body.data.notification.channels.map((c: any) => [c.channel, c.status])).toEqual([
        ['EMAIL', 'DELIVERED'],
        ['SMS', 'DELIVERED'],
        ['PUSH', 'DELIVERED'],
      ]);
    });

    it('uses an email address or an E.164 number in `to` directly; other channels are undeliverable with a reason', async () => {
      const res = await stack.rest(
        'POST',
        '/v1/send',
        { to: '+254722000555', template: 'welcome', channels: ['sms', 'email'], data: { first_name: 'A', code: '1' } },
        h,
      );
      expect(res.status).toBe(202);
      expect(res.body.channels.email).toMatchObject({ status: 'undeliverable', reason: 'the recipient has no email address' });
      expect(res.body.channels.sms.status).toBe('queued');
      const done = await settled(res.body.notification_id);
      expect(done.status).toBe('partially_delivered');
      expect(done.channels.sms.status).toBe('delivered');
    });

    it('a missing placeholder field is a 400 naming the field, never a blank', async () => {
      const res = await stack.rest(
        'POST',
        '/v1/send',
        { to: 'a@example.com', template: 'welcome', channels: ['email', 'sms'], data: { first_name: 'Ama' } },
        h,
      );
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('BAD_USER_INPUT');
      expect(res.body.message).toEqual(['data.code is required by template "welcome" version 1 (email.html)']);
      const nulls = await stack.rest(
        'POST',
        '/v1/send',
        { to: 'a@example.com', template: 'welcome', channels: ['sms'], data: { first_name: null, code: '1' } },
        h,
      );
      expect(nulls.body.message).toEqual(['data.first_name is required by template "welcome" version 1 (sms.body)']);
    });

    it('400 for invalid bodies, 404 for unknown templates and recipients', async () => {
      const base = { to: 'a@example.com', template: 'welcome', channels: ['email'], data: { first_name: 'A', code: '1' } };
      const cases: Array<[unknown, number, unknown?]> = [
        [{ ...base, channels: ['fax'] }, 400, ['channels must be among: email, sms, push (unknown: fax)']],
        [{ ...base, channels: [] }, 400, ['channels must contain at least one of email, sms, push']],
        [{ ...base, channels: ['email', 'email'] }, 400, ['channels must not repeat a channel']],
        [{ ...base, to: undefined }, 400, ['to is required']],
        [{ ...base, data: 'nope' }, 400, ['data must be a JSON object']],
        [{ ...base, data: ['a'] }, 400, ['data must be a JSON object']],
        [{ ...base, data: { first_name: 'A', code: '1' }, channels: 'email' }, 202],
        [{ ...base, template: 'nothing' }, 404, 'Template nothing not found'],
        [{ ...base, to: 'nobody-known' }, 404, 'Recipient nobody-known not found'],
      ];
      for (const [body, status, message] of cases) {
        const res = await stack.rest('POST', '/v1/send', body, h);
        expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), status]);
        if (message) expect(res.body.message).toEqual(message);
      }
      const noSms = await stack.rest('POST', '/v1/templates', { name: 'email-only', channels: { email: { subject: 's', html: 'h' } } }, h);
      expect(noSms.status).toBe(201);
      const res = await stack.rest('POST', '/v1/send', { to: 'a@example.com', template: 'email-only', channels: ['sms'] }, h);
      expect(res.status).toBe(400);
      expect(res.body.message).toEqual(['template "email-only" version 1 has no sms content']);
      expect((await stack.rest('GET', '/v1/notifications/00000000-0000-0000-0000-000000000000', undefined, h)).status).toBe(404);
      expect((await stack.rest('GET', '/v1/notifications/not-a-uuid', undefined, h)).status).toBe(404);
    });

    it('Idempotency-Key returns the first result again; a different body with the same key is a 409', async () => {
      const body = { to: 'idem@example.com', template: 'welcome', channels: ['email'], data: { first_name: 'I', code: '7' } };
      const key = { ...h, 'idempotency-key': 'order-1001' };
      const first = await stack.rest('POST', '/v1/send', body, key);
      await settled(first.body.notification_id);
      const again = await stack.rest('POST', '/v1/send', body, key);
      expect(again.status).toBe(202);
      expect(again.body).toEqual(first.body);
      const [a, b] = await Promise.all([
        stack.rest('POST', '/v1/send', body, { ...h, 'idempotency-key': 'order-1002' }),
        stack.rest('POST', '/v1/send', body, { ...h, 'idempotency-key': 'order-1002' }),
      ]);
      expect(a.body.notification_id).toBe(b.body.notification_id);
      const other = await stack.rest('POST', '/v1/send', { ...body, data: { first_name: 'J', code: '7' } }, key);
      expect(other.status).toBe(409);
      expect(other.body.code).toBe('CONFLICT');
      const list = await stack.rest('GET', '/v1/notifications?to=idem@example.com', undefined, h);
      expect(list.body.total).toBe(2);
    });

    it('retries transient provider errors with backoff; permanent ones are not retried (sandbox magic values)', async () => {
      const send = (to: string, channels: string[]) =>
        stack
          .rest('POST', '/v1/send', { to, template: 'welcome', channels, data: { first_name: 'M', code: '9' } }, h)
          .then((r) => r.body.notification_id as string);
      const flaky = await settled(await send('flaky@example.com', ['email']));
      expect(flaky.channels.email).toMatchObject({ status: 'delivered', attempts: 2 });
      const failing = await settled(await send('fail@example.com', ['email']));
      expect(failing.status).toBe('failed');
      expect(failing.channels.email).toMatchObject({ status: 'failed', attempts: 3 });
      expect(failing.channels.email.reason).toMatch(/temporary email provider failure \(after 3 attempts\)/);
      const bounce = await settled(await send('bounce@example.com', ['email']));
      expect(bounce.channels.email).toMatchObject({ status: 'undeliverable', attempts: 1, reason: 'sandbox: mailbox does not exist' });
      const invalidNumber = await settled(await send('+254700000001', ['sms']));
      expect(invalidNumber.channels.sms).toMatchObject({ status: 'undeliverable', attempts: 1, reason: 'sandbox: invalid phone number' });
      const flakySms = await settled(await send('+254700000003', ['sms']));
      expect(flakySms.channels.sms).toMatchObject({ status: 'delivered', attempts: 2 });
      // each retry waited its delay (0.2 s, 0.2 s) before the last attempt failed
      expect(Date.parse(failing.channels.email.failed_at) - Date.parse(failing.created_at)).toBeGreaterThanOrEqual(400);
    });

    it('the deliveries are the dispatch queue: sends and retries create no pg-boss job', async () => {
      const id = (
        await stack.rest(
          'POST',
          '/v1/send',
          { to: 'flaky@example.com', template: 'welcome', channels: ['email'], data: { first_name: 'Q', code: '1' } },
          h,
        )
      ).body.notification_id;
      expect((await settled(id)).channels.email).toMatchObject({ status: 'delivered', attempts: 2 });
      const db = new pg.Pool({ connectionString: stack.databaseUrl, max: 1 });
      try {
        const { rows } = await db.query(`select count(*)::int as jobs from pgboss.job where name = 'notify-dispatch'`);
        expect(rows[0].jobs).toBe(0);
      } finally {
        await db.end();
      }
    });

    it('records an email open from the tracking pixel served by the notify service', async () => {
      const res = await stack.rest(
        'POST',
        '/v1/send',
        { to: 'opener@example.com', template: 'welcome', channels: ['email'], data: { first_name: 'O', code: '0' } },
        h,
      );
      await settled(res.body.notification_id);
      const [mail] = (await stack.rest('GET', `/v1/sandbox/messages?notification_id=${res.body.notification_id}`, undefined, h)).body.data;
      const path = /src="http:\/\/localhost:4003(\/track\/open\/[^"]+)"/.exec(mail.html)![1];
      const notifyOrigin = new URL(stack.urls.notify!).origin;
      const pixel = await fetch(notifyOrigin + path);
      expect(pixel.status).toBe(200);
      expect(pixel.headers.get('content-type')).toBe('image/gif');
      expect((await pixel.arrayBuffer()).byteLength).toBeGreaterThan(30);
      const opened = (await stack.rest('GET', `/v1/notifications/${res.body.notification_id}`, undefined, h)).body;
      expect(opened.channels.email.status).toBe('opened');
      const openedAt = opened.channels.email.opened_at;
      expect(Date.parse(openedAt)).not.toBeNaN();
      await fetch(notifyOrigin + path);
      expect((await stack.rest('GET', `/v1/notifications/${res.body.notification_id}`, undefined, h)).body.channels.email.opened_at).toBe(
        openedAt,
      );
      // unknown tokens still get the image, and change nothing
      expect((await fetch(`${notifyOrigin}/track/open/00000000-0000-0000-0000-000000000000.gif`)).status).toBe(200);
    });
  });

  describe('recipients', () => {
    it('creates and updates profiles through REST and GraphQL, validating each field', async () => {
      const created = await stack.rest('PUT', '/v1/recipients/cust-7', { email: 'c7@example.com', phone: '+2348012345678' }, h);
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({ id: 'cust-7', email: 'c7@example.com', phone: '+2348012345678', push_tokens: [], locale: null });
      const updated = await stack.rest('PUT', '/v1/recipients/cust-7', { phone: null, locale: 'fr-SN' }, h);
      expect(updated.body).toMatchObject({ email: 'c7@example.com', phone: null, locale: 'fr-SN' });
      const gql = await stack.gql(
        `mutation { upsertNotificationRecipient(input: { id: "cust-7", pushTokens: ["t1", "t1", "t2"] }) {
          notificationRecipient { id email pushTokens locale } userErrors { field code message } } }`,
        {},
        h,
      );
      expect(gql.body.data.upsertNotificationRecipient).toEqual({
        notificationRecipient: { id: 'cust-7', email: 'c7@example.com', pushTokens: ['t1', 't2'], locale: 'fr-SN' },
        userErrors: [],
      });
      expect((await stack.rest('GET', '/v1/recipients/cust-7', undefined, h)).body.push_tokens).toEqual(['t1', 't2']);

      const bad = await stack.rest(
        'PUT',
        '/v1/recipients/cust-8',
        {
          email: 'nope',
          phone: '0712345678',
          locale: 'english!',
          web_push_subscriptions: [{ endpoint: 'http://x', keys: { p256dh: 'a', auth: 'b' } }],
        },
        h,
      );
      expect(bad.status).toBe(400);
      expect(bad.body.message).toEqual([
        'email must be a valid email address',
        'phone must be an E.164 number, e.g. +254712345678',
        'webPushSubscriptions[0].endpoint must be an HTTPS URL',
        'webPushSubscriptions[0].keys.p256dh must be a base64url P-256 public key (65 bytes)',
        'webPushSubscriptions[0].keys.auth must be a base64url secret of 16 bytes',
        'locale must be a BCP 47 tag, e.g. en-KE',
      ]);
      expect((await stack.rest('PUT', '/v1/recipients/someone@example.com', { email: 'a@example.com' }, h)).status).toBe(400);
      const racing = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          stack.rest('PUT', '/v1/recipients/racer', { locale: `en-${['KE', 'GH', 'NG', 'ZA', 'RW'][i]}` }, h),
        ),
      );
      expect(racing.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect((await stack.rest('GET', '/v1/recipients/cust-8', undefined, h)).status).toBe(404);
      expect((await stack.rest('DELETE', '/v1/recipients/cust-7', undefined, h)).body).toEqual({ id: 'cust-7', deleted: true });
      expect((await stack.rest('GET', '/v1/recipients/cust-7', undefined, h)).status).toBe(404);
    });
  });

  it('lists recipient profiles newest first, a page at a time (GraphQL notificationRecipients)', async () => {
    const own = { authorization: `Bearer ${(await stack.createClient({ name: 'directory', service: 'notify' })).apiKey}` };
    for (const id of ['r-c', 'r-a', 'r-b']) {
      expect((await stack.rest('PUT', `/v1/recipients/${id}`, { email: `${id}@example.com` }, own)).status).toBe(200);
    }
    const page = (after: string | null) =>
      stack.gql(
        `query($after: String) { notificationRecipients(first: 2, after: $after) { totalCount nodes { id email } pageInfo { hasNextPage endCursor } } }`,
        { after },
        own,
      );
    const first = (await page(null)).body.data.notificationRecipients;
    expect(first).toMatchObject({
      totalCount: 3,
      nodes: [
        { id: 'r-b', email: 'r-b@example.com' },
        { id: 'r-a', email: 'r-a@example.com' },
      ],
      pageInfo: { hasNextPage: true },
    });
    const second = (await page(first.pageInfo.endCursor)).body.data.notificationRecipients;
    expect(second).toMatchObject({ nodes: [{ id: 'r-c', email: 'r-c@example.com' }], pageInfo: { hasNextPage: false } });
  });

  describe('keys, permissions and tenancy', () => {
    it('needs a notify key with the right permission; other tenants and environments see nothing', async () => {
      const res = await stack.rest(
        'POST',
        '/v1/send',
        { to: 'x@example.com', template: 'welcome', channels: ['email'], data: { first_name: 'x', code: '1' } },
        h,
      );
      const id = res.body.notification_id;
      expect((await stack.rest('GET', `/v1/notifications/${id}`)).status).toBe(401);
      const reader = await stack.createClient({
        name: 'reader',
        service: 'notify',
        environment: 'test',
        organizationId: orgId,
        permissions: ['notifications:read'],
      });
      const rh = { authorization: `Bearer ${reader.apiKey}` };
      expect((await stack.rest('GET', `/v1/notifications/${id}`, undefined, rh)).status).toBe(200);
      const denied = await stack.rest('POST', '/v1/send', { to: 'x@example.com', template: 'welcome', channels: ['email'] }, rh);
      expect(denied.status).toBe(403);
      expect(denied.body.message).toBe('Insufficient permissions: requires send');
      expect((await stack.rest('POST', '/v1/templates', WELCOME, rh)).status).toBe(403);
      expect((await stack.rest('GET', '/v1/templates/welcome', undefined, rh)).status).toBe(403);
      const verification = await stack.createClient({ name: 'verif' });
      expect((await stack.rest('GET', `/v1/notifications/${id}`, undefined, { 'x-api-key': verification.apiKey })).status).toBe(403);
      const live = await stack.createClient({ name: 'live', service: 'notify', organizationId: orgId });
      expect((await stack.rest('GET', `/v1/notifications/${id}`, undefined, { authorization: `Bearer ${live.apiKey}` })).status).toBe(404);
      const other = await stack.createClient({ name: 'other org', service: 'notify', environment: 'test' });
      const oh = { authorization: `Bearer ${other.apiKey}` };
      expect((await stack.rest('GET', `/v1/notifications/${id}`, undefined, oh)).status).toBe(404);
      expect((await stack.rest('GET', '/v1/templates/welcome', undefined, oh)).status).toBe(404);
      expect((await stack.rest('GET', '/v1/sandbox/messages', undefined, oh)).body.total).toBe(0);
    });

    it('a live key without configured providers falls back to the sandbox and says so', async () => {
      const live = await stack.createClient({ name: 'live sender', service: 'notify' });
      const lh = { authorization: `Bearer ${live.apiKey}` };
      await stack.rest('POST', '/v1/templates', WELCOME, lh);
      const res = await stack.rest(
        'POST',
        '/v1/send',
        { to: 'live@example.com', template: 'welcome', channels: ['email'], data: { first_name: 'L', code: '2' } },
        lh,
      );
      expect(res.body.channels.email.provider).toBe('sandbox (no live email provider configured)');
      await eventually(
        async () => (await stack.rest('GET', `/v1/notifications/${res.body.notification_id}`, undefined, lh)).body.status === 'delivered',
      );
    });
  });

  describe('GraphQL conventions', () => {
    const USER_ERRORS = 'userErrors { field code message }';
    /** An organization of its own: its lists hold only what the test made. */
    const ownKey = async (name: string) => ({
      authorization: `Bearer ${(await stack.createClient({ name, service: 'notify', environment: 'test' })).apiKey}`,
    });

    it('lookups of what does not exist are null, without an error', async () => {
      const res = await stack.gql(
        `{ notification(id: "00000000-0000-4000-8000-000000000000") { id } other: notification(id: "not-a-uuid") { id }
           notificationBatch(id: "00000000-0000-4000-8000-000000000000") { id }
           notificationTemplate(name: "nothing") { id } version: notificationTemplate(name: "welcome", version: 9) { id }
           notificationRecipient(id: "nobody") { id } notifyStatus { service } }`,
        {},
        h,
      );
      expect(res.body).toEqual({
        data: {
          notification: null,
          other: null,
          notificationBatch: null,
          notificationTemplate: null,
          version: null,
          notificationRecipient: null,
          notifyStatus: { service: 'notify' },
        },
      });
    });

    it('mutations answer mistakes as user errors naming the input field', async () => {
      const send = async (input: Record<string, unknown>, headers = h) =>
        (
          await stack.gql(
            `mutation($input: SendNotificationInput!) { sendNotification(input: $input) { notification { id } ${USER_ERRORS} } }`,
            { input },
            headers,
          )
        ).body;
      // a channel that does not exist is not a NotificationChannel: GraphQL's own type error
      const fax = await send({ to: 'a@example.com', template: 'welcome', channels: ['FAX'], data: { first_name: 'A', code: '1' } });
      expect(fax.errors).toEqual([expect.objectContaining({ message: 'channels[0] must be one of: EMAIL, SMS, PUSH, WHATSAPP, VOICE' })]);
      const invalid = await send({ to: ' ', template: 'welcome', channels: ['EMAIL', 'EMAIL'], data: { first_name: 'A', code: '1' } });
      expect(invalid.errors).toBeUndefined();
      expect(invalid.data.sendNotification).toEqual({
        notification: null,
        userErrors: [
          { field: ['input', 'channels'], code: 'BAD_USER_INPUT', message: 'channels must not repeat a channel' },
          { field: ['input', 'to'], code: 'BAD_USER_INPUT', message: 'to must not be empty' },
        ],
      });
      expect((await send({ to: 'a@example.com', template: 'welcome', channels: ['EMAIL'], data: { first_name: 'A' } })).data).toEqual({
        sendNotification: {
          notification: null,
          userErrors: [
            {
              field: ['input', 'data', 'code'],
              code: 'BAD_USER_INPUT',
              message: 'data.code is required by template "welcome" version 1 (email.html)',
            },
          ],
        },
      });
      expect((await send({ to: 'stranger', template: 'welcome', channels: ['SMS'], data: { first_name: 'A', code: '1' } })).data).toEqual({
        sendNotification: { notification: null, userErrors: [{ field: null, code: 'NOT_FOUND', message: 'Recipient stranger not found' }] },
      });
      const body = { to: 'gq-idem@example.com', template: 'welcome', channels: ['SMS', 'EMAIL'], data: { first_name: 'I', code: '1' } };
      const keyed = { ...h, 'idempotency-key': 'graphql-idem-1' };
      expect((await send(body, keyed)).data.sendNotification.userErrors).toEqual([]);
      expect((await send({ ...body, channels: ['EMAIL'] }, keyed)).data.sendNotification.userErrors).toEqual([
        { field: null, code: 'CONFLICT', message: 'This Idempotency-Key was already used for a different request' },
      ]);

      const template = await stack.gql(
        `mutation($input: CreateNotificationTemplateInput!) { createNotificationTemplate(input: $input) { notificationTemplate { id } ${USER_ERRORS} } }`,
        { input: { name: 'bad name!', channels: { email: { subject: ' ', html: '<p>hi</p>' } } } },
        h,
      );
      expect(template.body.data.createNotificationTemplate).toEqual({
        notificationTemplate: null,
        userErrors: [
          {
            field: ['input', 'name'],
            code: 'BAD_USER_INPUT',
            message: 'name must be 1-100 letters, digits, _ . or -, starting with a letter or digit',
          },
          { field: ['input', 'channels', 'email', 'subject'], code: 'BAD_USER_INPUT', message: 'channels.email.subject must not be empty' },
        ],
      });

      const upsert = (input: Record<string, unknown>) =>
        stack.gql(
          `mutation($input: UpsertNotificationRecipientInput!) { upsertNotificationRecipient(input: $input) {
            notificationRecipient { id email phone } ${USER_ERRORS} } }`,
          { input },
          h,
        );
      expect((await upsert({ id: 'someone@example.com', email: 'nope', phone: '0712' })).body.data.upsertNotificationRecipient).toEqual({
        notificationRecipient: null,
        userErrors: [
          {
            field: ['input', 'id'],
            code: 'BAD_USER_INPUT',
            message: 'id must not be an email address or a phone number (those are sent to directly)',
          },
          { field: ['input', 'email'], code: 'BAD_USER_INPUT', message: 'email must be a valid email address' },
          { field: ['input', 'phone'], code: 'BAD_USER_INPUT', message: 'phone must be an E.164 number, e.g. +254712345678' },
        ],
      });
      expect((await upsert({ id: 'gq-person', phone: '+254711000222' })).body.data.upsertNotificationRecipient).toEqual({
        notificationRecipient: { id: 'gq-person', email: null, phone: '+254711000222' },
        userErrors: [],
      });

      const remove = (id: string) =>
        stack.gql(
          `mutation($id: String!) { deleteNotificationRecipient(input: { id: $id }) { deletedNotificationRecipientId ${USER_ERRORS} } }`,
          { id },
          h,
        );
      expect((await remove('gq-person')).body.data.deleteNotificationRecipient).toEqual({
        deletedNotificationRecipientId: 'gq-person',
        userErrors: [],
      });
      expect((await remove('gq-person')).body.data.deleteNotificationRecipient).toEqual({
        deletedNotificationRecipientId: null,
        userErrors: [{ field: null, code: 'NOT_FOUND', message: 'Recipient gq-person not found' }],
      });
    });

    it('notifications are a connection filtered by address, recipient profile, status and batch, paging without gaps or repeats', async () => {
      const own = await ownKey('connections');
      await stack.rest('POST', '/v1/templates', WELCOME, own);
      await stack.rest('PUT', '/v1/recipients/pager', { phone: '+254711000333' }, own);
      const data = { first_name: 'P', code: '1' };
      const send = async (to: string, channels = ['sms']) =>
        (await stack.rest('POST', '/v1/send', { to, template: 'welcome', channels, data }, own)).body.notification_id as string;
      const toProfile: string[] = [];
      for (let i = 0; i < 5; i++) toProfile.push(await send('pager'));
      const direct = await send('+254711000444');
      // …0001: undeliverable, so FAILED once settled
      const failed = await send('+254700000001');
      const batch = await stack.rest(
        'POST',
        '/v1/send/batch',
        { template: 'welcome', channels: ['sms'], recipients: ['pager', '+254711000555', '+254711000666'].map((to) => ({ to, data })) },
        own,
      );
      const batchId = batch.body.batch_id;

      const list = async (filter: Record<string, unknown>, first: number, after: string | null = null) =>
        (
          await stack.gql(
            `query($filter: NotificationFilter, $first: Int!, $after: String) { notifications(filter: $filter, first: $first, after: $after) {
              totalCount edges { cursor node { id to } } nodes { id to recipientId template { name } batch { id } recipient { id phone } }
              pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`,
            { filter, first, after },
            own,
          )
        ).body.data.notifications;
      const all = async (filter: Record<string, unknown>, first: number) => {
        const seen: any[] = [];
        let after: string | null = null;
        for (;;) {
          const page: any = await list(filter, first, after);
          expect(page.nodes.map((n: any) => n.id)).toEqual(page.edges.map((e: any) => e.node.id));
          expect(page.pageInfo.hasPreviousPage).toBe(after !== null);
          seen.push(...page.nodes);
          if (!page.pageInfo.hasNextPage) return { seen, totalCount: page.totalCount };
          after = page.pageInfo.endCursor;
        }
      };
      const byProfile = await all({ recipientId: 'pager' }, 2);
      expect(byProfile.totalCount).toBe(6);
      // newest first: the batch's notification, then the single sends
      expect(byProfile.seen[0]).toMatchObject({ to: 'pager', recipientId: 'pager', batch: { id: batchId } });
      expect(byProfile.seen.map((n) => n.id).slice(1)).toEqual([...toProfile].reverse());
      expect(byProfile.seen[1]).toMatchObject({
        recipient: { id: 'pager', phone: '+254711000333' },
        template: { name: 'welcome' },
        batch: null,
      });
      expect((await all({ to: 'pager' }, 4)).seen.map((n) => n.id)).toEqual(byProfile.seen.map((n) => n.id));
      const direct1 = await list({ to: '+254711000444' }, 5);
      expect(direct1).toMatchObject({ totalCount: 1, nodes: [{ id: direct, recipientId: null, recipient: null }] });
      // a batch's notifications come in recipient order
      const inBatch = await all({ batchId }, 2);
      expect(inBatch.seen.map((n) => n.to)).toEqual(['pager', '+254711000555', '+254711000666']);

      await eventually(async () => (await list({ status: 'FAILED' }, 5)).totalCount === 1);
      expect((await list({ status: 'FAILED' }, 5)).nodes.map((n: any) => n.id)).toEqual([failed]);
      const everything = await all({}, 3);
      expect(everything.totalCount).toBe(10);
      expect(new Set(everything.seen.map((n) => n.id)).size).toBe(10);

      const bad = await stack.gql(`{ notifications(filter: { batchId: "nope" }) { totalCount } }`, {}, own);
      expect(bad.body.errors?.[0]).toMatchObject({ message: 'batchId must be a batch id', extensions: { code: 'BAD_USER_INPUT' } });
      const foreign = Buffer.from(JSON.stringify({ k: ['2026-01-01T00:00:00.000Z', 'not-a-uuid'] })).toString('base64url');
      const forged = await stack.gql(`query($after: String) { notifications(after: $after) { totalCount } }`, { after: foreign }, own);
      expect(forged.body.errors?.[0]).toMatchObject({
        message: 'after is not a cursor of this list',
        extensions: { code: 'BAD_USER_INPUT' },
      });
    });

    it('templates, their versions and sandbox messages are connections; a sandbox message refers to its notification', async () => {
      const own = await ownKey('template lists');
      for (const name of ['zeta', 'alpha', 'mid']) {
        await stack.rest('POST', '/v1/templates', { name, channels: { sms: { body: `${name} v1 {{x}}` } } }, own);
      }
      for (let v = 2; v <= 3; v++)
        await stack.rest('POST', '/v1/templates', { name: 'mid', channels: { sms: { body: `mid v${v}` } } }, own);
      const templates = await stack.gql(
        `{ notificationTemplates(first: 2) { totalCount nodes { name version channels } pageInfo { hasNextPage endCursor } } }`,
        {},
        own,
      );
      const firstPage = templates.body.data.notificationTemplates;
      expect(firstPage).toMatchObject({
        totalCount: 3,
        nodes: [
          { name: 'alpha', version: 1, channels: ['SMS'] },
          { name: 'mid', version: 3, channels: ['SMS'] },
        ],
        pageInfo: { hasNextPage: true },
      });
      const rest = await stack.gql(
        `query($after: String) { notificationTemplates(first: 2, after: $after) { nodes { name } pageInfo { hasNextPage } } }`,
        { after: firstPage.pageInfo.endCursor },
        own,
      );
      expect(rest.body.data.notificationTemplates).toEqual({ nodes: [{ name: 'zeta' }], pageInfo: { hasNextPage: false } });
      const versions = await stack.gql(
        `{ notificationTemplateVersions(name: "mid", first: 2) { totalCount nodes { version content { sms { body } } } pageInfo { endCursor } } }`,
        {},
        own,
      );
      expect(versions.body.data.notificationTemplateVersions).toMatchObject({
        totalCount: 3,
        nodes: [
          { version: 3, content: { sms: { body: 'mid v3' } } },
          { version: 2, content: { sms: { body: 'mid v2' } } },
        ],
      });
      const older = await stack.gql(
        `query($after: String) { notificationTemplateVersions(name: "mid", after: $after) { nodes { version } } }`,
        { after: versions.body.data.notificationTemplateVersions.pageInfo.endCursor },
        own,
      );
      expect(older.body.data.notificationTemplateVersions.nodes).toEqual([{ version: 1 }]);
      const none = await stack.gql(`{ notificationTemplateVersions(name: "nothing") { totalCount nodes { id } } }`, {}, own);
      expect(none.body.data.notificationTemplateVersions).toEqual({ totalCount: 0, nodes: [] });

      const send = async (to: string) => {
        const res = await stack.rest('POST', '/v1/send', { to, template: 'zeta', channels: ['sms'], data: { x: to.slice(-3) } }, own);
        expect(res.status).toBe(202);
        return res.body.notification_id as string;
      };
      const messages = async (filter: Record<string, unknown>, after: string | null = null) =>
        (
          await stack.gql(
            `query($filter: SandboxMessageFilter, $after: String) { sandboxMessages(filter: $filter, first: 1, after: $after) {
              totalCount nodes { id channel to body notification { id status template { name } } } pageInfo { hasNextPage endCursor } } }`,
            { filter, after },
            own,
          )
        ).body.data.sandboxMessages;
      const first = await send('+254711000777');
      const second = await send('+254711000888');
      // delivery is at least once (a retried dispatch may record a message twice): wait for both, walk every page
      await eventually(async () => (await messages({ notificationId: first })).totalCount >= 1);
      await eventually(async () => (await messages({ notificationId: second })).totalCount >= 1);
      const walked: any[] = [];
      let page = await messages({ channel: 'SMS' });
      for (;;) {
        walked.push(...page.nodes);
        if (!page.pageInfo.hasNextPage) break;
        page = await messages({ channel: 'SMS' }, page.pageInfo.endCursor);
      }
      // one message a page, newest first, each referring to its notification
      const ids = walked.map((m) => Number(m.id));
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
      expect(new Set(walked.map((m) => m.to))).toEqual(new Set(['+254711000777', '+254711000888']));
      for (const m of walked) {
        const sentTo = m.to === '+254711000777' ? { id: first, body: 'zeta v1 777' } : { id: second, body: 'zeta v1 888' };
        expect(m).toMatchObject({ channel: 'SMS', body: sentTo.body, notification: { id: sentTo.id, template: { name: 'zeta' } } });
      }
      expect((await messages({ notificationId: first })).nodes[0]).toEqual({
        id: expect.any(String),
        channel: 'SMS',
        to: '+254711000777',
        body: 'zeta v1 777',
        notification: { id: first, status: 'DELIVERED', template: { name: 'zeta' } },
      });
      expect((await messages({ channel: 'EMAIL' })).totalCount).toBe(0);
      const wrong = await stack.gql(`{ sandboxMessages(filter: { channel: FAX }) { totalCount } }`, {}, own);
      expect(wrong.body.errors?.[0]).toMatchObject({
        message: expect.stringMatching(/Value "FAX" does not exist in "NotificationChannel" enum/),
      });
    });

    it('notificationUpdatedForUser follows the notifications sent to one recipient profile (your user id)', async () => {
      const own = await ownKey('user feed');
      await stack.rest('POST', '/v1/templates', WELCOME, own);
      for (const id of ['fan-1', 'fan-2']) await stack.rest('PUT', `/v1/recipients/${id}`, { email: `${id}@example.com` }, own);
      const sub = stack.subscribe(
        `subscription($u: String!) { notificationUpdatedForUser(userId: $u) { type occurredAt node { id recipientId status channels { channel status } } } }`,
        { u: 'fan-1' },
        own,
      );
      try {
        await sub.ready;
        const send = async (to: string) =>
          (
            await stack.rest(
              'POST',
              '/v1/send',
              { to, template: 'welcome', channels: ['email'], data: { first_name: 'F', code: '1' } },
              own,
            )
          ).body.notification_id as string;
        // sent first: were the filter broken, their events would come before fan-1's
        const others = [await send('fan-2'), await send('fan-1@example.com')];
        const mine = await send('fan-1');
        const events = await eventually(async () =>
          sub.events.some((e) => e.data?.notificationUpdatedForUser.node.status === 'DELIVERED') ? sub.events : null,
        );
        expect(events.map((e) => e.data.notificationUpdatedForUser.type)).toEqual(['NOTIFICATION_DISPATCHED', 'NOTIFICATION_UPDATED']);
        for (const e of events) {
          expect(e.data.notificationUpdatedForUser.node).toMatchObject({ id: mine, recipientId: 'fan-1' });
          expect(Date.parse(e.data.notificationUpdatedForUser.occurredAt)).not.toBeNaN();
        }
        expect(events[0].data.notificationUpdatedForUser.node.channels).toEqual([{ channel: 'EMAIL', status: 'QUEUED' }]);
        expect(JSON.stringify(events)).not.toMatch(new RegExp(others.join('|')));
      } finally {
        await sub.close();
      }
    });
  });

  describe('subscriptions', () => {
    it('notificationUpdated streams channel changes through the gateway', async () => {
      const sent = await stack.rest(
        'POST',
        '/v1/send',
        { to: 'sub@example.com', template: 'welcome', channels: ['email'], data: { first_name: 'S', code: '5' } },
        h,
      );
      const id = sent.body.notification_id;
      await settled(id);
      const sub = stack.subscribe(
        `subscription($id: ID!) { notificationUpdated(id: $id) { type occurredAt node { id status channels { channel status openedAt } } } }`,
        { id },
        h,
      );
      try {
        await sub.ready;
        const [mail] = (await stack.rest('GET', `/v1/sandbox/messages?notification_id=${id}`, undefined, h)).body.data;
        const path = /src="http:\/\/localhost:4003(\/track\/open\/[^"]+)"/.exec(mail.html)![1];
        await fetch(new URL(stack.urls.notify!).origin + path);
        const [event] = await sub.next(1);
        expect(event.data.notificationUpdated).toMatchObject({
          type: 'NOTIFICATION_UPDATED',
          node: { id, status: 'DELIVERED', channels: [{ channel: 'EMAIL', status: 'OPENED' }] },
        });
        expect(Date.parse(event.data.notificationUpdated.occurredAt)).not.toBeNaN();
        expect(Date.parse(event.data.notificationUpdated.node.channels[0].openedAt)).not.toBeNaN();
      } finally {
        await sub.close();
      }
    });
  });
});
