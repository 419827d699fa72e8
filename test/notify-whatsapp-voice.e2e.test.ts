import { eventually, startTestStack, type TestStack } from './support/stack.js';
import {
  startAfricasTalkingVoice,
  startWhatsAppCloud,
  VOICE_API_KEY,
  VOICE_CALLER,
  VOICE_USERNAME,
  WA_PHONE_NUMBER_ID,
  WA_TOKEN,
} from './support/notify-fakes.js';

/**
 * Notify's WhatsApp and voice channels (GraphQL only; the REST routes keep the spec's email, sms,
 * push): test keys in the sandbox, live keys against local fakes of the WhatsApp Business Cloud API
 * and Africa's Talking's voice API, and the voice callback that says the text of an answered call.
 */

const TEMPLATE = {
  name: 'login-code',
  channels: {
    whatsapp: { template: 'verification_code', language: 'en', parameters: ['{{code}}'] },
    voice: { text: 'Your login code is {{code}}.' },
  },
};
const NOTIFICATION = `id status channels { channel status provider reason attempts latencyMs sentAt deliveredAt }`;

describe('notify WhatsApp and voice channels', () => {
  let wa: Awaited<ReturnType<typeof startWhatsAppCloud>>;
  let voice: Awaited<ReturnType<typeof startAfricasTalkingVoice>>;
  let stack: TestStack;
  let live: Record<string, string>;
  let test: Record<string, string>;
  let callbackUrl: string;

  beforeAll(async () => {
    [wa, voice] = await Promise.all([startWhatsAppCloud(), startAfricasTalkingVoice()]);
    stack = await startTestStack({
      NOTIFY_RETRY_DELAYS: '0.2,0.2',
      NOTIFY_PROVIDER_TIMEOUT_MS: '300',
      WHATSAPP_API_URL: wa.url,
      WHATSAPP_ACCESS_TOKEN: WA_TOKEN,
      WHATSAPP_PHONE_NUMBER_ID: WA_PHONE_NUMBER_ID,
      WHATSAPP_API_VERSION: 'v21.0',
      VOICE_API_URL: voice.url,
      VOICE_API_KEY,
      VOICE_USERNAME,
      VOICE_CALLER_NUMBER: VOICE_CALLER,
      VOICE_CALLBACK_TOKEN: 'voice-secret',
    });
    const client = await stack.createClient({ name: 'wa-voice live', service: 'notify' });
    live = { authorization: `Bearer ${client.apiKey}` };
    const testClient = await stack.createClient({ name: 'wa-voice test', service: 'notify', environment: 'test' });
    test = { authorization: `Bearer ${testClient.apiKey}` };
    callbackUrl = `${new URL(stack.urls.notify!).origin}/callbacks/voice/africastalking?token=voice-secret`;
    for (const h of [live, test]) {
      const created = await gql(
        `mutation($input: CreateNotificationTemplateInput!) {
          createNotificationTemplate(input: $input) { notificationTemplate { channels content { whatsapp { template language parameters } voice { text } } placeholders } userErrors { field message } }
        }`,
        { input: TEMPLATE },
        h,
      );
      expect(created.data.createNotificationTemplate).toEqual({
        notificationTemplate: {
          channels: ['WHATSAPP', 'VOICE'],
          content: { whatsapp: TEMPLATE.channels.whatsapp, voice: TEMPLATE.channels.voice },
          placeholders: ['code'],
        },
        userErrors: [],
      });
    }
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
    await Promise.all([wa?.close(), voice?.close()]);
  });

  const gql = async (query: string, variables: Record<string, unknown>, h: Record<string, string>) =>
    (await stack.gql(query, variables, h)).body;
  const send = async (h: Record<string, string>, to: string, channels: string[], code = '482913') => {
    const res = await gql(
      `mutation($input: SendNotificationInput!) { sendNotification(input: $input) { notification { ${NOTIFICATION} } userErrors { field message } } }`,
      { input: { to, template: TEMPLATE.name, channels, data: { code } } },
      h,
    );
    expect(res.data.sendNotification.userErrors).toEqual([]);
    return res.data.sendNotification.notification;
  };
  /** The notification once every channel left `queued`. */
  const settled = (h: Record<string, string>, id: string) =>
    eventually(async () => {
      const n = (await gql(`query($id: ID!) { notification(id: $id) { ${NOTIFICATION} } }`, { id }, h)).data.notification;
      return n.channels.every((c: { status: string }) => c.status !== 'QUEUED') ? n : null;
    });
  const channel = (n: { channels: Array<Record<string, any>> }, name: string) => n.channels.find((c) => c.channel === name)!;

  it('test keys: both channels go to the sandbox, which records the WhatsApp template message and the spoken text', async () => {
    const sent = await send(test, '+254712000101', ['WHATSAPP', 'VOICE']);
    expect(sent.channels.map((c: { channel: string; provider: string }) => [c.channel, c.provider])).toEqual([
      ['WHATSAPP', 'sandbox'],
      ['VOICE', 'sandbox'],
    ]);
    const done = await settled(test, sent.id);
    expect(done.status).toBe('DELIVERED');
    const messages = await gql(
      `query($id: ID!) { sandboxMessages(filter: { notificationId: $id }) { nodes { channel to body whatsapp { template language parameters } } } }`,
      { id: sent.id },
      test,
    );
    expect(
      messages.data.sandboxMessages.nodes.sort((a: { channel: string }, b: { channel: string }) => a.channel.localeCompare(b.channel)),
    ).toEqual([
      { channel: 'VOICE', to: '+254712000101', body: 'Your login code is 482913.', whatsapp: null },
      {
        channel: 'WHATSAPP',
        to: '+254712000101',
        body: null,
        whatsapp: { template: 'verification_code', language: 'en', parameters: ['482913'] },
      },
    ]);
    // the sandbox's magic numbers hold on these channels too
    const bad = await settled(test, (await send(test, '+254712000001', ['WHATSAPP', 'VOICE'])).id);
    expect(bad.channels.map((c: { status: string; reason: string }) => [c.status, c.reason])).toEqual([
      ['UNDELIVERABLE', 'sandbox: invalid phone number'],
      ['UNDELIVERABLE', 'sandbox: invalid phone number'],
    ]);
    expect(wa.requests).toHaveLength(0);
    expect(voice.calls).toHaveLength(0);
  });

  it('WhatsApp Cloud API: a template message with a bearer token, the rendered parameters as its body', async () => {
    const sent = await send(live, '+254712000102', ['WHATSAPP']);
    expect(channel(sent, 'WHATSAPP').provider).toBe('whatsapp-cloud');
    const done = await settled(live, sent.id);
    expect(channel(done, 'WHATSAPP')).toMatchObject({ status: 'SENT', attempts: 1, reason: null, latencyMs: expect.any(Number) });
    const request = wa.requests.find((r) => r.body.to === '254712000102')!;
    expect(request.url).toBe(`/v21.0/${WA_PHONE_NUMBER_ID}/messages`);
    expect(request.authorization).toBe(`Bearer ${WA_TOKEN}`);
    expect(request.body.template).toEqual({
      name: 'verification_code',
      language: { code: 'en' },
      components: [{ type: 'body', parameters: [{ type: 'text', text: '482913' }] }],
    });
  });

  it('WhatsApp: an unreachable recipient is undeliverable at once; 5xx, malformed answers and timeouts fail after the retries', async () => {
    const unreachable = await settled(live, (await send(live, '+254712009131', ['WHATSAPP'])).id);
    expect(channel(unreachable, 'WHATSAPP')).toMatchObject({ status: 'UNDELIVERABLE', attempts: 1 });
    expect(channel(unreachable, 'WHATSAPP').reason).toMatch(/^whatsapp: HTTP 400 Recipient phone number not in allowed list/);
    const expectations: Array<[string, RegExp]> = [
      ['+254712009500', /^whatsapp: HTTP 503 .*\(after 3 attempts\)$/],
      ['+254712009501', /^whatsapp: unreadable response .*\(after 3 attempts\)$/],
      ['+254712009502', /^whatsapp: .*(timeout|aborted).*\(after 3 attempts\)$/i],
    ];
    const sends = await Promise.all(expectations.map(([to]) => send(live, to, ['WHATSAPP'])));
    for (const [i, [to, reason]] of expectations.entries()) {
      const failed = await settled(live, sends[i].id);
      expect([to, failed.status, channel(failed, 'WHATSAPP').status, channel(failed, 'WHATSAPP').attempts]).toEqual([
        to,
        'FAILED',
        'FAILED',
        3,
      ]);
      expect(channel(failed, 'WHATSAPP').reason).toMatch(reason);
    }
  });

  it("voice: Africa's Talking places the call; the answered call's callback is answered with the text, said digit by digit", async () => {
    const sent = await send(live, '+254712000103', ['VOICE'], '907153');
    expect(channel(sent, 'VOICE').provider).toBe('africastalking-voice');
    expect(channel(await settled(live, sent.id), 'VOICE')).toMatchObject({ status: 'SENT', attempts: 1 });
    const call = voice.calls.find((c) => c.to === '+254712000103')!;
    expect(call).toMatchObject({ apiKey: VOICE_API_KEY, username: VOICE_USERNAME, from: VOICE_CALLER });

    const answered = await voice.callback(callbackUrl, call, { isActive: '1' });
    expect(answered.status).toBe(200);
    expect(answered.headers.get('content-type')).toMatch(/^application\/xml/);
    const xml = await answered.text();
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><Response><Say [^>]*>Your login code is 9 0 7 1 5 3\.<\/Say>/);
    const delivered = (await gql(`query($id: ID!) { notification(id: $id) { ${NOTIFICATION} } }`, { id: sent.id }, live)).data.notification;
    expect([delivered.status, channel(delivered, 'VOICE').status]).toEqual(['DELIVERED', 'DELIVERED']);
    // the end of an answered call changes nothing
    const ended = await voice.callback(callbackUrl, call, { isActive: '0', status: 'Success', durationInSeconds: '14' });
    expect(ended.status).toBe(200);
    const after = (await gql(`query($id: ID!) { notification(id: $id) { ${NOTIFICATION} } }`, { id: sent.id }, live)).data.notification;
    expect(channel(after, 'VOICE').status).toBe('DELIVERED');
  });

  it('voice: a call that ends unanswered fails with the reason', async () => {
    const sent = await send(live, '+254712000104', ['VOICE']);
    await settled(live, sent.id);
    const call = voice.calls.find((c) => c.to === '+254712000104')!;
    const missed = await voice.callback(callbackUrl, call, { isActive: '0', status: 'NotAnswered', hangupCause: 'NO_ANSWER' });
    expect(missed.status).toBe(200);
    const failed = (await gql(`query($id: ID!) { notification(id: $id) { ${NOTIFICATION} } }`, { id: sent.id }, live)).data.notification;
    expect([failed.status, channel(failed, 'VOICE').status, channel(failed, 'VOICE').reason]).toEqual([
      'FAILED',
      'FAILED',
      'voice: the call was not answered (NotAnswered, NO_ANSWER)',
    ]);
  });

  it('voice: an invalid number is undeliverable at once; 5xx, malformed answers and timeouts fail after the retries', async () => {
    const invalid = await settled(live, (await send(live, '+254712009131', ['VOICE'])).id);
    expect(channel(invalid, 'VOICE')).toMatchObject({
      status: 'UNDELIVERABLE',
      attempts: 1,
      reason: 'africastalking voice: InvalidPhoneNumber (None)',
    });
    const tos = ['+254712009500', '+254712009501', '+254712009502'];
    const sends = await Promise.all(tos.map((to) => send(live, to, ['VOICE'])));
    for (const [i, to] of tos.entries()) {
      const failed = await settled(live, sends[i].id);
      expect([to, channel(failed, 'VOICE').status, channel(failed, 'VOICE').attempts]).toEqual([to, 'FAILED', 3]);
      expect(channel(failed, 'VOICE').reason).toMatch(/^africastalking voice: .*\(after 3 attempts\)$/);
    }
  });

  it('the voice callback needs its token and a known call; malformed callbacks are 400', async () => {
    const form = (fields: Record<string, string>) => ({
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields),
    });
    const noToken = await fetch(callbackUrl.replace(/\?.*/, ''), form({ sessionId: 'ATVId_x', isActive: '1' }));
    expect(noToken.status).toBe(401);
    const wrongToken = await fetch(callbackUrl.replace('voice-secret', 'guess'), form({ sessionId: 'ATVId_x', isActive: '1' }));
    expect(wrongToken.status).toBe(401);
    expect((await fetch(callbackUrl, form({ isActive: '1' }))).status).toBe(400);
    expect((await fetch(callbackUrl, form({ sessionId: 'ATVId_x', isActive: 'yes' }))).status).toBe(400);
    const unknown = await fetch(callbackUrl, form({ sessionId: 'ATVId_unknown', isActive: '1', clientRequestId: 'not-a-uuid' }));
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).not.toContain('<Say');
  });

  it('REST keeps the spec channels: whatsapp and voice are refused on /v1/send and /v1/templates (400 naming them)', async () => {
    const send = await stack.rest('POST', '/v1/send', { to: '+254712000105', template: TEMPLATE.name, channels: ['whatsapp'] }, live);
    expect([send.status, send.body.message]).toEqual([400, ['channels must be among: email, sms, push (unknown: whatsapp)']]);
    const template = await stack.rest('POST', '/v1/templates', { name: 'rest-voice', channels: { voice: { text: 'hi' } } }, live);
    expect([template.status, template.body.message]).toEqual([400, ['channels must be among: email, sms, push (unknown: voice)']]);
  });

  it('validates WhatsApp and voice content: template name, language, parameters, text', async () => {
    const res = await gql(
      `mutation($input: CreateNotificationTemplateInput!) { createNotificationTemplate(input: $input) { notificationTemplate { id } userErrors { field message } } }`,
      {
        input: {
          name: 'bad-wa',
          channels: { whatsapp: { template: 'Not Approved', language: 'english', parameters: ['{{code}}', ''] }, voice: { text: ' ' } },
        },
      },
      live,
    );
    const messages = [...(res.errors ?? []), ...(res.data?.createNotificationTemplate?.userErrors ?? [])]
      .map((e: { message: string }) => e.message)
      .join('\n');
    expect(messages).toContain('channels.whatsapp.template must be lower-case letters, digits and _');
    expect(messages).toContain('channels.whatsapp.language must be a language code such as en or pt_BR');
    expect(messages).toContain('channels.whatsapp.parameters.1 must not be empty');
    expect(messages).toContain('channels.voice.text must not be empty');
  });
});
