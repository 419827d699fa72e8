import {
  createDecipheriv,
  createECDH,
  createHmac,
  createPublicKey,
  generateKeyPairSync,
  verify as verifySignature,
  randomUUID,
  type ECDH,
} from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { SMTPServer } from 'smtp-server';

/**
 * Local fakes of the notify providers' real protocols: an SMTP server, an HTTP API shaped like
 * Africa's Talking's messaging API (with delivery reports), FCM HTTP v1 (OAuth token endpoint +
 * messages:send) and a Web Push service (VAPID-authenticated, aes128gcm-encrypted pushes).
 */

async function listen(server: http.Server | https.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '::', ipv6Only: false }, resolve));
  return (server.address() as AddressInfo).port;
}

async function close(server: http.Server | https.Server): Promise<void> {
  server.closeAllConnections?.();
  await new Promise((resolve) => server.close(resolve));
}

// ---------------------------------------------------------------- SMTP

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  html: string;
  raw: string;
}

/** Quoted-printable soft breaks and escapes, enough to read what nodemailer wrote. */
function decodeQuotedPrintable(text: string): string {
  const bytes = text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function parseMail(raw: string, from: string, to: string[]): ReceivedMail {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const headers = head.replace(/\r?\n[ \t]+/g, ' ');
  const subject = /^Subject: (.*)$/im.exec(headers)?.[1] ?? '';
  const body = rest.join('\n\n');
  const qp = /Content-Transfer-Encoding: quoted-printable/i.test(raw);
  const b64 = /Content-Transfer-Encoding: base64/i.test(raw);
  const html = qp ? decodeQuotedPrintable(body) : b64 ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8') : body;
  return { from, to, subject, html, raw };
}

/**
 * A local SMTP server (the `smtp-server` package). Recipients starting with `nobody` are refused
 * with 550; `busy` ones get a 451 the first time (then are accepted).
 */
export async function startSmtpServer() {
  const mails: ReceivedMail[] = [];
  const busySeen = new Set<string>();
  let connections = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      connections++;
      callback();
    },
    onRcptTo(address, _session, callback) {
      const local = address.address.split('@')[0];
      if (local.startsWith('nobody')) return callback(Object.assign(new Error('5.1.1 Mailbox does not exist'), { responseCode: 550 }));
      if (local.startsWith('busy') && !busySeen.has(address.address)) {
        busySeen.add(address.address);
        return callback(Object.assign(new Error('4.2.1 Mailbox busy, try again later'), { responseCode: 451 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        mails.push(
          parseMail(
            Buffer.concat(chunks).toString('utf8'),
            from,
            session.envelope.rcptTo.map((r) => r.address),
          ),
        );
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    get connections() {
      return connections;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// ---------------------------------------------------------------- Africa's Talking

export interface SmsRequest {
  apiKey: string | undefined;
  username: string;
  to: string;
  message: string;
  from?: string;
  messageId?: string;
}

export const AT_API_KEY = 'atsk_test_0123456789';
export const AT_USERNAME = 'sandbox';

/**
 * `POST /version1/messaging` as Africa's Talking answers it. Numbers ending 9403 are invalid
 * (statusCode 403), 9406 blacklisted (406), 9500 get an HTTP 500 the first time. A wrong apiKey
 * is an HTTP 401. `report()` posts a delivery report to the callback URL as AT would.
 */
export async function startAfricasTalking() {
  const requests: SmsRequest[] = [];
  const failedOnce = new Set<string>();
  const app = express();
  app.post('/version1/messaging', express.urlencoded({ extended: false }), (req, res) => {
    const request: SmsRequest = {
      apiKey: req.header('apikey'),
      username: req.body.username,
      to: req.body.to,
      message: req.body.message,
      from: req.body.from,
    };
    requests.push(request);
    if (request.apiKey !== AT_API_KEY || request.username !== AT_USERNAME) {
      res.status(401).type('text/plain').send('The supplied authentication is invalid');
      return;
    }
    if (request.to.endsWith('9500') && !failedOnce.has(request.to)) {
      failedOnce.add(request.to);
      res.status(500).type('text/plain').send('Internal Server Error');
      return;
    }
    const refused: Record<string, [number, string]> = { '9403': [403, 'InvalidPhoneNumber'], '9406': [406, 'UserInBlacklist'] };
    const [statusCode, status] = refused[request.to.slice(-4)] ?? [101, 'Success'];
    request.messageId = statusCode === 101 ? `ATXid_${randomUUID().replace(/-/g, '')}` : undefined;
    res.status(201).json({
      SMSMessageData: {
        Message: statusCode === 101 ? 'Sent to 1/1 Total Cost: KES 0.8000' : 'Sent to 0/1 Total Cost: 0',
        Recipients: [
          { statusCode, number: request.to, status, cost: statusCode === 101 ? 'KES 0.8000' : '0', messageId: request.messageId ?? 'None' },
        ],
      },
    });
  });
  const server = http.createServer(app);
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** Posts a delivery report (form-encoded, as Africa's Talking does) to `callbackUrl`. */
    report: (callbackUrl: string, fields: { id: string; status: string; phoneNumber?: string; failureReason?: string }) =>
      fetch(callbackUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ networkCode: '63902', retryCount: '0', ...fields } as Record<string, string>),
      }),
    close: () => close(server),
  };
}

// ---------------------------------------------------------------- FCM HTTP v1

export interface FcmMessage {
  token: string;
  notification: { title: string; body: string };
  data?: Record<string, string>;
}

/** A service account whose key the fake FCM knows; `token_uri` points at the fake. */
export function testServiceAccount() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    publicKey,
    account: {
      type: 'service_account',
      project_id: 'demo-project',
      private_key_id: 'key-1',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: 'notify@demo-project.iam.gserviceaccount.com',
      token_uri: '',
    },
  };
}

const b64json = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

/**
 * Google's OAuth token endpoint (`POST /token`, checks the RS256 JWT against the service account's
 * public key) and FCM's `POST /v1/projects/{project}/messages:send`. Tokens starting `unregistered`
 * are UNREGISTERED (404); `unavailable` ones get a 503 the first time.
 */
export async function startFakeFcm(sa: ReturnType<typeof testServiceAccount>) {
  const messages: FcmMessage[] = [];
  const tokenRequests: Array<{ claims: Record<string, unknown>; header: Record<string, unknown> }> = [];
  const issued = new Set<string>();
  const failedOnce = new Set<string>();
  const app = express();
  app.post('/token', express.urlencoded({ extended: false }), (req, res) => {
    const [header, claims, signature] = String(req.body.assertion ?? '').split('.');
    const valid =
      req.body.grant_type === 'urn:ietf:params:oauth:grant-type:jwt-bearer' &&
      !!signature &&
      verifySignature('RSA-SHA256', Buffer.from(`${header}.${claims}`), sa.publicKey, Buffer.from(signature, 'base64url'));
    if (!valid) {
      res.status(400).json({ error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
      return;
    }
    const parsed = { header: b64json(header), claims: b64json(claims) };
    tokenRequests.push(parsed);
    const accessToken = `ya29.${randomUUID()}`;
    issued.add(accessToken);
    res.json({ access_token: accessToken, expires_in: 3599, token_type: 'Bearer' });
  });
  app.post(/^\/v1\/projects\/([^/]+)\/messages:send$/, express.json(), (req, res) => {
    const bearer = req.header('authorization')?.replace(/^Bearer /, '') ?? '';
    if (!issued.has(bearer)) {
      res.status(401).json({ error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } });
      return;
    }
    const message = req.body.message as FcmMessage;
    if (message.token.startsWith('unregistered')) {
      res.status(404).json({
        error: {
          code: 404,
          message: 'Requested entity was not found.',
          status: 'NOT_FOUND',
          details: [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'UNREGISTERED' }],
        },
      });
      return;
    }
    if (message.token.startsWith('unavailable') && !failedOnce.has(message.token)) {
      failedOnce.add(message.token);
      res.status(503).json({ error: { code: 503, message: 'The service is currently unavailable.', status: 'UNAVAILABLE' } });
      return;
    }
    messages.push(message);
    res.json({ name: `projects/${req.params[0]}/messages/0:${Date.now()}%${randomUUID().slice(0, 8)}` });
  });
  const server = http.createServer(app);
  const port = await listen(server);
  sa.account.token_uri = `http://127.0.0.1:${port}/token`;
  return { url: `http://127.0.0.1:${port}`, messages, tokenRequests, close: () => close(server) };
}

// ---------------------------------------------------------------- Web Push

/** A browser's push subscription: its ECDH key pair and auth secret (to decrypt what arrives). */
export function browserSubscription(endpoint: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = Buffer.from(randomUUID().replace(/-/g, ''), 'hex');
  return {
    ecdh,
    auth,
    subscription: { endpoint, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } },
  };
}

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/** RFC 8291 + RFC 8188 (aes128gcm, one record): what a browser does with a push. */
export function decryptWebPush(body: Buffer, ecdh: ECDH, auth: Buffer): string {
  const salt = body.subarray(0, 16);
  const idLength = body[20];
  const senderKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const secret = ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), senderKey, Buffer.from([1])]);
  const ikm = hmac(hmac(auth, secret), keyInfo);
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01', 'latin1')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01', 'latin1')).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  return padded.subarray(0, padded.lastIndexOf(2)).toString('utf8');
}

