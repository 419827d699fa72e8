import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '../platform/logger.js';
import { offsetCursor } from '../platform/graphql/cursor.js';
import { startRestAdapter, type RunningRestAdapter } from './rest-adapter.js';

/** What the fake gateway received, and what it answers next. */
interface Received {
  query: string;
  variables: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
}
interface Canned {
  status?: number;
  headers?: Record<string, string>;
  body: unknown;
}

const logger = createLogger('rest-adapter-test');
const KEY_SHOWN_ONCE = 'Store this API key securely: it will not be shown again.';
const SECRET_SHOWN_ONCE = 'Store this signing secret securely: it will not be shown again.';
let gateway: Server;
let adapter: RunningRestAdapter;
let received: Received[] = [];
let answer: Canned = { body: { data: {} } };

const reply = (data: unknown): Canned => ({ body: { data } });
const failure = (status: number, ...errors: Array<{ message: string; extensions?: Record<string, unknown> }>): Canned => ({
  status,
  body: { errors },
});

beforeAll(async () => {
  const app = express();
  app.use(express.json());
  // the credential check before a large body (it accepts every key here)
  app.get('/auth/check', (_req, res) => {
    checked += 1;
    res.status(204).end();
  });
  app.post('/graphql', (req, res) => {
    received.push({ query: req.body.query, variables: req.body.variables ?? {}, headers: req.headers });
    res.status(answer.status ?? 200).set(answer.headers ?? {});
    if (typeof answer.body === 'string') res.type('text/html').send(answer.body);
    else res.json(answer.body);
  });
  gateway = await new Promise<Server>((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(server));
  });
  const { port } = gateway.address() as AddressInfo;
  adapter = await startRestAdapter({ gatewayUrl: `http://127.0.0.1:${port}/graphql`, port: 0, logger });
});

afterAll(async () => {
  await adapter.stop();
  await new Promise((resolve) => gateway.close(resolve));
});

beforeEach(() => {
  received = [];
  checked = 0;
  answer = reply({});
});

/** Routes with a body are read only from a caller with credentials: send a key unless told otherwise. */
const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = { 'x-api-key': 'vk_test_key' }) =>
  fetch(adapter.url + path, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });

const last = () => received[received.length - 1];
let checked = 0;

describe('credentials before the body', () => {
  it('answers 401 without reading the body or calling the gateway when no credentials are sent', async () => {
    const res = await call('POST', '/verifications/identity', { userId: 'u1' }, {});
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(received).toHaveLength(0);
  });

  it('asks the gateway to check the credentials before reading a body larger than the default', async () => {
    answer = reply({ sendNotificationBatch: { notificationBatch: { id: 'b1' }, userErrors: [] } });
    await call('POST', '/send/batch', { channel: 'sms', recipients: [] });
    expect(checked).toBe(1);
    await call('POST', '/verifications/identity', { userId: 'u1' });
    expect(checked).toBe(1);
  });
});

const verification = {
  id: 'iv_1',
  userId: 'u1',
  tier: 'BASIC',
  overallStatus: 'PENDING',
  faceMatchScore: null,
  verifiedAt: null,
  reviewedBy: null,
  reviewNotes: null,
  reviewedAt: null,
  invalidatedAt: null,
  replacedById: null,
  restartedFromId: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
};

