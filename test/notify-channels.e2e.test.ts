import express from 'express';
import type { AddressInfo } from 'node:net';
import webpush from 'web-push';
import { createLogger } from '../platform/logger.js';
import type { NotifyShared } from '../subgraphs/notify/src/notify.shared.js';
import { trackingRoutes } from '../subgraphs/notify/src/notifications/tracking.routes.js';
import { WebPushClient } from '../subgraphs/notify/src/channels/push-webpush.provider.js';
import { eventually, startTestStack, type TestStack } from './support/stack.js';
import { selfSignedCertificate } from './support/https-receiver.js';
import {
  AT_API_KEY,
  AT_USERNAME,
  browserSubscription,
  decryptWebPush,
  startAfricasTalking,
  startFakeFcm,
  startSmtpServer,
  startWebPushService,
  testServiceAccount,
} from './support/notify-fakes.js';

const TEMPLATE = {
  name: 'order-shipped',
  channels: {
    email: {
      subject: 'Order {{order}} shipped',
      html: '<html><body><h1>Hello {{name}}</h1><p>Order {{order}} is on its way.</p></body></html>',
    },
    sms: { body: 'Hi {{name}}, order {{order}} has shipped.' },
    push: { title: 'Order {{order}}', body: '{{name}}, it has shipped' },
  },
};
const DATA = { name: 'Amara', order: 'A-1001' };