export interface ReceivedPush {
  id: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  vapid: { claims: Record<string, unknown>; publicKey: string };
}

/**
 * A push service over HTTPS: `POST /push/{id}` checks the VAPID JWT (ES256, `vapid t=…, k=…`) and
 * the aes128gcm encoding, then answers 201. Ids starting `gone` are 410 (subscription expired).
 */
export async function startWebPushService(cert: { key: string; cert: string }) {
  const pushes: ReceivedPush[] = [];
  const server = https.createServer(cert, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = (req.url ?? '').split('/').pop() ?? '';
      const match = /^vapid t=([^,]+), k=(.+)$/.exec(String(req.headers.authorization ?? ''));
      if (!match) return res.writeHead(401).end('missing VAPID authorization');
      const [header, claims, signature] = match[1].split('.');
      const raw = Buffer.from(match[2], 'base64url');
      const key = createPublicKey({
        key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') },
        format: 'jwk',
      });
      const signed = verifySignature(
        'SHA256',
        Buffer.from(`${header}.${claims}`),
        { key, dsaEncoding: 'ieee-p1363' },
        Buffer.from(signature, 'base64url'),
      );
      if (!signed) return res.writeHead(403).end('invalid VAPID signature');
      if (req.headers['content-encoding'] !== 'aes128gcm') return res.writeHead(415).end('aes128gcm expected');
      if (id.startsWith('gone')) return res.writeHead(410).end('push subscription has unsubscribed or expired');
      pushes.push({ id, headers: req.headers, body: Buffer.concat(chunks), vapid: { claims: b64json(claims), publicKey: match[2] } });
      res.writeHead(201, { location: `https://127.0.0.1/messages/${randomUUID()}` }).end();
    });
  });
  const port = await listen(server);
  return { origin: `https://127.0.0.1:${port}`, pushes, close: () => close(server) };
}

