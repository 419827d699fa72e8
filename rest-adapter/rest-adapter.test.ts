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
    answer = reply({ sendNotificationBatch: { batchId: 'b1' } });
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
      variables: { input: { name: 'Acme', permissions: ['identity:read'], rateLimit: 100, environment: 'test' } },
      data: { id: 'c1', apiKey: 'vk_test_x' },
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
      variables: { input: { clientId: 'c1', callbackUrl: 'https://example.test/hook', events: ['identity.verified'] } },
      data: { id: 'wh_1', secret: 'whsec_x' },
      status: 201,
    },
    {
      name: 'list webhooks of a client',
      method: 'GET',
      path: '/webhooks/client/c1',
      field: 'webhooksByClient',
      variables: { clientId: 'c1' },
      data: [{ id: 'wh_1', active: true }],
      status: 200,
    },
    {
      name: 'delete webhook',
      method: 'DELETE',
      path: '/webhooks/wh_1',
      field: 'deleteWebhook',
      variables: { id: 'wh_1' },
      data: { id: 'wh_1', active: false, message: 'Webhook deactivated' },
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
  it('forwards credentials, idempotency key, request id and client IP; copies rate-limit headers back', async () => {
    answer = {
      headers: { 'ratelimit-limit': '100', 'ratelimit-remaining': '99', 'ratelimit-reset': '60', 'x-internal': 'no' },
      body: { data: { createApiClient: { id: 'c1' } } },
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
