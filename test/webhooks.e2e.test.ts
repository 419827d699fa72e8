import { createHmac } from 'node:crypto';
import { eventually, startTestStack, type TestStack } from './support/stack.js';
import { selfSignedCertificate, startReceiver, verifiedPayload, type Responder } from './support/https-receiver.js';

const cert = selfSignedCertificate();

describe('webhooks end to end', () => {
  let stack: TestStack;
  let client: { apiKey: string; id: string };
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
    const query = `query($id: ID!) { webhookDeliveries(webhookId: $id) { total data { id event status attemptCount attempts { number statusCode durationMs } } } }`;
    const deliveries = await eventually(async () => {
      const res = await stack.gql(query, { id: webhook.id }, h);
      const d = res.body.data.webhookDeliveries.data[0];
      return d?.status === 'DELIVERED' ? d : null;
    });
    expect(deliveries).toMatchObject({ event: 'identity.verified', attemptCount: 2 });
    expect(deliveries.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 200]);

    const redelivered = await stack.gql(`mutation($id: ID!) { redeliverWebhook(deliveryId: $id) { status } }`, { id: deliveries.id }, h);
    expect(redelivered.body.errors).toBeUndefined();
    expect(redelivered.body.data.redeliverWebhook.status).toBe('PENDING');
    await eventually(async () => receiver.received.length >= 3);
    await stack.rest('DELETE', `/webhooks/${webhook.id}`, undefined, h);
    await receiver.close();
  });

  it('gives up after 3 retries', async () => {
    const { receiver, webhook } = await withReceiver(() => 503);
    await verifiedIdentity('yolanda');
    const query = `query($id: ID!) { webhookDeliveries(webhookId: $id) { data { status attemptCount } } }`;
    const failed = await eventually(async () => {
      const d = (await stack.gql(query, { id: webhook.id }, h)).body.data.webhookDeliveries.data[0];
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
});