describe('routes → operations', () => {
  const cases: Array<{
    name: string;
    method: string;
    path: string;
    body?: unknown;
    field: string;
    variables: Record<string, unknown>;
    /** The REST body (and the GraphQL answer when `answer` is absent). */
    data: unknown;
    /** The GraphQL answer, when it is not the REST body (payloads, connections). */
    answer?: unknown;
    status: number;
  }> = [
    {
      name: 'create API client',
      method: 'POST',
      path: '/admin/api-clients',
      body: { name: 'Acme', permissions: ['identity:read'], rateLimit: 100, environment: 'test', extra: 'dropped' },
      field: 'createApiClient',
      variables: { input: { name: 'Acme', permissions: ['identity:read'], rateLimit: 100, environment: 'TEST' } },
      answer: { apiClient: { id: 'c1', environment: 'TEST' }, apiKey: 'vk_test_x', userErrors: [] },
      // the notice of a key shown once is the spec's (the graph returns the key as a payload field)
      data: { id: 'c1', environment: 'test', apiKey: 'vk_test_x', message: KEY_SHOWN_ONCE },
      status: 201,
    },
    {
      name: 'get identity verification',
      method: 'GET',
      path: '/verifications/identity/iv_1',
      field: 'identityVerification',
      variables: { id: 'iv_1' },
      data: verification,
      status: 200,
    },
    {
      name: 'list identity verifications by user',
      method: 'GET',
      path: '/verifications/identity/user/u1?page=2&limit=5&ignored=1',
      field: 'identityVerifications',
      variables: { userId: 'u1', first: 5, after: offsetCursor(5) },
      answer: { nodes: [verification], totalCount: 6 },
      data: { data: [verification], total: 6, page: 2, limit: 5 },
      status: 200,
    },
    {
      name: 'review identity verification',
      method: 'POST',
      path: '/verifications/identity/iv_1/review',
      body: { decision: 'VERIFIED', reviewedBy: 'ops', reviewNotes: 'ok', tier: 'dropped' },
      field: 'reviewIdentityVerification',
      variables: { input: { id: 'iv_1', decision: 'VERIFIED', reviewedBy: 'ops', reviewNotes: 'ok' } },
      answer: { identityVerification: { ...verification, overallStatus: 'VERIFIED' }, userErrors: [] },
      data: { ...verification, overallStatus: 'VERIFIED' },
      status: 200,
    },
    {
      name: 'restart identity verification',
      method: 'POST',
      path: '/verifications/identity/iv_1/restart',
      field: 'restartIdentityVerification',
      variables: { id: 'iv_1' },
      answer: { identityVerification: { ...verification, id: 'iv_2', restartedFromId: { id: 'iv_1' } }, userErrors: [] },
      data: { ...verification, id: 'iv_2', restartedFromId: 'iv_1' },
      status: 200,
    },
    {
      name: 'configure webhook',
      method: 'POST',
      path: '/webhooks/configure',
      body: { clientId: 'c1', callbackUrl: 'https://example.test/hook', events: ['identity.verified'] },
      field: 'configureWebhook',
      variables: { input: { clientId: 'c1', callbackUrl: 'https://example.test/hook', events: ['IDENTITY_VERIFIED'] } },
      answer: { webhook: { id: 'wh_1', clientId: { id: 'c1' }, events: ['IDENTITY_VERIFIED'] }, secret: 'whsec_x', userErrors: [] },
      // the notice of a secret shown once is the spec's (the graph returns the secret as a payload field)
      data: { id: 'wh_1', clientId: 'c1', events: ['identity.verified'], secret: 'whsec_x', message: SECRET_SHOWN_ONCE },
      status: 201,
    },
    {
      name: 'list webhooks of a client',
      method: 'GET',
      path: '/webhooks/client/c1?page=2&limit=2',
      field: 'webhooks',
      variables: { clientId: 'c1', first: 2, after: offsetCursor(2) },
      answer: {
        nodes: [
          { id: 'wh_2', active: true },
          { id: 'wh_1', active: true },
        ],
        totalCount: 4,
      },
      data: [
        { id: 'wh_2', active: true },
        { id: 'wh_1', active: true },
      ],
      status: 200,
    },
    {
      name: 'delete webhook',
      method: 'DELETE',
      path: '/webhooks/wh_1',
      field: 'deactivateWebhook',
      variables: { id: 'wh_1' },
      answer: { webhook: { id: 'wh_1', active: false }, userErrors: [] },
      // the spec's notice names the webhook (the graph returns the webhook itself)
      data: { id: 'wh_1', active: false, message: 'Webhook deactivated: wh_1' },
      status: 200,
    },
    {
      name: 'revoke API client',
      method: 'DELETE',
      path: '/admin/api-clients/c1',
      field: 'revokeApiClient',
      variables: { id: 'c1' },
      answer: { apiClient: { id: 'c1', service: 'RISK', environment: 'LIVE', active: false }, userErrors: [] },
      data: { id: 'c1', service: 'risk', environment: 'live', active: false },
      status: 200,
    },
    {
      name: 'rotate API client key',
      method: 'POST',
      path: '/admin/api-clients/c1/rotate',
      field: 'rotateApiClientKey',
      variables: { id: 'c1' },
      answer: { apiClient: { id: 'c1', service: 'NOTIFY' }, apiKey: 'nk_live_y', userErrors: [] },
      data: { id: 'c1', service: 'notify', apiKey: 'nk_live_y', message: KEY_SHOWN_ONCE },
      status: 201,
    },
    {
      name: 'get device assessment',
      method: 'GET',
      path: '/intelligence/device/dfp_1',
      field: 'deviceAssessment',
      variables: { id: 'dfp_1' },
      answer: { id: 'da_1', device: { deviceType: 'MOBILE' }, reasons: [{ signal: 'KNOWN_FRAUD_DEVICE', weight: 0.6 }] },
      data: { id: 'da_1', device: { deviceType: 'mobile' }, reasons: [{ signal: 'knownFraudDevice', weight: 0.6 }] },
      status: 200,
    },
    {
      name: 'analyse an IP (Form B)',
      method: 'POST',
      path: '/intelligence/ip/check',
      body: { ipAddress: '8.8.8.8', userId: 'u1' },
      field: 'analyzeIp',
      variables: { ipAddress: '8.8.8.8', userId: 'u1' },
      answer: { ipAnalysis: { id: 'ip_1', ip: '8.8.8.8' }, userErrors: [] },
      data: { id: 'ip_1', ip: '8.8.8.8' },
      status: 200,
    },
  ];

  for (const prefix of ['', '/v1']) {
    it.each(cases)(
      `${prefix || '(no prefix)'} $name`,
      async ({ method, path, body, field, variables, data, answer: graphqlData, status }) => {
        answer = reply({ [field]: graphqlData ?? data });
        const res = await call(method, prefix + path, body);
        expect(res.status).toBe(status);
        expect(await res.json()).toEqual(data);
        expect(last().query).toContain(`${field}(`);
        expect(last().variables).toEqual(variables);
      },
    );
  }

  it('answers 201 for a new identity verification and 200 for the active one', async () => {
    answer = reply({ createIdentityVerification: { created: true, identityVerification: verification, userErrors: [] } });
    let res = await call('POST', '/v1/verifications/identity', { userId: 'u1', tier: 'BASIC', unknown: true });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual(verification);
    expect(last().variables).toEqual({ input: { userId: 'u1', tier: 'BASIC' } });

    answer = reply({ createIdentityVerification: { created: false, identityVerification: verification, userErrors: [] } });
    res = await call('POST', '/verifications/identity', { userId: 'u1' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(verification);
  });

  it('passes a body field of the wrong JSON type through for GraphQL to judge', async () => {
    answer = reply({ createIdentityVerification: { created: true, identityVerification: verification, userErrors: [] } });
    await call('POST', '/verifications/identity', { userId: 42, tier: ['BASIC'] });
    expect(last().variables).toEqual({ input: { userId: 42, tier: ['BASIC'] } });
  });

  it('selects every field of the record', async () => {
    answer = reply({ identityVerification: verification });
    await call('GET', '/verifications/identity/iv_1');
    for (const field of Object.keys(verification)) expect(last().query).toMatch(new RegExp(`\\b${field}\\b`));
  });
});

describe('headers', () => {
  it('tells clients an idle connection is kept 65 s, longer than load balancers keep theirs (was 5 s)', async () => {
    const res = await fetch(`${adapter.url}/health`);
    expect(res.headers.get('keep-alive')).toBe('timeout=65');
  });

  it('forwards credentials, idempotency key, request id and client IP; copies rate-limit headers back', async () => {
    answer = {
      headers: { 'ratelimit-limit': '100', 'ratelimit-remaining': '99', 'ratelimit-reset': '60', 'x-internal': 'no' },
      body: { data: { createApiClient: { apiClient: { id: 'c1' }, apiKey: 'vk_test_x', userErrors: [] } } },
    };
    const res = await call(
      'POST',
      '/admin/api-clients',
      { name: 'Acme' },
      {
        'x-api-key': 'vk_test_abc',
        authorization: 'Bearer risk_test_abc',
        'x-admin-secret': 's3cret',
        'idempotency-key': 'idem-1',
        'x-request-id': 'req-42',
        cookie: 'not=forwarded',
      },
    );
    expect(res.status).toBe(201);
    const sent = last().headers;
    expect(sent).toMatchObject({
      'x-api-key': 'vk_test_abc',
      authorization: 'Bearer risk_test_abc',
      'x-admin-secret': 's3cret',
      'idempotency-key': 'idem-1',
      'x-request-id': 'req-42',
      'x-forwarded-for': '127.0.0.1',
    });
    expect(sent.cookie).toBeUndefined();
    expect(res.headers.get('ratelimit-limit')).toBe('100');
    expect(res.headers.get('ratelimit-remaining')).toBe('99');
    expect(res.headers.get('ratelimit-reset')).toBe('60');
    expect(res.headers.get('x-request-id')).toBe('req-42');
    expect(res.headers.get('x-internal')).toBeNull();
    // an answer is the caller's own and current: no ETag (express would hash every body for one)
    expect(res.headers.get('etag')).toBeNull();
  });

  it('generates a request id when the client sends none and forwards it', async () => {
    answer = reply({ identityVerification: verification });
    const res = await call('GET', '/verifications/identity/iv_1');
    const id = res.headers.get('x-request-id');
    expect(id).toBeTruthy();
    expect(last().headers['x-request-id']).toBe(id);
  });
});

describe('errors', () => {
  const errorBody = async (res: Response) => {
    const body = (await res.json()) as Record<string, unknown>;
    // Exactly the published fields: nothing else (no stack, no extensions) reaches a client.
    expect(Object.keys(body).sort()).toEqual(['code', 'error', 'message', 'statusCode', 'timestamp']);
    expect(body).toMatchObject({ statusCode: res.status, timestamp: expect.any(String) });
    return body;
  };

  it('maps a gateway HTTP 401 to 401', async () => {
    answer = failure(401, { message: 'Missing or invalid API key', extensions: { code: 'UNAUTHENTICATED' } });
    const res = await call('GET', '/verifications/identity/iv_1');
    expect(res.status).toBe(401);
    expect(await errorBody(res)).toMatchObject({ code: 'UNAUTHENTICATED', error: 'Unauthorized', message: 'Missing or invalid API key' });
  });

  it('maps 429 and copies Retry-After', async () => {
    answer = {
      status: 429,
      headers: { 'retry-after': '17', 'ratelimit-remaining': '0' },
      body: { errors: [{ message: 'Rate limit exceeded', extensions: { code: 'RATE_LIMITED', retryAfter: 17 } }] },
    };
    const res = await call('GET', '/verifications/identity/iv_1');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('17');
    expect(res.headers.get('ratelimit-remaining')).toBe('0');
    expect(await errorBody(res)).toMatchObject({ code: 'RATE_LIMITED', message: 'Rate limit exceeded' });
  });

  it('takes Retry-After from the error when a RATE_LIMITED error comes without the header', async () => {
    answer = failure(200, { message: 'Organization rate limit exceeded', extensions: { code: 'RATE_LIMITED', retryAfter: 9 } });
    const res = await call('GET', '/verifications/identity/iv_1');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('9');
  });

  it('maps VALIDATION_FAILED to 422 with every message of that code', async () => {
    answer = failure(
      200,
      {
        message: 'a; b',
        extensions: { code: 'VALIDATION_FAILED', messages: ['userId must not be empty', 'tier must be one of: BASIC, STANDARD, ENHANCED'] },
      },
      { message: 'callbackUrl must be an HTTPS URL', extensions: { code: 'VALIDATION_FAILED' } },
      { message: 'other', extensions: { code: 'NOT_FOUND' } },
    );
    const res = await call('POST', '/verifications/identity', { userId: '' });
    expect(res.status).toBe(422);
    expect(await errorBody(res)).toMatchObject({
      code: 'VALIDATION_FAILED',
      error: 'Unprocessable Entity',
      message: ['userId must not be empty', 'tier must be one of: BASIC, STANDARD, ENHANCED', 'callbackUrl must be an HTTPS URL'],
    });
  });

  it('maps a payload’s user errors like GraphQL errors: the first code decides, every message of it is listed', async () => {
    answer = reply({
      reviewIdentityVerification: {
        identityVerification: null,
        userErrors: [
          { field: ['input', 'reviewedBy'], code: 'VALIDATION_FAILED', message: 'reviewedBy must not be empty' },
          { field: ['input', 'reviewNotes'], code: 'VALIDATION_FAILED', message: 'reviewNotes must not be empty' },
          { field: null, code: 'CONFLICT', message: 'other' },
        ],
      },
    });
    const res = await call('POST', '/verifications/identity/iv_1/review', { decision: 'VERIFIED', reviewedBy: '', reviewNotes: '' });
    expect(res.status).toBe(422);
    expect(await errorBody(res)).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: ['reviewedBy must not be empty', 'reviewNotes must not be empty'],
    });
    answer = reply({
      reviewIdentityVerification: {
        identityVerification: null,
        userErrors: [{ field: null, code: 'CONFLICT', message: 'Not reviewable' }],
      },
    });
    const conflict = await call('POST', '/verifications/identity/iv_1/review', { decision: 'VERIFIED', reviewedBy: 'a', reviewNotes: 'b' });
    expect(conflict.status).toBe(409);
    expect(await errorBody(conflict)).toMatchObject({ code: 'CONFLICT', message: 'Not reviewable' });
  });

  it('answers 404 naming the record when a lookup is null', async () => {
    answer = reply({ identityVerification: null });
    const res = await call('GET', '/verifications/identity/iv_9');
    expect(res.status).toBe(404);
    expect(await errorBody(res)).toMatchObject({ code: 'NOT_FOUND', message: 'Identity verification iv_9 not found' });
  });

  it('answers 404 for a device assessment the graph does not find', async () => {
    answer = reply({ deviceAssessment: null });
    const res = await call('GET', '/intelligence/device/dfp_9');
    expect(res.status).toBe(404);
    expect(await errorBody(res)).toMatchObject({ code: 'NOT_FOUND', message: 'Device assessment dfp_9 not found' });
  });

  it('refuses enum values the spec does not list, in its words, and maps the ones it does', async () => {
    const admin = { 'x-admin-secret': 's3cret' };
    for (const service of ['RISK', 'Risk', 'spaceship', 7]) {
      const res = await call('POST', '/admin/api-clients', { name: 'Acme', service, environment: 'TEST' }, admin);
      expect(res.status).toBe(422);
      expect(await errorBody(res)).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: ['service must be one of: verification, risk, notify, all', 'environment must be one of: live, test'],
      });
    }
    const events = await call('POST', '/webhooks/configure', {
      clientId: 'c1',
      callbackUrl: 'https://example.test/hook',
      events: ['identity.verified', 'IDENTITY_REJECTED', 'identity.exploded'],
    });
    expect(events.status).toBe(422);
    expect(((await errorBody(events)).message as string[])[0]).toMatch(
      /^events must be among: document\.verified, .*, batch\.completed \(unknown: IDENTITY_REJECTED, identity\.exploded\)$/,
    );
    expect(received).toHaveLength(0);

    answer = reply({ configureWebhook: { webhook: { id: 'wh_1' }, secret: 'whsec_x', userErrors: [] } });
    await call('POST', '/webhooks/configure', { clientId: 'c1', callbackUrl: 'https://example.test/hook', events: 'aml.batch_complete' });
    expect(last().variables).toEqual({ input: { clientId: 'c1', callbackUrl: 'https://example.test/hook', events: 'AML_BATCH_COMPLETE' } });
    await call('POST', '/webhooks/configure', { clientId: 'c1', callbackUrl: 'https://example.test/hook', events: ['aml.clear', null] });
    expect(last().variables).toMatchObject({ input: { events: ['AML_CLEAR', null] } });
    const notStrings = await call('POST', '/webhooks/configure', {
      clientId: 'c1',
      callbackUrl: 'https://x.test/',
      events: ['aml.clear', 42],
    });
    expect(notStrings.status).toBe(400);
    expect(await errorBody(notStrings)).toMatchObject({ code: 'BAD_USER_INPUT', message: ['events[1] must be a string'] });
  });

  it.each([
    ['NOT_FOUND', 404, 'Identity verification iv_9 not found'],
    ['CONFLICT', 409, 'Verification is not in a reviewable status'],
    ['FORBIDDEN', 403, 'Insufficient permissions'],
    ['INTERNAL', 500, 'Internal error (error id e1)'],
  ])('maps %s to %i', async (code, status, message) => {
    answer = failure(200, { message, extensions: { code } });
    const res = await call('GET', '/verifications/identity/iv_9');
    expect(res.status).toBe(status);
    expect(await errorBody(res)).toMatchObject({ code, message });
  });

  it.each(['GRAPHQL_VALIDATION_FAILED', 'GRAPHQL_PARSE_FAILED', undefined])('maps code %s to 400 BAD_USER_INPUT', async (code) => {
    const message = 'Variable "$input" got invalid value 42 at "input.userId"; String cannot represent a non string value: 42';
    answer = failure(400, { message, extensions: code ? { code } : undefined });
    const res = await call('POST', '/verifications/identity', { userId: 42 });
    expect(res.status).toBe(400);
    expect(await errorBody(res)).toMatchObject({ code: 'BAD_USER_INPUT', message: [message] });
  });

  it('maps an unmasked Apollo INTERNAL_SERVER_ERROR to 500', async () => {
    answer = failure(200, { message: 'Unexpected error', extensions: { code: 'INTERNAL_SERVER_ERROR' } });
    const res = await call('GET', '/verifications/identity/iv_1');
    expect(res.status).toBe(500);
    expect(await errorBody(res)).toMatchObject({ code: 'INTERNAL' });
  });

  it('answers 500 with an error id, never the detail, when the gateway answers no GraphQL response', async () => {
    answer = { status: 502, body: '<html>Bad Gateway</html>' };
    const res = await call('GET', '/verifications/identity/iv_1');
    expect(res.status).toBe(500);
    const body = await errorBody(res);
    expect(body).toMatchObject({ code: 'INTERNAL', message: expect.stringMatching(/^Internal server error \(error id [0-9a-f-]{36}\)$/) });
  });

  it('rejects a malformed JSON body with 400 without calling the gateway', async () => {
    const res = await call('POST', '/verifications/identity', '{"userId": ');
    expect(res.status).toBe(400);
    expect(await errorBody(res)).toMatchObject({ code: 'BAD_USER_INPUT', message: ['Malformed JSON body'] });
    expect(received).toHaveLength(0);
  });

  it('rejects a JSON body that is not an object with 400', async () => {
    const res = await call('POST', '/verifications/identity', [{ userId: 'u1' }]);
    expect(res.status).toBe(400);
    expect(await errorBody(res)).toMatchObject({ message: ['Request body must be a JSON object'] });
  });

  it('rejects a body over 2 MB with 413', async () => {
    const res = await call('POST', '/verifications/identity', { userId: 'u1', padding: 'x'.repeat(2 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expect(await errorBody(res)).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('rejects a non-JSON content type on a JSON route with 415', async () => {
    const res = await fetch(`${adapter.url}/verifications/identity`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'x-api-key': 'vk_test_key' },
      body: 'userId=u1',
    });
    expect(res.status).toBe(415);
    expect(await errorBody(res)).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect(received).toHaveLength(0);
  });

  it('rejects a non-integer page with 400', async () => {
    const res = await call('GET', '/verifications/identity/user/u1?page=two');
    expect(res.status).toBe(400);
    expect(await errorBody(res)).toMatchObject({ code: 'BAD_USER_INPUT', message: ['page must be an integer'] });
    expect(received).toHaveLength(0);
  });

  it('answers 404 with a JSON body for an unknown route', async () => {
    const res = await call('GET', '/v1/nothing/here');
    expect(res.status).toBe(404);
    expect(await errorBody(res)).toMatchObject({ code: 'NOT_FOUND', message: 'Cannot GET /v1/nothing/here' });
  });

  it('answers 503 with Retry-After when the gateway is down; /ready reports it', async () => {
    const down = await startRestAdapter({ gatewayUrl: 'http://127.0.0.1:1/graphql', port: 0, logger });
    try {
      const res = await fetch(`${down.url}/v1/verifications/identity/iv_1`);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(await errorBody(res)).toMatchObject({ code: 'UNAVAILABLE' });
      expect((await fetch(`${down.url}/ready`)).status).toBe(503);
      expect((await fetch(`${adapter.url}/ready`)).status).toBe(200);
    } finally {
      await down.stop();
    }
  });
});

describe('notify routes', () => {
  const at = '2026-11-01T10:00:00.000Z';
  const channel = (name: string, status: string, reason: string | null = null) => ({
    channel: name,
    status,
    provider: 'sandbox',
    latencyMs: null,
    openedAt: null,
    reason,
    attempts: 0,
    sentAt: null,
    deliveredAt: null,
    failedAt: null,
    nextAttemptAt: null,
    updatedAt: at,
  });
  /** What the graph answers: SCREAMING_CASE enums, the template and batch as references. */
  const notification = {
    id: 'n1',
    status: 'DISPATCHED',
    channels: [channel('EMAIL', 'QUEUED'), channel('SMS', 'UNDELIVERABLE', 'the recipient has no phone number')],
    template: { template: 'welcome', templateVersion: 2, templateId: 't2' },
    to: 'ama@example.com',
    recipientId: null,
    batchId: { id: 'b1' },
    createdAt: at,
    updatedAt: at,
  };
  const restChannel = ({ channel: _c, status, latencyMs, openedAt, ...rest }: ReturnType<typeof channel>, email: boolean) => ({
    status: status.toLowerCase(),
    provider: rest.provider,
    latency_ms: latencyMs,
    ...(email ? { opened_at: openedAt } : {}),
    reason: rest.reason,
    attempts: rest.attempts,
    sent_at: rest.sentAt,
    delivered_at: rest.deliveredAt,
    failed_at: rest.failedAt,
    next_attempt_at: rest.nextAttemptAt,
    updated_at: rest.updatedAt,
  });
  /** The spec's record, in its key order. */
  const restNotification = {
    notification_id: 'n1',
    status: 'dispatched',
    channels: { email: restChannel(notification.channels[0], true), sms: restChannel(notification.channels[1], false) },
    template: 'welcome',
    template_version: 2,
    template_id: 't2',
    to: 'ama@example.com',
    recipient_id: null,
    batch_id: 'b1',
    created_at: at,
    updated_at: at,
  };
  const batch = {
    id: 'b1',
    total: 3,
    queued: 1,
    status: 'PROCESSING',
    processed: 2,
    succeeded: 2,
    failed: 0,
    template: { template: 'welcome', templateVersion: 2 },
    channelProgress: [{ channel: 'SMS', queued: 1, sent: 0, delivered: 2, opened: 0, failed: 0, undeliverable: 0 }],
    createdAt: at,
    completedAt: null,
  };
  const restBatch = {
    batch_id: 'b1',
    total: 3,
    queued: 1,
    status: 'processing',
    processed: 2,
    succeeded: 2,
    failed: 0,
    template: 'welcome',
    template_version: 2,
    channels: { sms: { queued: 1, sent: 0, delivered: 2, opened: 0, failed: 0, undeliverable: 0 } },
    created_at: at,
    completed_at: null,
  };
  const template = {
    id: 't2',
    name: 'welcome',
    version: 2,
    channels: ['EMAIL', 'SMS'],
    placeholders: ['first_name'],
    content: { email: { subject: 'Hi', html: '<p>Hi</p>' }, sms: { body: 'Hi' }, push: null },
    createdAt: at,
  };
  const restTemplate = {
    template_id: 't2',
    name: 'welcome',
    version: 2,
    channels: ['email', 'sms'],
    placeholders: ['first_name'],
    content: { email: { subject: 'Hi', html: '<p>Hi</p>' }, sms: { body: 'Hi' } },
    created_at: at,
  };
  /** Byte for byte: the same members in the same order. */
  const text = async (res: Response) => JSON.parse(await res.text());
  const same = (actual: unknown, expected: unknown) => expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));

  it('sends: the input in camelCase, the payload’s notification as the spec’s record', async () => {
    answer = reply({ sendNotification: { notification, userErrors: [] } });
    const body = {
      to: 'ama@example.com',
      template: 'welcome',
      channels: ['email', 'sms'],
      data: { first_name: 'Ama' },
      template_version: 2,
    };
    const res = await call('POST', '/v1/send', body);
    expect(res.status).toBe(202);
    same(await text(res), restNotification);
    expect(last().variables).toEqual({
      input: { to: 'ama@example.com', template: 'welcome', channels: ['EMAIL', 'SMS'], data: { first_name: 'Ama' }, templateVersion: 2 },
    });
  });

  it('lists notifications: filter with the status in SCREAMING_CASE (other values as sent), a page as a connection slice', async () => {
    answer = reply({ notifications: { nodes: [notification], totalCount: 6 } });
    const res = await call('GET', '/notifications?batch_id=b1&status=partially_delivered&to=x&page=2&limit=5');
    same(await text(res), { data: [restNotification], total: 6, page: 2, limit: 5 });
    expect(last().variables).toEqual({
      filter: { batchId: 'b1', status: 'PARTIALLY_DELIVERED', to: 'x' },
      first: 5,
      after: offsetCursor(5),
    });
    await call('GET', '/notifications?status=Delivered');
    expect(last().variables).toEqual({ filter: { status: 'Delivered' }, first: 20, after: null });
  });

  it('reads a notification and a batch; null is a 404 naming the record', async () => {
    answer = reply({ notification });
    same(await text(await call('GET', '/notifications/n1')), restNotification);
    answer = reply({ notificationBatch: batch });
    same(await text(await call('GET', '/send/batch/b1')), restBatch);
    answer = reply({ notificationBatch: null });
    const missing = await call('GET', '/send/batch/b9');
    expect(missing.status).toBe(404);
    expect(await text(missing)).toMatchObject({ code: 'NOT_FOUND', message: 'Batch b9 not found' });
    answer = reply({ notificationBatch: { ...batch, status: 'COMPLETED' } });
    expect((await text(await call('GET', '/send/batch/b1'))).status).toBe('completed');
  });

  it('sends a batch: the payload’s batch as the spec’s record', async () => {
    answer = reply({ sendNotificationBatch: { notificationBatch: batch, userErrors: [] } });
    const res = await call('POST', '/send/batch', { template: 'welcome', channels: ['sms'], recipients: [{ to: '+254700000009' }] });
    expect(res.status).toBe(202);
    same(await text(res), restBatch);
  });

  it('templates: lower-case channels; a missing name or version is a 404 naming it; versions of an unknown name too', async () => {
    answer = reply({ createNotificationTemplate: { notificationTemplate: template, userErrors: [] } });
    const created = await call('POST', '/templates', { name: 'welcome', channels: { sms: { body: 'Hi' } } });
    expect(created.status).toBe(201);
    same(await text(created), restTemplate);
    answer = reply({ notificationTemplate: null });
    expect(await text(await call('GET', '/templates/welcome?version=9'))).toMatchObject({
      code: 'NOT_FOUND',
      message: 'Template welcome version 9 not found',
    });
    expect(await text(await call('GET', '/templates/welcome'))).toMatchObject({ code: 'NOT_FOUND', message: 'Template welcome not found' });
    answer = reply({ notificationTemplateVersions: { nodes: [template, { ...template, version: 1 }], totalCount: 2 } });
    same(await text(await call('GET', '/templates/welcome/versions')), {
      versions: [restTemplate, { ...restTemplate, version: 1 }],
      total: 2,
      page: 1,
      limit: 20,
    });
    expect(last().variables).toEqual({ name: 'welcome', first: 20, after: null });
    answer = reply({ notificationTemplateVersions: { nodes: [], totalCount: 0 } });
    const none = await call('GET', '/templates/nothing/versions');
    expect(none.status).toBe(404);
    expect(await text(none)).toMatchObject({ message: 'Template nothing not found' });
    answer = reply({ notificationTemplates: { nodes: [template], totalCount: 1 } });
    same(await text(await call('GET', '/templates')), { data: [restTemplate], total: 1, page: 1, limit: 20 });
  });

  it('recipients: the id goes in the input; a delete answers the deleted id', async () => {
    const recipient = { id: 'r1', email: null, phone: '+254700000009', pushTokens: [], webPushSubscriptions: [], locale: null };
    answer = reply({ upsertNotificationRecipient: { notificationRecipient: recipient, userErrors: [] } });
    const put = await call('PUT', '/recipients/r1', { phone: '+254700000009', push_tokens: [], id: 'dropped' });
    same(await text(put), { id: 'r1', email: null, phone: '+254700000009', push_tokens: [], web_push_subscriptions: [], locale: null });
    expect(last().variables).toEqual({ input: { phone: '+254700000009', pushTokens: [], id: 'r1' } });
    answer = reply({ deleteNotificationRecipient: { deletedNotificationRecipientId: 'r1', userErrors: [] } });
    same(await text(await call('DELETE', '/recipients/r1')), { id: 'r1', deleted: true });
    answer = reply({
      deleteNotificationRecipient: {
        deletedNotificationRecipientId: null,
        userErrors: [{ field: null, code: 'NOT_FOUND', message: 'Recipient r1 not found' }],
      },
    });
    const gone = await call('DELETE', '/recipients/r1');
    expect(gone.status).toBe(404);
    expect(await text(gone)).toMatchObject({ message: 'Recipient r1 not found' });
  });

  it('sandbox messages: the notification as its id, the channel in lower case', async () => {
    answer = reply({
      sandboxMessages: {
        nodes: [
          {
            id: '7',
            notificationId: { id: 'n1' },
            channel: 'SMS',
            to: '+254700000009',
            subject: null,
            html: null,
            title: null,
            body: 'Hi',
            createdAt: at,
          },
        ],
        totalCount: 1,
      },
    });
    const res = await call('GET', '/sandbox/messages?channel=sms&notification_id=n1');
    same(await text(res), {
      data: [
        {
          id: '7',
          notification_id: 'n1',
          channel: 'sms',
          to: '+254700000009',
          subject: null,
          html: null,
          title: null,
          body: 'Hi',
          created_at: at,
        },
      ],
      total: 1,
      page: 1,
      limit: 20,
    });
    expect(last().variables).toEqual({ filter: { notificationId: 'n1', channel: 'SMS' }, first: 20, after: null });
  });
});

