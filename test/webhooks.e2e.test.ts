import { createHmac } from 'node:crypto';
import { eventually, startTestStack, type TestStack } from './support/stack.js';
import { selfSignedCertificate, startReceiver, verifiedPayload, type Responder } from './support/https-receiver.js';

const cert = selfSignedCertificate();

describe('webhooks end to end', () => {
  let stack: TestStack;
  let client: { apiKey: string; id: string; organizationId: string };
  let h: Record<string, string>;

  beforeAll(async () => {
    stack = await startTestStack({ WEBHOOK_RETRY_DELAYS: '1,1,1', WEBHOOK_TIMEOUT_MS: '2000' }, { webhookCa: cert.cert });
    client = await stack.createClient({ name: 'hooks' });
    h = { 'x-api-key': client.apiKey };
  });
  afterAll(() => stack?.stop());

  async function withReceiver(respond: Responder, events = ['identity.verified', 'identity.rejected']) {
    const receiver = await startReceiver(cert, respond);
    const configured = await stack.rest('POST', '/webhooks/configure', { clientId: client.id, callbackUrl: receiver.url, events }, h);
    expect(configured.status).toBe(201);
    return { receiver, webhook: configured.body };
  }

  async function verifiedIdentity(userId: string) {
    const created = (await stack.rest('POST', '/verifications/identity', { userId, tier: 'STANDARD' }, h)).body;
    await stack.rest(
      'POST',
      `/verifications/identity/${created.id}/review`,
      { decision: 'VERIFIED', reviewedBy: 'o', reviewNotes: 'n' },
      h,
    );
    return created;
  }

  it('configures (secret once), lists without the secret, and deactivates', async () => {
    const { receiver, webhook } = await withReceiver(() => 200);
    expect(webhook.secret).toMatch(/^whsec_/);
    expect(webhook.message).toMatch(/not be shown again/);
    expect(webhook).toMatchObject({ callbackUrl: receiver.url, events: ['identity.verified', 'identity.rejected'], active: true });
    const list = await stack.rest('GET', `/webhooks/client/${client.id}`, undefined, h);
    expect(list.status).toBe(200);
    const listed = list.body.find((w: { id: string }) => w.id === webhook.id);
    expect(listed).toMatchObject({ id: webhook.id, active: true });
    expect(listed.secret).toBeUndefined();
    const deleted = await stack.rest('DELETE', `/webhooks/${webhook.id}`, undefined, h);
    expect(deleted.status).toBe(200);
    expect(deleted.body.message).toMatch(/deactivated/);
    expect(
      (await stack.rest('GET', `/webhooks/client/${client.id}`, undefined, h)).body.find((w: { id: string }) => w.id === webhook.id).active,
    ).toBe(false);
    expect((await stack.rest('DELETE', `/webhooks/00000000-0000-0000-0000-000000000000`, undefined, h)).status).toBe(404);
    await receiver.close();
  });

  it('validates clientId, HTTPS callbackUrl and events', async () => {
    const base = { clientId: client.id, callbackUrl: 'https://127.0.0.1:9/x', events: ['identity.verified'] };
    const http = await stack.rest('POST', '/webhooks/configure', { ...base, callbackUrl: 'http://example.com/x' }, h);
    expect(http.status).toBe(422);
    expect(http.body.message).toContain('callbackUrl must be an HTTPS URL');
    expect((await stack.rest('POST', '/webhooks/configure', { ...base, callbackUrl: 'not a url' }, h)).status).toBe(422);
    expect((await stack.rest('POST', '/webhooks/configure', { ...base, events: [] }, h)).status).toBe(422);
    expect((await stack.rest('POST', '/webhooks/configure', { ...base, events: ['identity.exploded'] }, h)).status).toBe(422);
    expect((await stack.rest('POST', '/webhooks/configure', { ...base, clientId: 'someone-else' }, h)).status).toBe(422);
    const missing = await stack.rest('POST', '/webhooks/configure', { clientId: client.id }, h);
    expect(missing.status).toBe(400);
    expect(missing.body.message).toEqual(expect.arrayContaining(['callbackUrl is required', 'events is required']));
  });

  it('delivers a signed identity.verified event that the receiver can verify', async () => {
    const { receiver, webhook } = await withReceiver(() => 200);
    const identity = await verifiedIdentity('wendy');
    await eventually(async () => receiver.received.length >= 1);
    const [req] = receiver.received;
    const expected = createHmac('sha256', webhook.secret).update(req.body).digest('hex');
    expect(req.headers['x-webhook-signature']).toBe(expected);
    expect(verifiedPayload(webhook.secret, req)).toEqual(JSON.parse(req.body));
    expect(() => verifiedPayload(webhook.secret, { ...req, body: req.body.replace('wendy', 'wendz') })).toThrow();
    expect(Math.abs(Number(req.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    const payload = JSON.parse(req.body);
    expect(payload).toMatchObject({
      event: 'identity.verified',
      data: { identityVerificationId: identity.id, userId: 'wendy', status: 'VERIFIED', tier: 'STANDARD' },
    });
    expect(new Date(payload.timestamp).toISOString()).toBe(payload.timestamp);
    expect(new Date(payload.data.verifiedAt).toISOString()).toBe(payload.data.verifiedAt);
    await stack.rest('DELETE', `/webhooks/${webhook.id}`, undefined, h);
    await receiver.close();
  });

  it('delivers a signed identity.rejected event', async () => {
    const { receiver, webhook } = await withReceiver(() => 200, ['identity.rejected']);
    try {
      const created = (await stack.rest('POST', '/verifications/identity', { userId: 'yusuf', tier: 'STANDARD' }, h)).body;
      const review = { decision: 'REJECTED', reviewedBy: 'o', reviewNotes: 'document mismatch' };
      expect((await stack.rest('POST', `/verifications/identity/${created.id}/review`, review, h)).status).toBe(200);
      await receiver.requests(1);
      expect(verifiedPayload(webhook.secret, receiver.received[0])).toMatchObject({
        event: 'identity.rejected',
        data: { identityVerificationId: created.id, userId: 'yusuf', status: 'REJECTED' },
      });
    } finally {
      await stack.rest('DELETE', `/webhooks/${webhook.id}`, undefined, h);
      await receiver.close();
    }
  });

  it('retries after a 500 with backoff, records every attempt, and redelivers on demand', async () => {
    const { receiver, webhook } = await withReceiver((n) => (n === 0 ? 500 : 200));
    await verifiedIdentity('xavier');
    await eventually(async () => receiver.received.length >= 2, 15_000);
    expect(receiver.received[1].at - receiver.received[0].at).toBeGreaterThanOrEqual(900);
    expect(receiver.received[1].body).toBe(receiver.received[0].body);
    expect(receiver.received[1].headers['webhook-id']).toBe(receiver.received[0].headers['webhook-id']);
    const query = `query($id: ID!) {
      webhookDeliveries(filter: { webhookId: $id }) { totalCount nodes { id event status attemptCount attempts { number statusCode durationMs } } }
    }`;
    const deliveries = await eventually(async () => {
      const res = await stack.gql(query, { id: webhook.id }, h);
      const d = res.body.data.webhookDeliveries.nodes[0];
      return d?.status === 'DELIVERED' ? d : null;
    });
    expect(deliveries).toMatchObject({ event: 'IDENTITY_VERIFIED', attemptCount: 2 });
    expect(deliveries.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 200]);

    const redelivered = await stack.gql(
      `mutation($id: ID!) { redeliverWebhook(input: { deliveryId: $id }) { webhookDelivery { id status } userErrors { message } } }`,
      { id: deliveries.id },
      h,
    );
    expect(redelivered.body.errors).toBeUndefined();
    expect(redelivered.body.data.redeliverWebhook).toEqual({ webhookDelivery: { id: deliveries.id, status: 'PENDING' }, userErrors: [] });
    await eventually(async () => receiver.received.length >= 3);
    await stack.rest('DELETE', `/webhooks/${webhook.id}`, undefined, h);
    await receiver.close();
  });

  it('gives up after 3 retries', async () => {
    const { receiver, webhook } = await withReceiver(() => 503);
    await verifiedIdentity('yolanda');
    const query = `query($id: ID!) { webhookDeliveries(filter: { webhookId: $id }) { nodes { status attemptCount } } }`;
    const failed = await eventually(async () => {
      const d = (await stack.gql(query, { id: webhook.id }, h)).body.data.webhookDeliveries.nodes[0];
      return d?.status === 'FAILED' ? d : null;
    }, 20_000);
    expect(failed.attemptCount).toBe(4);
    expect(receiver.received).toHaveLength(4);
    await stack.rest('DELETE', `/webhooks/${webhook.id}`, undefined, h);
    await receiver.close();
  });

  it('refuses private targets unless allowed', async () => {
    const strict = await startTestStack({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' }, { services: ['verification', 'gateway', 'rest'] });
    try {
      const c = await strict.createClient({ name: 'strict' });
      const res = await strict.rest(
        'POST',
        '/webhooks/configure',
        { clientId: c.id, callbackUrl: 'https://127.0.0.1:8443/x', events: ['identity.verified'] },
        { 'x-api-key': c.apiKey },
      );
      expect(res.status).toBe(422);
      expect(res.body.message.join(' ')).toMatch(/private or loopback/);
    } finally {
      await strict.stop();
    }
  });

  describe('in GraphQL', () => {
    const CONFIGURE = `mutation($input: ConfigureWebhookInput!) {
      configureWebhook(input: $input) { webhook { id callbackUrl events active client { id } } secret userErrors { field code message } }
    }`;

    it('configures with the secret as a payload field and answers mistakes as user errors naming the field', async () => {
      const receiver = await startReceiver(cert, () => 200);
      const input = { clientId: client.id, callbackUrl: receiver.url, events: ['IDENTITY_VERIFIED', 'AML_BATCH_COMPLETE'] };
      const made = (await stack.gql(CONFIGURE, { input }, h)).body.data.configureWebhook;
      expect(made).toEqual({
        webhook: { id: expect.any(String), callbackUrl: receiver.url, events: input.events, active: true, client: { id: client.id } },
        secret: expect.stringMatching(/^whsec_/),
        userErrors: [],
      });
      const read = await stack.gql(`query($id: ID!) { webhook(id: $id) { id events deactivatedAt } }`, { id: made.webhook.id }, h);
      expect(read.body.data.webhook).toEqual({ id: made.webhook.id, events: input.events, deactivatedAt: null });

      const mistakes = async (change: Record<string, unknown>) =>
        (await stack.gql(CONFIGURE, { input: { ...input, ...change } }, h)).body.data.configureWebhook;
      expect(await mistakes({ callbackUrl: 'http://example.com/x', clientId: 'someone-else' })).toEqual({
        webhook: null,
        secret: null,
        userErrors: [
          { field: ['input', 'callbackUrl'], code: 'VALIDATION_FAILED', message: 'callbackUrl must be an HTTPS URL' },
          {
            field: ['input', 'clientId'],
            code: 'VALIDATION_FAILED',
            message: 'clientId must be the id of an API client of your organization',
          },
        ],
      });
      expect((await mistakes({ events: [] })).userErrors).toEqual([
        { field: ['input', 'events'], code: 'VALIDATION_FAILED', message: 'events must contain at least one event' },
      ]);
      const stranger = '00000000-0000-4000-8000-000000000000';
      expect((await mistakes({ clientId: stranger })).userErrors).toEqual([
        { field: null, code: 'NOT_FOUND', message: `API client ${stranger} not found` },
      ]);
      // an event name the graph does not know is GraphQL's own type error
      const unknown = await stack.gql(CONFIGURE, { input: { ...input, events: ['identity.verified'] } }, h);
      expect(unknown.body.errors![0].extensions.code).toBe('VALIDATION_FAILED');

      const deactivate = `mutation($id: ID!) { deactivateWebhook(input: { id: $id }) { webhook { id active deactivatedAt } userErrors { field code message } } }`;
      const gone = (await stack.gql(deactivate, { id: made.webhook.id }, h)).body.data.deactivateWebhook;
      expect(gone).toEqual({ webhook: { id: made.webhook.id, active: false, deactivatedAt: expect.any(String) }, userErrors: [] });
      expect((await stack.gql(deactivate, { id: stranger }, h)).body.data.deactivateWebhook).toEqual({
        webhook: null,
        userErrors: [{ field: null, code: 'NOT_FOUND', message: `Webhook ${stranger} not found` }],
      });
      // another organization sees none of it
      const other = { 'x-api-key': (await stack.createClient({ name: 'stranger' })).apiKey };
      expect((await stack.gql(`query($id: ID!) { webhook(id: $id) { id } }`, { id: made.webhook.id }, other)).body.data.webhook).toBeNull();
      await receiver.close();
    });

    it('lists webhooks and deliveries as connections, filtered, newest first', async () => {
      const receiver = await startReceiver(cert, () => 200);
      const made: string[] = [];
      for (let i = 0; i < 3; i++) {
        const input = { clientId: client.id, callbackUrl: `${receiver.url}?n=${i}`, events: ['IDENTITY_VERIFIED'] };
        made.push((await stack.gql(CONFIGURE, { input }, h)).body.data.configureWebhook.webhook.id);
      }
      const page = `query($after: String) {
        webhooks(filter: { clientId: "${client.id}" }, first: 2, after: $after) { totalCount nodes { id } pageInfo { hasNextPage endCursor } }
      }`;
      const first = (await stack.gql(page, {}, h)).body.data.webhooks;
      expect(first.nodes.map((w: { id: string }) => w.id)).toEqual([made[2], made[1]]);
      expect(first.pageInfo.hasNextPage).toBe(true);
      const second = (await stack.gql(page, { after: first.pageInfo.endCursor }, h)).body.data.webhooks;
      expect(second.nodes[0].id).toBe(made[0]);
      expect(second.totalCount).toBe(first.totalCount);
      // the REST list is the same webhooks in the same order, a page at a time, the total in a header
      const listed = await stack.rest('GET', `/webhooks/client/${client.id}?limit=2`, undefined, h);
      expect(listed.body.map((w: { id: string }) => w.id)).toEqual([made[2], made[1]]);
      expect(Number(listed.headers.get('x-total-count'))).toBe(first.totalCount);

      await verifiedIdentity('connections');
      const deliveries = `query($filter: WebhookDeliveryFilter) {
        webhookDeliveries(filter: $filter, first: 100) { totalCount nodes { id status event webhook { id } } }
      }`;
      const delivered = await eventually(async () => {
        const res = await stack.gql(deliveries, { filter: { webhookId: made[1], status: 'DELIVERED' } }, h);
        return res.body.data.webhookDeliveries.totalCount === 1 ? res.body.data.webhookDeliveries.nodes[0] : null;
      });
      expect(delivered).toMatchObject({ status: 'DELIVERED', event: 'IDENTITY_VERIFIED', webhook: { id: made[1] } });
      const all = (await stack.gql(deliveries, { filter: { status: 'DELIVERED' } }, h)).body.data.webhookDeliveries;
      expect(all.nodes.map((d: { id: string }) => d.id)).toContain(delivered.id);
      expect((await stack.gql(deliveries, { filter: { webhookId: 'not-an-id' } }, h)).body.data.webhookDeliveries.totalCount).toBe(0);
      const one = await stack.gql(
        `query($id: ID!) { webhookDelivery(id: $id) { id webhook { id } attempts { number statusCode } } }`,
        { id: delivered.id },
        h,
      );
      expect(one.body.data.webhookDelivery).toEqual({
        id: delivered.id,
        webhook: { id: made[1] },
        attempts: [{ number: 1, statusCode: 200 }],
      });

      // a delivery of a deactivated webhook cannot be redelivered: a CONFLICT user error
      await stack.rest('DELETE', `/webhooks/${made[1]}`, undefined, h);
      const redeliver = await stack.gql(
        `mutation($id: ID!) { redeliverWebhook(input: { deliveryId: $id }) { webhookDelivery { id } userErrors { field code message } } }`,
        { id: delivered.id },
        h,
      );
      expect(redeliver.body.data.redeliverWebhook).toEqual({
        webhookDelivery: null,
        userErrors: [{ field: null, code: 'CONFLICT', message: expect.stringMatching(/deactivated/) }],
      });
      for (const id of made) await stack.rest('DELETE', `/webhooks/${id}`, undefined, h);
      await receiver.close();
    });

    it('follows the deliveries of one webhook, and one delivery, as event envelopes: created, delivered, redelivered', async () => {
      const receiver = await startReceiver(cert, () => 200);
      const hooks: string[] = [];
      for (let i = 0; i < 2; i++) {
        const input = { clientId: client.id, callbackUrl: `${receiver.url}?s=${i}`, events: ['IDENTITY_VERIFIED'] };
        hooks.push((await stack.gql(CONFIGURE, { input }, h)).body.data.configureWebhook.webhook.id);
      }
      const selection = '{ type occurredAt node { id status event attemptCount webhook { id } } }';
      const forWebhook = (id: string, headers = h) =>
        stack.subscribe(`subscription($id: ID!) { webhookDeliveryUpdatedForWebhook(webhookId: $id) ${selection} }`, { id }, headers);
      const other = { 'x-api-key': (await stack.createClient({ name: 'eavesdropper' })).apiKey };
      const byHook = forWebhook(hooks[0]);
      const otherHook = forWebhook(hooks[1]);
      const eavesdropper = forWebhook(hooks[0], other);
      const subs = [byHook, otherHook, eavesdropper];
      try {
        await Promise.all(subs.map((sub) => sub.ready));
        await verifiedIdentity('subscriber');
        const [created, delivered] = (await byHook.next(2)).map((e) => e.data.webhookDeliveryUpdatedForWebhook);
        expect(created).toMatchObject({
          type: 'WEBHOOK_DELIVERY_CREATED',
          node: { status: 'PENDING', event: 'IDENTITY_VERIFIED', attemptCount: 0, webhook: { id: hooks[0] } },
        });
        expect(delivered).toMatchObject({
          type: 'WEBHOOK_DELIVERY_DELIVERED',
          node: { id: created.node.id, status: 'DELIVERED', attemptCount: 1 },
        });
        expect(Date.parse(delivered.occurredAt)).toBeGreaterThanOrEqual(Date.parse(created.occurredAt));

        const one = stack.subscribe(`subscription($id: ID!) { webhookDeliveryUpdated(id: $id) ${selection} }`, { id: created.node.id }, h);
        subs.push(one);
        await one.ready;
        const redelivered = await stack.gql(
          `mutation($id: ID!) { redeliverWebhook(input: { deliveryId: $id }) { webhookDelivery { status } userErrors { code } } }`,
          { id: created.node.id },
          h,
        );
        expect(redelivered.body.data.redeliverWebhook).toEqual({ webhookDelivery: { status: 'PENDING' }, userErrors: [] });
        expect(
          (await one.next(2)).map((e) => [e.data.webhookDeliveryUpdated.type, e.data.webhookDeliveryUpdated.node.attemptCount]),
        ).toEqual([
          ['WEBHOOK_DELIVERY_REDELIVERED', 1],
          ['WEBHOOK_DELIVERY_DELIVERED', 2],
        ]);
        // each webhook's followers see its deliveries only; events arrive in commit order, so by now a leak would be here
        const theirs = (await otherHook.next(2)).map((e) => e.data.webhookDeliveryUpdatedForWebhook.node.webhook.id);
        expect(new Set(theirs)).toEqual(new Set([hooks[1]]));
        expect(byHook.events.every((e) => e.data.webhookDeliveryUpdatedForWebhook.node.webhook.id === hooks[0])).toBe(true);
        expect(eavesdropper.events).toEqual([]);
      } finally {
        await Promise.all(subs.map((sub) => sub.close()));
        for (const id of hooks) await stack.rest('DELETE', `/webhooks/${id}`, undefined, h);
        await receiver.close();
      }
    });
  });
});