// ---------------------------------------------------------------- WhatsApp Cloud API and Africa's Talking voice

/**
 * Numbers whose last four digits make the WhatsApp and voice fakes misbehave: `9131` not reachable
 * (WhatsApp error 131026 / voice InvalidPhoneNumber), `9500` HTTP 503 every time, `9501` a 200 that
 * is not JSON, `9502` no answer at all.
 */
type Misbehaviour = 'unreachable' | 'down' | 'malformed' | 'hang' | null;
const misbehaviour = (to: string): Misbehaviour =>
  (({ '9131': 'unreachable', '9500': 'down', '9501': 'malformed', '9502': 'hang' }) as Record<string, Misbehaviour>)[to.slice(-4)] ?? null;

export const WA_TOKEN = 'EAAG-fake-access-token';
export const WA_PHONE_NUMBER_ID = '109384756123';

export interface WhatsAppRequest {
  url: string;
  authorization?: string;
  body: {
    to: string;
    type: string;
    template: { name: string; language: { code: string }; components: Array<{ type: string; parameters: Array<{ text: string }> }> };
  };
}

/** The WhatsApp Business Cloud API's `POST /<version>/<phone-number-id>/messages` (template messages). */
export async function startWhatsAppCloud() {
  const requests: WhatsAppRequest[] = [];
  const app = express();
  app.post('/:version/:phoneNumberId/messages', express.json(), (req, res) => {
    const request: WhatsAppRequest = { url: req.url, authorization: req.header('authorization'), body: req.body };
    requests.push(request);
    if (request.authorization !== `Bearer ${WA_TOKEN}` || req.params.phoneNumberId !== WA_PHONE_NUMBER_ID) {
      res.status(401).json({ error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 } });
      return;
    }
    const kind = misbehaviour(String(request.body.to));
    if (kind === 'hang') return;
    if (kind === 'down') return void res.status(503).type('text/html').send('<html>Service Unavailable</html>');
    if (kind === 'malformed') return void res.status(200).type('text/html').send('<html>maintenance</html>');
    if (kind === 'unreachable')
      return void res.status(400).json({ error: { message: 'Recipient phone number not in allowed list', code: 131026 } });
    res.json({
      messaging_product: 'whatsapp',
      contacts: [{ input: request.body.to, wa_id: request.body.to }],
      messages: [{ id: `wamid.${randomUUID().replace(/-/g, '')}` }],
    });
  });
  const server = http.createServer(app);
  const port = await listen(server);
  // a host name, not an address literal: resolved as in production (the listener is dual-stack)
  return { url: `http://localhost:${port}`, requests, close: () => close(server) };
}