describe('notify channels against local fakes of the real protocols (live keys)', () => {
  const cert = selfSignedCertificate();
  const vapid = webpush.generateVAPIDKeys();
  const vapidOptions = { publicKey: vapid.publicKey, privateKey: vapid.privateKey, subject: 'mailto:ops@shop.example' };
  const sa = testServiceAccount();
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let at: Awaited<ReturnType<typeof startAfricasTalking>>;
  let fcm: Awaited<ReturnType<typeof startFakeFcm>>;
  let pushService: Awaited<ReturnType<typeof startWebPushService>>;
  let stack: TestStack;
  let h: Record<string, string>;
  let notifyOrigin: string;

  beforeAll(async () => {
    [smtp, at, fcm, pushService] = await Promise.all([
      startSmtpServer(),
      startAfricasTalking(),
      startFakeFcm(sa),
      startWebPushService(cert),
    ]);
    stack = await startTestStack(
      {
        NOTIFY_RETRY_DELAYS: '0.2,0.2',
        NOTIFY_PUBLIC_URL: 'https://notify.example.com',
        SMTP_URL: smtp.url,
        EMAIL_FROM: 'Shop <no-reply@shop.example>',
        SMS_API_URL: at.url,
        SMS_API_KEY: AT_API_KEY,
        SMS_USERNAME: AT_USERNAME,
        SMS_SENDER_ID: 'SHOP',
        SMS_CALLBACK_TOKEN: 'callback-secret',
        FCM_SERVICE_ACCOUNT: JSON.stringify(sa.account),
        FCM_API_URL: fcm.url,
        VAPID_PUBLIC_KEY: vapid.publicKey,
        VAPID_PRIVATE_KEY: vapid.privateKey,
        VAPID_SUBJECT: 'mailto:ops@shop.example',
      },
      { webhookCa: cert.cert },
    );
    const client = await stack.createClient({ name: 'shop', service: 'notify' });
    h = { authorization: `Bearer ${client.apiKey}` };
    notifyOrigin = new URL(stack.urls.notify!).origin;
    expect((await stack.rest('POST', '/v1/templates', TEMPLATE, h)).status).toBe(201);
  });
  afterAll(async () => {
    await stack?.stop();
    await Promise.all([smtp?.close(), at?.close(), fcm?.close(), pushService?.close()]);
  });

  const send = async (to: string, channels: string[]) => {
    const res = await stack.rest('POST', '/v1/send', { to, template: 'order-shipped', channels, data: DATA }, h);
    expect(res.status).toBe(202);
    return res.body;
  };
  const notification = (id: string) => stack.rest('GET', `/v1/notifications/${id}`, undefined, h).then((r) => r.body);
  const channelSettles = (id: string, channel: string, statuses = ['sent', 'delivered', 'opened', 'failed', 'undeliverable']) =>
    eventually(async () => {
      const n = await notification(id);
      return statuses.includes(n.channels[channel].status) ? n : null;
    });

  describe('email over SMTP (nodemailer, pooled)', () => {
    it('delivers to the SMTP server with the tracking pixel; the pixel marks it opened', async () => {
      const sent = await send('amara@example.com', ['email']);
      expect(sent.channels.email).toMatchObject({ status: 'queued', provider: 'smtp' });
      const done = await channelSettles(sent.notification_id, 'email');
      expect(done.channels.email).toMatchObject({ status: 'delivered', provider: 'smtp', attempts: 1 });
      expect(done.channels.email.latency_ms).toBeGreaterThanOrEqual(0);
      const mail = smtp.mails.find((m) => m.to.includes('amara@example.com'))!;
      expect(mail.from).toBe('no-reply@shop.example');
      expect(mail.subject).toBe('Order A-1001 shipped');
      expect(mail.raw).toMatch(new RegExp(`^X-Notification-Id: ${sent.notification_id}$`, 'im'));
      expect(mail.html).toContain('<h1>Hello Amara</h1>');
      const pixel = /<img src="https:\/\/notify\.example\.com(\/track\/open\/[0-9a-f-]{36}\.gif)"/.exec(mail.html);
      expect(pixel).not.toBeNull();

      const open = await fetch(notifyOrigin + pixel![1]);
      expect(open.headers.get('content-type')).toBe('image/gif');
      const opened = await notification(sent.notification_id);
      expect(opened.status).toBe('delivered');
      expect(opened.channels.email.status).toBe('opened');
      expect(Date.parse(opened.channels.email.opened_at)).toBeGreaterThanOrEqual(Date.parse(done.channels.email.delivered_at));
    });

    it('a 550 is undeliverable at once; a 451 is retried with backoff', async () => {
      const refused = await channelSettles((await send('nobody@example.com', ['email'])).notification_id, 'email');
      expect(refused.channels.email).toMatchObject({ status: 'undeliverable', attempts: 1 });
      expect(refused.channels.email.reason).toMatch(/^smtp: 550 .*Mailbox does not exist/);
      const busy = await channelSettles((await send('busy@example.com', ['email'])).notification_id, 'email');
      expect(busy.channels.email).toMatchObject({ status: 'delivered', attempts: 2, reason: null });
      expect(smtp.mails.filter((m) => m.to.includes('busy@example.com'))).toHaveLength(1);
    });

    it('reuses pooled connections', async () => {
      const before = smtp.connections;
      const ids = await Promise.all(
        Array.from({ length: 20 }, (_, i) => send(`pool-${i}@example.com`, ['email']).then((b) => b.notification_id)),
      );
      for (const id of ids) await channelSettles(id, 'email');
      expect(smtp.mails.filter((m) => m.to[0].startsWith('pool-'))).toHaveLength(20);
      expect(smtp.connections - before).toBeLessThanOrEqual(5);
    });
  });

  describe("SMS over an API shaped like Africa's Talking", () => {
    const callback = () => `${notifyOrigin}/callbacks/sms/africastalking?token=callback-secret`;

    it('sends (sent), then a delivery report makes it delivered; subscribers see it', async () => {
      const sent = await send('+254711223344', ['sms']);
      expect(sent.channels.sms.provider).toBe('africastalking');
      const accepted = await channelSettles(sent.notification_id, 'sms');
      expect(accepted.channels.sms).toMatchObject({ status: 'sent', attempts: 1 });
      expect(accepted.status).toBe('dispatched');
      const request = at.requests.find((r) => r.to === '+254711223344')!;
      expect(request).toMatchObject({
        apiKey: AT_API_KEY,
        username: AT_USERNAME,
        from: 'SHOP',
        message: 'Hi Amara, order A-1001 has shipped.',
      });

      const sub = stack.subscribe(
        `subscription($id: ID!) { notificationUpdated(id: $id) { type node { status channels { channel status } } } }`,
        { id: sent.notification_id },
        h,
      );
      try {
        await sub.ready;
        const report = await at.report(callback(), { id: request.messageId!, status: 'Success', phoneNumber: '+254711223344' });
        expect(report.status).toBe(200);
        const [event] = await sub.next(1);
        expect(event.data.notificationUpdated).toEqual({
          type: 'NOTIFICATION_UPDATED',
          node: { status: 'DELIVERED', channels: [{ channel: 'SMS', status: 'DELIVERED' }] },
        });
      } finally {
        await sub.close();
      }
      const delivered = await notification(sent.notification_id);
      expect(delivered.channels.sms.status).toBe('delivered');
      expect(delivered.channels.sms.delivered_at).not.toBeNull();
      // a repeated or late report changes nothing
      expect(await (await at.report(callback(), { id: request.messageId!, status: 'Failed' })).json()).toEqual({ result: 'unchanged' });
      expect((await notification(sent.notification_id)).channels.sms.status).toBe('delivered');
    });

    it('a failed delivery report makes it failed with the reason', async () => {
      const sent = await send('+254711223355', ['sms']);
      await channelSettles(sent.notification_id, 'sms');
      const request = at.requests.find((r) => r.to === '+254711223355')!;
      await at.report(callback(), { id: request.messageId!, status: 'Failed', failureReason: 'DeliveryFailure' });
      const failed = await notification(sent.notification_id);
      expect(failed.status).toBe('failed');
      expect(failed.channels.sms).toMatchObject({ status: 'failed', reason: 'delivery report: Failed (DeliveryFailure)' });
    });

    it('an invalid number is undeliverable without retry; an HTTP 500 is retried', async () => {
      const invalid = await channelSettles((await send('+254711229403', ['sms'])).notification_id, 'sms');
      expect(invalid.channels.sms).toMatchObject({
        status: 'undeliverable',
        attempts: 1,
        reason: 'africastalking: InvalidPhoneNumber (403)',
      });
      expect(at.requests.filter((r) => r.to === '+254711229403')).toHaveLength(1);
      const flaky = await channelSettles((await send('+254711229500', ['sms'])).notification_id, 'sms');
      expect(flaky.channels.sms).toMatchObject({ status: 'sent', attempts: 2, reason: null });
      expect(at.requests.filter((r) => r.to === '+254711229500')).toHaveLength(2);
    });

    it('refuses reports without the callback token, and unknown message ids', async () => {
      const noToken = await at.report(`${notifyOrigin}/callbacks/sms/africastalking`, { id: 'ATXid_x', status: 'Success' });
      expect(noToken.status).toBe(401);
      const unknown = await at.report(callback(), { id: 'ATXid_unknown', status: 'Success' });
      expect(unknown.status).toBe(404);
      const progress = await at.report(callback(), { id: 'ATXid_unknown', status: 'Buffered' });
      expect(await progress.json()).toEqual({ result: 'ignored', status: 'Buffered' });
      // a proxy may carry the token in a header instead of the URL
      const viaHeader = await fetch(`${notifyOrigin}/callbacks/sms/africastalking`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-callback-token': 'callback-secret' },
        body: new URLSearchParams({ id: 'ATXid_unknown', status: 'Buffered' }),
      });
      expect(await viaHeader.json()).toEqual({ result: 'ignored', status: 'Buffered' });
    });

    it('refuses every delivery report while no callback token is configured', async () => {
      const app = express();
      trackingRoutes(app, { config: { SMS_CALLBACK_TOKEN: undefined }, logger: createLogger('test', 'silent') } as unknown as NotifyShared);
      const server = app.listen(0, '127.0.0.1');
      await new Promise((r) => server.once('listening', r));
      try {
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callbacks/sms/africastalking`;
        const refused = await at.report(url, { id: 'ATXid_x', status: 'Success' });
        expect(refused.status).toBe(403);
        expect(await refused.json()).toEqual({ error: 'delivery reports are refused until SMS_CALLBACK_TOKEN is set' });
      } finally {
        await new Promise((r) => server.close(r));
      }
    });
  });

  describe('push: FCM HTTP v1 and Web Push (VAPID)', () => {
    it('FCM: service-account JWT → OAuth token (cached) → messages:send', async () => {
      await stack.rest('PUT', '/v1/recipients/android-user', { push_tokens: ['fcm-token-1'] }, h);
      const sent = await send('android-user', ['push']);
      expect(sent.channels.push.provider).toBe('fcm+webpush');
      const done = await channelSettles(sent.notification_id, 'push');
      expect(done.channels.push).toMatchObject({ status: 'delivered', attempts: 1 });
      expect(fcm.messages).toContainEqual({
        token: 'fcm-token-1',
        notification: { title: 'Order A-1001', body: 'Amara, it has shipped' },
        data: { notification_id: sent.notification_id },
      });
      const [{ header, claims }] = fcm.tokenRequests;
      expect(header).toMatchObject({ alg: 'RS256', typ: 'JWT', kid: 'key-1' });
      expect(claims).toMatchObject({
        iss: sa.account.client_email,
        aud: sa.account.token_uri,
        scope: 'https://www.googleapis.com/auth/firebase.messaging',
      });
      await channelSettles((await send('android-user', ['push'])).notification_id, 'push');
      expect(fcm.tokenRequests).toHaveLength(1);
    });

    it('FCM: UNREGISTERED is undeliverable at once; UNAVAILABLE is retried', async () => {
      await stack.rest('PUT', '/v1/recipients/stale-device', { push_tokens: ['unregistered-token'] }, h);
      const stale = await channelSettles((await send('stale-device', ['push'])).notification_id, 'push');
      expect(stale.channels.push).toMatchObject({ status: 'undeliverable', attempts: 1 });
      expect(stale.channels.push.reason).toMatch(/^fcm: UNREGISTERED/);
      await stack.rest('PUT', '/v1/recipients/busy-device', { push_tokens: ['unavailable-token'] }, h);
      const retried = await channelSettles((await send('busy-device', ['push'])).notification_id, 'push');
      expect(retried.channels.push).toMatchObject({ status: 'delivered', attempts: 2 });
    });

    it('Web Push: encrypted for the subscription, signed with VAPID', async () => {
      const browser = browserSubscription(`${pushService.origin}/push/sub-1`);
      expect((await stack.rest('PUT', '/v1/recipients/browser-user', { web_push_subscriptions: [browser.subscription] }, h)).status).toBe(
        200,
      );
      const sent = await send('browser-user', ['push']);
      const done = await channelSettles(sent.notification_id, 'push');
      expect(done.channels.push).toMatchObject({ status: 'delivered', attempts: 1 });
      const push = pushService.pushes.find((p) => p.id === 'sub-1')!;
      expect(push.vapid.publicKey).toBe(vapid.publicKey);
      expect(push.vapid.claims).toMatchObject({ aud: pushService.origin, sub: 'mailto:ops@shop.example' });
      expect(JSON.parse(decryptWebPush(push.body, browser.ecdh, browser.auth))).toEqual({
        title: 'Order A-1001',
        body: 'Amara, it has shipped',
        notification_id: sent.notification_id,
      });
    });

    it('Web Push refuses endpoints on private addresses unless allowed, and connects to the checked address', async () => {
      const refusing = new WebPushClient({ ...vapidOptions, ca: cert.cert, allowPrivateTargets: false });
      const internal = browserSubscription(`${pushService.origin}/push/internal-1`);
      await expect(refusing.send(internal.subscription, { title: 't' })).rejects.toMatchObject({
        permanent: true,
        message: 'webpush: the endpoint resolves to a private or loopback address',
      });
      expect(pushService.pushes.some((p) => p.id === 'internal-1')).toBe(false);
      // a name is resolved once and the request goes to that address (localhost here, allowed)
      const allowed = new WebPushClient({ ...vapidOptions, ca: cert.cert, allowPrivateTargets: true });
      const named = browserSubscription(`${pushService.origin.replace('127.0.0.1', 'localhost')}/push/named-1`);
      await allowed.send(named.subscription, { title: 't' });
      expect(pushService.pushes.some((p) => p.id === 'named-1')).toBe(true);
    });

    it('several devices: one accepted is delivered, the others are named in the reason; all gone is undeliverable', async () => {
      const gone = browserSubscription(`${pushService.origin}/push/gone-1`);
      await stack.rest(
        'PUT',
        '/v1/recipients/two-devices',
        { push_tokens: ['fcm-token-2'], web_push_subscriptions: [gone.subscription] },
        h,
      );
      const mixed = await channelSettles((await send('two-devices', ['push'])).notification_id, 'push');
      expect(mixed.channels.push.status).toBe('delivered');
      // the push service's own words are not passed on: only its status
      expect(mixed.channels.push.reason).toBe('1/2 devices; webpush: HTTP 410');
      await stack.rest('PUT', '/v1/recipients/two-devices', { push_tokens: [] }, h);
      const none = await channelSettles((await send('two-devices', ['push'])).notification_id, 'push');
      expect(none.channels.push).toMatchObject({ status: 'undeliverable', attempts: 1 });
    });
  });

  it('one notification on all three channels: each channel has its own provider, status and latency', async () => {
    const browser = browserSubscription(`${pushService.origin}/push/sub-all`);
    await stack.rest(
      'PUT',
      '/v1/recipients/everywhere',
      { email: 'all@example.com', phone: '+254711000999', web_push_subscriptions: [browser.subscription] },
      h,
    );
    const sent = await send('everywhere', ['email', 'sms', 'push']);
    const done = await eventually(async () => {
      const n = await notification(sent.notification_id);
      return Object.values(n.channels).every((c: any) => c.status !== 'queued') ? n : null;
    });
    expect(done.channels.email).toMatchObject({ status: 'delivered', provider: 'smtp' });
    expect(done.channels.sms).toMatchObject({ status: 'sent', provider: 'africastalking' });
    expect(done.channels.push).toMatchObject({ status: 'delivered', provider: 'fcm+webpush' });
    for (const c of Object.values(done.channels) as any[]) expect(typeof c.latency_ms).toBe('number');
    expect(done.status).toBe('dispatched');
  });
});