describe('risk routes', () => {
  const risk = { authorization: 'Bearer risk_test_key' };
  const layers = {
    rules: { fired: 1, checked: 9, score: 30 },
    graph: { patternsFound: 1, nodesTraversed: 4, score: 45 },
    sanctions: { hits: 1, listsChecked: 2, score: 38.8 },
  };
  const summary = {
    id: 'ev_1',
    transactionId: 'tx-1',
    score: 72,
    action: 'REVIEW',
    mock: false,
    latencyMs: 3.5,
    layers,
    reasons: ['rule velocity_burst (medium, review): burst'],
    createdAt: '2026-11-01T10:00:00.000Z',
  };
  const restSummary = {
    evaluation_id: 'ev_1',
    transaction_id: 'tx-1',
    score: 72,
    action: 'review',
    mock: false,
    latency_ms: 3.5,
    layers: {
      rules: { fired: 1, checked: 9, score: 30 },
      graph: { patterns_found: 1, nodes_traversed: 4, score: 45 },
      sanctions: { hits: 1, lists_checked: 2, score: 38.8 },
    },
    reasons: ['rule velocity_burst (medium, review): burst'],
    created_at: '2026-11-01T10:00:00.000Z',
  };
  /** A REST body as the client reads it: its key order counts. */
  const text = async (res: Response) => JSON.stringify(await res.json());

  it('evaluates: the body as GraphQL input, the payload’s evaluation as the spec’s snake_case record', async () => {
    answer = reply({ evaluateTransaction: { riskEvaluation: summary, userErrors: [] } });
    const body = { transaction_id: 'tx-1', amount: 10, currency: 'KES', sender: 'a', receiver: 'b', metadata: { device_id: 'd' } };
    const res = await call('POST', '/v1/evaluate', { ...body, unknown: true }, risk);
    expect(res.status).toBe(200);
    expect(await text(res)).toBe(JSON.stringify(restSummary));
    expect(last().variables).toEqual({
      input: { transactionId: 'tx-1', amount: 10, currency: 'KES', sender: 'a', receiver: 'b', metadata: { device_id: 'd' } },
    });
    expect(last().query).toContain('userErrors');
  });

  it('answers the evaluation’s user errors as the spec’s 400 and 409', async () => {
    answer = reply({
      evaluateTransaction: {
        riskEvaluation: null,
        userErrors: [
          { field: ['input', 'amount'], code: 'BAD_USER_INPUT', message: 'amount must be greater than 0' },
          { field: ['input', 'currency'], code: 'BAD_USER_INPUT', message: 'currency must be an ISO 4217 code' },
        ],
      },
    });
    const invalid = await call('POST', '/evaluate', { amount: 0 }, risk);
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({
      code: 'BAD_USER_INPUT',
      message: ['amount must be greater than 0', 'currency must be an ISO 4217 code'],
    });
    answer = reply({
      evaluateTransaction: {
        riskEvaluation: null,
        userErrors: [{ field: null, code: 'CONFLICT', message: 'transaction_id tx-1 was already evaluated' }],
      },
    });
    expect((await call('POST', '/evaluate', { transaction_id: 'tx-1' }, risk)).status).toBe(409);
  });

  it('looks an evaluation up: references as ids, the hit’s list entry in place, enum values in lower case; null is a 404', async () => {
    answer = reply({
      riskEvaluation: {
        ...summary,
        rulesFired: [{ id: 'velocity_burst', name: 'Burst', description: null, version: 1, action: 'REVIEW', severity: 'MEDIUM' }],
        ruleErrors: [],
        graphPatterns: [{ type: 'FAN_IN', weight: 35, accounts: ['b'], length: null, count: 10, ratio: null, device: null }],
        sanctionsHits: [
          {
            party: 'RECEIVER',
            account: { id: 'b' },
            name: 'Amina',
            hit: {
              source: 'CUSTOM_PEP',
              kind: 'PEP',
              externalId: 'P-1',
              primaryName: 'Amina O',
              matchedName: 'Amina',
              score: 0.97,
              listVersion: 'v1',
            },
          },
        ],
        transaction: {
          amount: 10,
          currency: 'KES',
          sender: { id: 'a' },
          receiver: { id: 'b' },
          channel: null,
          metadata: { sender_name: 'X' },
        },
        rulesRevision: '7',
      },
    });
    const res = await call('GET', '/v1/evaluations/ev_1', undefined, risk);
    expect(res.status).toBe(200);
    expect(await text(res)).toBe(
      JSON.stringify({
        ...restSummary,
        rules_fired: [{ id: 'velocity_burst', name: 'Burst', description: null, version: 1, action: 'review', severity: 'medium' }],
        rule_errors: [],
        graph_patterns: [{ type: 'fan_in', weight: 35, accounts: ['b'], count: 10 }],
        sanctions_hits: [
          {
            party: 'receiver',
            account: 'b',
            name: 'Amina',
            source: 'CUSTOM_PEP',
            kind: 'PEP',
            external_id: 'P-1',
            primary_name: 'Amina O',
            matched_name: 'Amina',
            score: 0.97,
            list_version: 'v1',
          },
        ],
        transaction: { amount: 10, currency: 'KES', sender: 'a', receiver: 'b', channel: null, metadata: { sender_name: 'X' } },
        rules_revision: '7',
      }),
    );
    expect(last().variables).toEqual({ id: 'ev_1' });

    answer = reply({ riskEvaluation: null });
    const missing = await call('GET', '/evaluations/ev_9', undefined, risk);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Evaluation ev_9 not found' });
  });

  it('lists a page of rules, with the spec’s lower-case action and severity', async () => {
    const rule = (id: string) => ({
      id,
      name: id,
      description: null,
      condition: 'true',
      action: 'BLOCK',
      severity: 'HIGH',
      enabled: true,
      version: 1,
      isDefault: false,
      createdAt: '2026-11-01T10:00:00.000Z',
      updatedAt: '2026-11-01T10:00:00.000Z',
    });
    answer = reply({ riskRules: { nodes: [rule('b_rule'), rule('a_rule')], totalCount: 12 } });
    const res = await call('GET', '/v1/rules?page=2&limit=10', undefined, risk);
    expect(res.status).toBe(200);
    const restRule = (id: string) => ({
      id,
      name: id,
      description: null,
      condition: 'true',
      action: 'block',
      severity: 'high',
      enabled: true,
      version: 1,
      is_default: false,
      created_at: '2026-11-01T10:00:00.000Z',
      updated_at: '2026-11-01T10:00:00.000Z',
    });
    expect(await text(res)).toBe(JSON.stringify({ rules: [restRule('b_rule'), restRule('a_rule')], total: 12, page: 2, limit: 10 }));
    expect(last().variables).toEqual({ first: 10, after: offsetCursor(10) });
  });

  it('upserts a rule: enum values in GraphQL’s case, the change as the spec reports it, 201 when created', async () => {
    answer = reply({
      upsertRiskRule: {
        ruleId: { id: 'large' },
        updated: true,
        effectiveAt: '2026-11-01T10:00:00.000Z',
        created: true,
        ruleVersion: { version: 1 },
        revision: '12',
        userErrors: [],
      },
    });
    const res = await call('PUT', '/v1/rules/large', { condition: 'true', action: 'review', severity: 'high', other: 1 }, risk);
    expect(res.status).toBe(201);
    expect(await text(res)).toBe(
      JSON.stringify({ id: 'large', updated: true, effective_at: '2026-11-01T10:00:00.000Z', created: true, version: 1, revision: '12' }),
    );
    expect(last().variables).toEqual({ input: { id: 'large', condition: 'true', action: 'REVIEW', severity: 'HIGH' } });
    expect(last().query).toContain('upsertRiskRule(');
  });

  it('refuses an action or severity the spec does not list in the rules’ own words, without calling GraphQL', async () => {
    const res = await call('PUT', '/v1/rules/large', { condition: 'true', action: 'deny', severity: 'extreme' }, risk);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 'BAD_USER_INPUT',
      message: ['action must be one of: review, block', 'severity must be one of: low, medium, high, critical'],
    });
    const typed = await call('PUT', '/v1/rules/large', { condition: 'true', action: 7 }, risk);
    expect(typed.status).toBe(400);
    expect(await typed.json()).toMatchObject({ message: ['action must be a string'] });
    expect(received).toHaveLength(0);
  });

  it('runs a graph query with its JSON parameters', async () => {
    answer = reply({ riskGraphQuery: { results: [{ b_id: 'x' }], nodesScanned: 3, latencyMs: 1.2, truncated: false, columns: ['b_id'] } });
    const res = await call('POST', '/v1/graph/query', { query: 'MATCH (a) RETURN a.id AS b_id', params: { id: 'a' } }, risk);
    expect(await text(res)).toBe(
      JSON.stringify({ results: [{ b_id: 'x' }], nodes_scanned: 3, latency_ms: 1.2, truncated: false, columns: ['b_id'] }),
    );
    expect(last().variables).toEqual({ query: 'MATCH (a) RETURN a.id AS b_id', params: { id: 'a' } });
  });
});