export const VOICE_API_KEY = 'atsk_voice_0123456789';
export const VOICE_USERNAME = 'sandbox';
export const VOICE_CALLER = '+254711082000';

export interface VoiceCallRequest {
  apiKey?: string;
  username: string;
  from: string;
  to: string;
  clientRequestId: string;
  sessionId?: string;
}

/** Africa's Talking's voice API `POST /call`; `answer` plays the network side: the callback of an answered (or missed) call. */
export async function startAfricasTalkingVoice() {
  const calls: VoiceCallRequest[] = [];
  const app = express();
  app.post('/call', express.urlencoded({ extended: false }), (req, res) => {
    const call: VoiceCallRequest = { apiKey: req.header('apikey'), ...req.body };
    calls.push(call);
    if (call.apiKey !== VOICE_API_KEY || call.username !== VOICE_USERNAME) {
      res.status(401).type('text/plain').send('The supplied authentication is invalid');
      return;
    }
    const kind = misbehaviour(call.to);
    if (kind === 'hang') return;
    if (kind === 'down') return void res.status(503).type('text/plain').send('Service Unavailable');
    if (kind === 'malformed') return void res.status(200).type('application/json').send('{"entries": [');
    if (kind === 'unreachable')
      return void res.json({ entries: [{ phoneNumber: call.to, status: 'InvalidPhoneNumber', sessionId: null }], errorMessage: 'None' });
    call.sessionId = `ATVId_${randomUUID().replace(/-/g, '')}`;
    res.json({ entries: [{ phoneNumber: call.to, status: 'Queued', sessionId: call.sessionId }], errorMessage: 'None' });
  });
  const server = http.createServer(app);
  const port = await listen(server);
  return {
    // a host name, not an address literal: resolved as in production (the listener is dual-stack)
    url: `http://localhost:${port}`,
    calls,
    /** Posts the voice callback of `call` (form-encoded, as Africa's Talking does) to `callbackUrl`. */
    callback: (callbackUrl: string, call: VoiceCallRequest, fields: Record<string, string>) =>
      fetch(callbackUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          sessionId: call.sessionId ?? '',
          clientRequestId: call.clientRequestId,
          direction: 'Outbound',
          callerNumber: call.from,
          destinationNumber: call.to,
          callSessionState: fields.isActive === '1' ? 'Active' : 'Completed',
          ...fields,
        }),
      }),
    close: () => close(server),
  };
}
