import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProviderError, type OutgoingMessage } from './provider.js';
import { WhatsAppCloudProvider } from './whatsapp-cloud.provider.js';
import { AfricasTalkingVoiceProvider, sayXml } from './voice-africastalking.provider.js';

/** Answers are awaited this long (a busy machine's first request can outlast a deadline made to fail fast); a hanging fake meets HANG_MS. */
const ANSWER_MS = 30_000;
const HANG_MS = 500;

/** A local fake of one HTTP API: records each request, answers with `answer` (or never, for 'hang'). */
async function fakeApi(answer: (n: number) => { status: number; body: string } | 'hang') {
  const received: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }> = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const a = answer(received.length);
      if (a === 'hang') return;
      res.writeHead(a.status, { 'content-type': 'application/json' }).end(a.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, received, close: () => new Promise((r) => (server.closeAllConnections(), server.close(r))) };
}

const message = (over: Partial<OutgoingMessage> = {}): OutgoingMessage => ({
  deliveryId: '0193c3c4-0000-7000-8000-000000000001',
  notificationId: '0193c3c4-0000-7000-8000-000000000002',
  organizationId: '0193c3c4-0000-7000-8000-000000000003',
  environment: 'live',
  channel: 'sms',
  attempt: 1,
  to: '+254712345678',
  content: { body: '482913', template: 'otp_code', language: 'en', parameters: ['482913'] },
  ...over,
});

async function refusal(p: Promise<unknown>): Promise<ProviderError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
}

describe('WhatsApp Business Cloud API', () => {
  const opts = (apiUrl: string, timeoutMs = ANSWER_MS) => ({
    apiUrl,
    apiVersion: 'v21.0',
    phoneNumberId: '1093847561',
    accessToken: 'EAAG-test-token',
    timeoutMs,
  });

  it('sends a template message with a bearer token and the code as its body parameter', async () => {
    const api = await fakeApi(() => ({
      status: 200,
      body: JSON.stringify({ messaging_product: 'whatsapp', messages: [{ id: 'wamid.HBg1' }] }),
    }));
    try {
      const accepted = await new WhatsAppCloudProvider(opts(api.url)).send(message());
      expect(accepted).toEqual({ status: 'sent', providerMessageId: 'wamid.HBg1' });
      const [req] = api.received;
      expect(req.method).toBe('POST');
      expect(req.url).toBe('/v21.0/1093847561/messages');
      expect(req.headers.authorization).toBe('Bearer EAAG-test-token');
      expect(JSON.parse(req.body)).toEqual({
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: '254712345678',
        type: 'template',
        template: {
          name: 'otp_code',
          language: { code: 'en' },
          components: [{ type: 'body', parameters: [{ type: 'text', text: '482913' }] }],
        },
      });
    } finally {
      await api.close();
    }
  });

  it('an unreachable recipient is permanent; 5xx, malformed answers and timeouts are transient', async () => {
    const answers = [
      { status: 400, body: JSON.stringify({ error: { message: 'Recipient phone number not in allowed list', code: 131026 } }) },
      { status: 503, body: 'upstream down' },
      { status: 200, body: '<html>not json</html>' },
      'hang' as const,
    ];
    const api = await fakeApi((n) => answers[n - 1]);
    try {
      const wa = new WhatsAppCloudProvider(opts(api.url));
      expect((await refusal(wa.send(message()))).permanent).toBe(true);
      expect((await refusal(wa.send(message()))).permanent).toBe(false);
      expect((await refusal(wa.send(message()))).message).toMatch(/unreadable response/);
      expect((await refusal(new WhatsAppCloudProvider(opts(api.url, HANG_MS)).send(message()))).permanent).toBe(false);
    } finally {
      await api.close();
    }
  });
});

describe("Africa's Talking voice API", () => {
  const opts = (apiUrl: string, timeoutMs = ANSWER_MS) => ({
    apiUrl,
    apiKey: 'atsk_voice_test',
    username: 'sandbox',
    from: '+254711082000',
    timeoutMs,
  });

  it('places a call: form-encoded username, from, to and the delivery as clientRequestId, apiKey header', async () => {
    const api = await fakeApi(() => ({
      status: 200,
      body: JSON.stringify({
        entries: [{ phoneNumber: '+254712345678', status: 'Queued', sessionId: 'ATVId_cb29c2b9' }],
        errorMessage: 'None',
      }),
    }));
    try {
      const accepted = await new AfricasTalkingVoiceProvider(opts(api.url)).send(message());
      expect(accepted).toEqual({ status: 'sent', providerMessageId: 'ATVId_cb29c2b9' });
      const [req] = api.received;
      expect(req.url).toBe('/call');
      expect(req.headers.apikey).toBe('atsk_voice_test');
      expect(Object.fromEntries(new URLSearchParams(req.body))).toEqual({
        username: 'sandbox',
        from: '+254711082000',
        to: '+254712345678',
        clientRequestId: message().deliveryId,
      });
    } finally {
      await api.close();
    }
  });

  it('an invalid number is permanent; 5xx, malformed answers and timeouts are transient', async () => {
    const answers = [
      {
        status: 200,
        body: JSON.stringify({
          entries: [{ phoneNumber: '+254712345678', status: 'InvalidPhoneNumber', sessionId: null }],
          errorMessage: 'None',
        }),
      },
      { status: 500, body: 'oops' },
      { status: 200, body: '{"entries": "nope"' },
      'hang' as const,
    ];
    const api = await fakeApi((n) => answers[n - 1]);
    try {
      const voice = new AfricasTalkingVoiceProvider(opts(api.url));
      expect((await refusal(voice.send(message()))).permanent).toBe(true);
      expect((await refusal(voice.send(message()))).permanent).toBe(false);
      expect((await refusal(voice.send(message()))).permanent).toBe(false);
      expect((await refusal(new AfricasTalkingVoiceProvider(opts(api.url, HANG_MS)).send(message()))).permanent).toBe(false);
    } finally {
      await api.close();
    }
  });

  it('says the text digit by digit, escaped', () => {
    expect(sayXml('Code 4829 <ok>')).toContain('Code 4 8 2 9 &lt;ok&gt;');
  });
});