describe('screening routes → operations (GraphQL shapes back to the spec’s records)', () => {
  const hit = {
    listName: 'UN_SC',
    source: 'UN_SC',
    kind: 'SANCTIONS',
    externalId: 'QDi.901',
    entityType: 'INDIVIDUAL',
    primaryName: 'Ahmed Musa Bello',
    matchedName: 'Ahmed Musa Bello',
    score: 0.97,
    programs: ['ISIL'],
    addedDate: '2019-05-02',
    listVersion: 'v1',
  };
  const review = { resolution: 'OPEN', resolvedBy: null, resolutionReason: null, resolvedAt: null };
  const explanation = (how: string, kind: string) => ({
    nameScore: 0.95,
    tokens: [{ query: 'ahmed', matched: 'ahmed', how, score: 1, weight: 1 }],
    qualifiers: [{ kind, effect: 0.05, detail: 'exact date of birth 1970-03-12' }],
  });
  const screening = (match: Record<string, unknown>, batch: unknown) => ({
    id: 's1',
    userId: 'u1',
    fullName: 'Bello Ahmed Musa',
    dateOfBirth: '1970-03-12',
    nationality: 'NG',
    documentNumber: null,
    matchThreshold: 0.85,
    lists: ['SANCTIONS'],
    status: 'POTENTIAL_MATCH',
    riskLevel: 'HIGH',
    matchCount: 1,
    matches: [match],
    listsChecked: ['UN_SC'],
    listVersions: [{ source: 'UN_SC', version: 'v1', kind: 'SANCTIONS' }],
    batchId: batch,
    checkedAt: '2026-11-01T10:00:00.000Z',
    resolvedAt: null,
    createdAt: '2026-11-01T10:00:00.000Z',
    updatedAt: '2026-11-01T10:00:00.000Z',
  });
  const graphScreening = screening({ id: 'm1', hit, explanation: explanation('EXACT', 'DATE_OF_BIRTH'), ...review }, { id: 'b1' });
  const restScreening = screening({ id: 'm1', ...hit, explanation: explanation('exact', 'dateOfBirth'), ...review }, 'b1');
  const batch = (results: unknown) => ({
    id: 'b1',
    status: 'COMPLETED',
    total: 1,
    processed: 1,
    clearCount: 0,
    flaggedCount: 1,
    failedCount: 0,
    callbackUrl: null,
    callbackStatus: null,
    callbackAttempts: 0,
    callbackLastStatusCode: null,
    callbackDeliveredAt: null,
    callbackNextAttemptAt: null,
    createdAt: '2026-11-01T10:00:00.000Z',
    completedAt: '2026-11-01T10:00:01.000Z',
    results,
  });
  const line = (screeningId: unknown) => ({
    position: 0,
    userId: 'u1',
    fullName: 'Ahmed Musa Bello',
    status: 'POTENTIAL_MATCH',
    screeningId,
    riskLevel: 'HIGH',
    matchCount: 1,
    error: null,
  });
  const alert = (subscriptionId: unknown, match: Record<string, unknown>) => ({
    id: 'wa1',
    subscriptionId,
    userId: 'u1',
    status: 'OPEN',
    match,
    detectedAt: '2026-11-01T10:00:00.000Z',
    clearedAt: null,
    reviewedBy: null,
    reviewNote: null,
    reviewedAt: null,
  });
  const alertMatch = {
    listName: 'UN_SC',
    matchScore: 0.97,
    matchedName: 'Ahmed Musa Bello',
    source: 'UN_SC',
    addedDate: null,
    kind: 'SANCTIONS',
    externalId: 'QDi.901',
    primaryName: 'Ahmed Musa Bello',
    listVersion: 'v1',
    programs: [],
  };
  const subscription = { id: 'ws1', userId: 'u1', status: 'CANCELLED' };

  const cases: Array<{
    name: string;
    method: string;
    path: string;
    body?: unknown;
    field: string;
    variables: Record<string, unknown>;
    answer: unknown;
    data: unknown;
    status: number;
  }> = [
    {
      name: 'screen a person',
      method: 'POST',
      path: '/screening/aml',
      body: { userId: 'u1', fullName: 'Bello Ahmed Musa', lists: ['SANCTIONS'], extra: 'dropped' },
      field: 'screenAml',
      variables: { input: { userId: 'u1', fullName: 'Bello Ahmed Musa', lists: ['SANCTIONS'] } },
      answer: { amlScreening: graphScreening, userErrors: [] },
      data: restScreening,
      status: 200,
    },
    {
      name: 'list a user’s screenings',
      method: 'GET',
      path: '/screening/aml/user/u1?page=2&limit=5',
      field: 'amlScreenings',
      variables: { userId: 'u1', first: 5, after: offsetCursor(5) },
      answer: { nodes: [graphScreening], totalCount: 6 },
      data: { data: [restScreening], total: 6, page: 2, limit: 5 },
      status: 200,
    },
    {
      name: 'resolve a match',
      method: 'POST',
      path: '/screening/aml/s1/matches/m1/resolve',
      body: { resolution: 'FALSE_POSITIVE', resolvedBy: 'o', reason: 'r' },
      field: 'resolveAmlMatch',
      variables: { input: { resolution: 'FALSE_POSITIVE', resolvedBy: 'o', reason: 'r', screeningId: 's1', matchId: 'm1' } },
      answer: { amlScreening: graphScreening, userErrors: [] },
      data: restScreening,
      status: 200,
    },
    {
      name: 'accept a batch',
      method: 'POST',
      path: '/screening/aml/batch',
      body: { subjects: [{ userId: 'u1', fullName: 'A B', junk: 1 }], callbackUrl: 'https://example.com/cb' },
      field: 'createAmlBatch',
      variables: { input: { subjects: [{ userId: 'u1', fullName: 'A B' }], callbackUrl: 'https://example.com/cb' } },
      answer: {
        amlBatch: { id: 'b1', status: 'PENDING', total: 1, callbackUrl: 'https://example.com/cb', createdAt: '2026-11-01T10:00:00.000Z' },
        callbackSecret: 'whsec_x',
        userErrors: [],
      },
      data: {
        id: 'b1',
        batchId: 'b1',
        status: 'PENDING',
        total: 1,
        callbackUrl: 'https://example.com/cb',
        callbackSecret: 'whsec_x',
        message: 'Batch accepted. The callback is signed with callbackSecret like webhooks; store it: it will not be shown again.',
        createdAt: '2026-11-01T10:00:00.000Z',
      },
      status: 202,
    },
    {
      name: 'get a batch',
      method: 'GET',
      path: '/screening/aml/batch/b1',
      field: 'amlBatch',
      variables: { id: 'b1', subjects: 100 },
      answer: batch({ nodes: [line({ id: 's1' })] }),
      data: batch([line('s1')]),
      status: 200,
    },
    {
      name: 'list watchlist alerts',
      method: 'GET',
      path: '/monitoring/watchlist/alerts?userId=u1&status=OPEN&page=2&limit=5',
      field: 'watchlistAlerts',
      variables: { userId: 'u1', status: 'OPEN', first: 5, after: offsetCursor(5) },
      answer: { nodes: [alert({ id: 'ws1' }, alertMatch)], totalCount: 6 },
      data: { data: [alert('ws1', alertMatch)], pagination: { page: 2, limit: 5, total: 6 } },
      status: 200,
    },
    {
      name: 'review a watchlist alert',
      method: 'POST',
      path: '/screening/watchlist/alerts/wa1/review',
      body: { status: 'DISMISSED', reviewedBy: 'o', note: 'n' },
      field: 'reviewWatchlistAlert',
      variables: { input: { status: 'DISMISSED', reviewedBy: 'o', note: 'n', id: 'wa1' } },
      answer: { watchlistAlert: alert({ id: 'ws1' }, alertMatch), userErrors: [] },
      data: alert('ws1', alertMatch),
      status: 200,
    },
    {
      name: 'cancel a watchlist subscription',
      method: 'DELETE',
      path: '/screening/watchlist/unsubscribe/ws1',
      field: 'cancelWatchlistSubscription',
      variables: { id: 'ws1' },
      answer: { watchlistSubscription: subscription, userErrors: [] },
      data: subscription,
      status: 200,
    },
  ];

  it.each(cases)('$name', async ({ method, path, body, field, variables, answer: graphqlData, data, status }) => {
    answer = reply({ [field]: graphqlData });
    const res = await call(method, path, body);
    expect(res.status).toBe(status);
    const text = await res.text();
    // byte for byte: the same members in the same order
    expect(text).toBe(JSON.stringify(data));
    expect(last().query).toContain(`${field}(`);
    expect(last().variables).toEqual(variables);
  });

  it('answers 404 naming the screening or batch when the lookup is null', async () => {
    answer = reply({ amlScreening: null });
    const res = await call('GET', '/screening/aml/s9');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'NOT_FOUND', message: 'AML screening s9 not found' });
    answer = reply({ amlBatch: null });
    const batchRes = await call('GET', '/screening/aml/batch/b9');
    expect(batchRes.status).toBe(404);
    expect(await batchRes.json()).toMatchObject({ code: 'NOT_FOUND', message: 'AML batch b9 not found' });
  });
});
