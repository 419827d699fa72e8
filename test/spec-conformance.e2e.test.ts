import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { getNamedType } from 'graphql';
import { routes } from '../rest-adapter/routes.js';
import { routeRootField } from './support/references.js';
import type { Route } from '../platform/rest/route.js';
import { SPEC_ENDPOINTS, type SpecEndpoint } from './support/spec-tables.js';
import { restCall, restRequests } from './support/probes.js';
import { ADMIN_SECRET, eventually, startTestStack, type TestStack } from './support/stack.js';
import { identityCheckImages, listPerson, seedTenant, type SeededTenant } from './support/tenants.js';
import { selfSignedCertificate, startReceiver } from './support/https-receiver.js';
import { portrait } from './support/faces.js';
import { poses } from './support/poses.js';
import { form } from './support/liveness.js';
import { daysAgo, electricityBill } from './support/bills.js';

/**
 * Both specifications walked table by table (test/support/spec-tables.ts is their transcription):
 * every Form A and Form B path is a route of the table, takes the payload, file and query names
 * the spec gives, answers with the spec's status, and documents in OpenAPI every member the spec
 * names.
 */

const OPENAPI = JSON.parse(readFileSync(path.resolve('schema', 'openapi.json'), 'utf8'));

/** `/a/{id}/b` and `/a/:id/b` alike. */
const shape = (p: string) => p.replace(/\{\w+\}|:\w+/g, '{}');
const label = (e: SpecEndpoint) => `${e.method} ${e.path}${e.form ? ` (Form ${e.form})` : ''}`;

export function routeOf(e: SpecEndpoint): Route | undefined {
  return routes.find((r) => r.method === e.method && shape(r.path) === shape(e.path));
}

/** Whether a JSON schema (OpenAPI 3.1) describes the member at `member` (dotted, `[]` for items). */
export function describes(schema: any, member: string): boolean {
  if (!member) return true;
  const variants = [schema, ...(schema.oneOf ?? []), ...(schema.anyOf ?? []), ...(schema.allOf ?? [])];
  if (member.startsWith('[]')) {
    const rest = member.slice(2).replace(/^\./, '');
    return variants.some((s) => s.items && describes(s.items, rest));
  }
  const [, head, tail = ''] = /^([^.[]+)(.*)$/.exec(member)!;
  const rest = tail.replace(/^\./, '');
  return variants.some((s) => {
    const next = s.properties?.[head] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
    return next !== undefined && describes(next, rest);
  });
}

function responseSchema(e: SpecEndpoint, status: number): any {
  const route = routeOf(e)!;
  const operation = OPENAPI.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[e.method.toLowerCase()];
  return operation?.responses?.[String(status)]?.content?.['application/json']?.schema;
}

/** Rows of one method and path (a route serving two Forms declares both Forms' fields, none of them required). */
const formsOf = (e: SpecEndpoint) => SPEC_ENDPOINTS.filter((o) => o.method === e.method && shape(o.path) === shape(e.path));

describe('the route table against both specifications, table by table', () => {
  it.each(SPEC_ENDPOINTS.map((e) => [label(e), e] as const))('%s is a route', (_l, e) => {
    expect(routeOf(e)).toBeDefined();
  });

  it.each(SPEC_ENDPOINTS.filter((e) => e.required || e.optional).map((e) => [label(e), e] as const))(
    '%s takes the payload fields the spec names',
    (_l, e) => {
      const route = routeOf(e)!;
      // a multipart route's JSON Form (a URL instead of a file) declares its own fields
      const fields = e.form === 'B' && route.json ? route.json : (route.body ?? []);
      const names = fields.map((f) => f.name);
      expect([...(e.required ?? []), ...(e.optional ?? [])].filter((n) => !names.includes(n))).toEqual([]);
      if (formsOf(e).length === 1) {
        const required = fields.filter((f) => f.required).map((f) => f.name);
        expect([...required].sort()).toEqual([...(e.required ?? [])].sort());
      }
    },
  );

  it.each(SPEC_ENDPOINTS.filter((e) => e.files).map((e) => [label(e), e] as const))('%s takes the files the spec names', (_l, e) => {
    expect((routeOf(e)!.files ?? []).map((f) => f.name)).toEqual(expect.arrayContaining([...e.files!]));
  });

  it.each(SPEC_ENDPOINTS.filter((e) => e.query).map((e) => [label(e), e] as const))(
    '%s takes the query parameters the spec names',
    (_l, e) => {
      expect((routeOf(e)!.query ?? []).map((f) => f.name)).toEqual(expect.arrayContaining([...e.query!]));
    },
  );

  it.each(SPEC_ENDPOINTS.map((e) => [label(e), e] as const))('%s answers the spec’s status', (_l, e) => {
    const route = routeOf(e)!;
    // a create-or-return route answers 201 for a new record and its status for an existing one
    expect([...(route.created ? [201] : []), route.status ?? 200]).toContain(e.status ?? e.ourStatus);
  });

  it.each(SPEC_ENDPOINTS.filter((e) => e.response || e.schemaOnly).map((e) => [label(e), e] as const))(
    '%s documents in OpenAPI every member the spec names',
    (_l, e) => {
      const schema = responseSchema(e, e.status ?? e.ourStatus ?? 200);
      expect(schema).toBeDefined();
      expect([...(e.response ?? []), ...(e.schemaOnly ?? [])].filter((m) => !describes(schema, m))).toEqual([]);
    },
  );

  it('every list takes page and limit', () => {
    const unpaged = routes
      .filter((r) => r.method === 'GET' && getNamedType(routeRootField(r).field.type).name.endsWith('Connection'))
      .filter((r) => !['page', 'limit'].every((n) => r.query?.some((q) => q.name === n)))
      .map((r) => `${r.method} ${r.path}`);
    expect(unpaged).toEqual([]);
  });
});

/** What one call of a spec row sends (path without the prefix). */
interface Call {
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** The member at a dotted path exists in `value` (`[]`: in every item of a non-empty array). */
function hasMember(value: any, member: string): boolean {
  if (!member) return true;
  if (member.startsWith('[]')) {
    const rest = member.slice(2).replace(/^\./, '');
    return Array.isArray(value) && value.length > 0 && value.every((item) => hasMember(item, rest));
  }
  const [, head, tail = ''] = /^([^.[]+)(.*)$/.exec(member)!;
  return value !== null && typeof value === 'object' && head in value && hasMember(value[head], tail.replace(/^\./, ''));
}

describe('the running stack against both specifications: with and without /v1, the spec’s header and status', () => {
  const cert = selfSignedCertificate();
  let stack: TestStack;
  let tenant: SeededTenant;
  /** A test-environment (sandbox) key of the tenant's organization: its OTPs are 123456. */
  let sandbox: Record<string, string>;
  const fixed: Record<string, string> = {};
  let fresh = 0;
  const unique = (what: string) => `${tenant.marker}-${what}-${++fresh}`;
  const headersOf = (e: SpecEndpoint) => (e.service === 'admin' ? { 'x-admin-secret': ADMIN_SECRET } : tenant.headers[e.service]);

  /** A record made for one call (a call that changes it cannot be repeated on the same one). */
  const made = async (path: string, body: unknown, headers = tenant.headers.verification) => {
    const res = await stack.rest('POST', path, body, headers);
    if (res.status >= 300) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const businessOf = () =>
    made('/verifications/business', {
      userId: unique('user'),
      businessName: 'Kilimo Fresh Produce Limited',
      registrationNumber: unique('reg'),
      country: 'KE',
    });

  /** Calls that need a record of their own, or values of their own; the others are the route's example with the tenant's records. */
  const calls: Record<string, () => Promise<Call>> = {
    'POST /verifications/identity': async () => ({ path: '/verifications/identity', body: { userId: unique('user'), tier: 'STANDARD' } }),
    'POST /verifications/identity/{id}/review': async () => {
      const { id } = await made('/verifications/identity', { userId: unique('user') });
      return { path: `/verifications/identity/${id}/review`, body: { decision: 'VERIFIED', reviewedBy: 'officer', reviewNotes: 'seen' } };
    },
    'POST /verifications/identity/{id}/restart': async () => {
      const { id } = await made('/verifications/identity', { userId: unique('user') });
      return { path: `/verifications/identity/${id}/restart` };
    },
    'POST /verifications/liveness/challenge': async () => {
      const session = await made('/verifications/liveness/session', { userId: unique('user') });
      const photo = await portrait('woman');
      return {
        path: '/verifications/liveness/challenge',
        body: form({ sessionToken: session.sessionToken, challengeId: session.challenges[0].id }, { photo: { bytes: photo } }),
      };
    },
    'POST /verifications/liveness/reference-selfie': async () => {
      const session = await made('/verifications/liveness/session', { userId: unique('user') });
      return {
        path: '/verifications/liveness/reference-selfie',
        body: form({ sessionToken: session.sessionToken }, { selfie: { bytes: (await poses()).frontal } }),
      };
    },
    'POST /verifications/phone': async () => ({
      path: '/verifications/phone',
      body: { phoneNumber: `+2547${String(++fresh).padStart(8, '0')}`, userId: unique('user'), channel: 'SMS' },
    }),
    'POST /verifications/phone/{id}/verify (Form A)': async () => {
      const { id } = await made(
        '/verifications/phone',
        { phoneNumber: `+2547${String(++fresh).padStart(8, '0')}`, userId: unique('user') },
        sandbox,
      );
      return { path: `/verifications/phone/${id}/verify`, body: { code: '123456' }, headers: sandbox };
    },
    'POST /verifications/phone/verify (Form B)': async () => {
      const { id } = await made(
        '/verifications/phone',
        { phoneNumber: `+2547${String(++fresh).padStart(8, '0')}`, userId: unique('user') },
        sandbox,
      );
      return { path: '/verifications/phone/verify', body: { verificationId: id, code: '123456' }, headers: sandbox };
    },
    'POST /verifications/email': async () => ({
      path: '/verifications/email',
      body: { email: `${unique('mail')}@example.com`, userId: unique('user') },
    }),
    'POST /verifications/email/{id}/verify (Form A)': async () => {
      const { id } = await made('/verifications/email', { email: `${unique('mail')}@example.com`, userId: unique('user') }, sandbox);
      return { path: `/verifications/email/${id}/verify`, body: { code: '123456' }, headers: sandbox };
    },
    'POST /verifications/email/verify (Form B)': async () => {
      const { id } = await made('/verifications/email', { email: `${unique('mail')}@example.com`, userId: unique('user') }, sandbox);
      return { path: '/verifications/email/verify', body: { verificationId: id, code: '123456' }, headers: sandbox };
    },
    'POST /verifications/address (Form B)': async () => ({
      path: '/verifications/address',
      body: {
        userId: unique('user'),
        documentType: 'UTILITY_BILL',
        documentUrl: bills.url,
        declaredAddress: '12 Moi Avenue, Nairobi',
      },
    }),
    'POST /verifications/address/{id}/review': async () => {
      // a near address (14 for 12) is sent to a reviewer
      const bill = await electricityBill('AMINA WANJIKU', ['12 Moi Avenue, Apt 4', 'Nairobi 00100'], daysAgo(5));
      const { id } = await made(
        '/verifications/address',
        form(
          { userId: unique('user'), documentType: 'UTILITY_BILL', country: 'KE', expectedAddress: '14 Moi Avenue, Nairobi' },
          { document: { bytes: bill } },
        ),
      );
      await eventually(
        async () =>
          (await stack.rest('GET', `/verifications/address/${id}`, undefined, tenant.headers.verification)).body.status === 'MANUAL_REVIEW',
        60_000,
      );
      return { path: `/verifications/address/${id}/review`, body: { decision: 'VERIFIED', reviewedBy: 'officer', reviewNotes: 'seen' } };
    },
    'POST /verifications/business': async () => ({
      path: '/verifications/business',
      body: {
        userId: unique('user'),
        businessName: 'Kilimo Fresh Produce Limited',
        registrationNumber: unique('reg'),
        country: 'KE',
        businessType: 'LLC',
      },
    }),
    'POST /verifications/business/{id}/directors (Form A)': async () => ({
      path: `/verifications/business/${(await businessOf()).id}/directors`,
      body: { directors: [{ fullName: 'Wanjiku Kamau', role: 'Managing Director' }] },
    }),
    'POST /verifications/business/{id}/directors (Form B)': async () => ({
      path: `/verifications/business/${(await businessOf()).id}/directors`,
      body: { fullName: 'Wanjiku Kamau', position: 'Managing Director', nationality: 'KE' },
    }),
    'POST /verifications/business/{id}/ubos (Form A)': async () => ({
      path: `/verifications/business/${(await businessOf()).id}/ubos`,
      body: { ubos: [{ fullName: 'Wanjiku Kamau', ownershipPercentage: 60, controlType: 'DIRECT' }] },
    }),
    'POST /verifications/business/{id}/ubos (Form B)': async () => ({
      path: `/verifications/business/${(await businessOf()).id}/ubos`,
      body: { fullName: 'Wanjiku Kamau', ownershipPercentage: 60 },
    }),
    'POST /monitoring/watchlist/subscribe (Form A)': async () => ({
      path: '/monitoring/watchlist/subscribe',
      body: { userId: unique('user'), fullName: 'Kofi Mensah', lists: ['SANCTIONS', 'PEP'] },
    }),
    'POST /screening/watchlist/subscribe (Form B)': async () => ({
      path: '/screening/watchlist/subscribe',
      body: { userId: unique('user'), fullName: 'Kofi Mensah', country: 'GH' },
    }),
    'POST /evaluate': async () => ({
      path: '/evaluate',
      body: {
        transaction_id: unique('tx'),
        amount: 1200,
        currency: 'KES',
        sender: tenant.refs.RiskAccount[0],
        receiver: unique('account'),
      },
    }),
    'DELETE /monitoring/watchlist/subscribe/{id} (Form A)': async () => ({
      path: `/monitoring/watchlist/subscribe/${(await made('/monitoring/watchlist/subscribe', { userId: unique('user'), fullName: 'Kofi Mensah' })).id}`,
    }),
    'DELETE /screening/watchlist/unsubscribe/{id} (Form B)': async () => ({
      path: `/screening/watchlist/unsubscribe/${(await made('/screening/watchlist/subscribe', { userId: unique('user'), fullName: 'Kofi Mensah' })).id}`,
    }),
    'DELETE /webhooks/{id}': async () => ({
      path: `/webhooks/${(await made('/webhooks/configure', { clientId: tenant.clientId, callbackUrl: fixed.callbackUrl, events: ['aml.clear'] })).id}`,
    }),
  };

  /** The route's example with the tenant's own records (a valid call). */
  const exampleCall = (e: SpecEndpoint): Call => {
    const request = restRequests().find((r) => r.route === routeOf(e))!;
    const { url, body } = restCall(request, tenant.refs, new Map(), fixed);
    return { path: url.replace(/^\/v1/, ''), body };
  };
  const callOf = (e: SpecEndpoint) => (calls[label(e)] ?? (async () => exampleCall(e)))();

  /** Serves a bill for Form B's documentUrl (fetched when the verification is made). */
  const bills = { url: '', close: async () => undefined as unknown };

  beforeAll(async () => {
    const bill = await electricityBill('AMINA WANJIKU', ['12 Moi Avenue, Apt 4', 'Nairobi 00100'], daysAgo(5));
    const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/jpeg' }).end(bill));
    await new Promise<void>((resolve) => server.listen({ port: 0, host: '::', ipv6Only: false }, resolve));
    bills.url = `http://localhost:${(server.address() as AddressInfo).port}/bill.jpg`;
    bills.close = () => new Promise((resolve) => server.close(resolve));
    stack = await startTestStack({}, { webhookCa: cert.cert });
    await listPerson(stack);
    const receiver = await startReceiver(cert);
    fixed.callbackUrl = receiver.url;
    // an AI identity check needs a real selfie and document to be accepted
    Object.assign(fixed, await identityCheckImages());
    tenant = await seedTenant(stack, { webhookUrl: receiver.url });
    const test = await stack.createClient({ name: 'sandbox', environment: 'test', organizationId: tenant.organizationId });
    sandbox = { 'x-api-key': test.apiKey };
  }, 180_000);
  afterAll(async () => {
    await stack?.stop();
    await bills.close();
  });

  describe.each(['/v1', ''])('prefix %j', (prefix) => {
    it.each(SPEC_ENDPOINTS.map((e) => [label(e), e] as const))('%s', async (_l, e) => {
      const call = await callOf(e);
      const res = await stack.rest(e.method, prefix + call.path, call.body, call.headers ?? headersOf(e));
      expect(`${res.status} ${JSON.stringify(res.body).slice(0, 300)}`).toMatch(new RegExp(`^${e.status ?? e.ourStatus} `));
      expect((e.response ?? []).filter((m) => !hasMember(res.body, m))).toEqual([]);
      if (e.answers) expect(res.body).toMatchObject(e.answers);
      if (e.list === 'page') expect(res.body).toMatchObject({ data: expect.any(Array), total: expect.any(Number), page: 1, limit: 20 });
      if (e.list === 'pagination')
        expect(res.body).toMatchObject({ data: expect.any(Array), pagination: { page: 1, limit: 20, total: expect.any(Number) } });
      if (e.list === 'array') {
        expect(Array.isArray(res.body)).toBe(true);
        expect(Number(res.headers.get('x-total-count'))).toBeGreaterThanOrEqual(res.body.length);
      }
      if (typeof e.list === 'object')
        expect(res.body).toMatchObject({ [e.list.key]: expect.any(Array), total: expect.any(Number), page: 1, limit: 20 });
    });
  });

  it.each(SPEC_ENDPOINTS.map((e) => [label(e), e] as const))('%s without the spec’s header is a 401', async (_l, e) => {
    const { path: p, body } = exampleCall(e);
    const res = await stack.rest(e.method, `/v1${p}`, body);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ statusCode: 401, code: 'UNAUTHENTICATED' });
  });

  const pagedRoutes = routes.filter((r) => r.query?.some((q) => q.name === 'limit'));
  it.each(pagedRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s pages: limit above 100 is a 400, a page of 1 holds 1',
    async (_l, route) => {
      const request = restRequests().find((r) => r.route === route)!;
      const { url } = restCall(request, tenant.refs);
      const headers = tenant.headers[request.service];
      const join = url.includes('?') ? '&' : '?';
      const over = await stack.rest('GET', `${url}${join}limit=101`, undefined, headers);
      expect(over.status).toBe(400);
      expect(over.body.message).toEqual(expect.arrayContaining([expect.stringMatching(/limit must be at most 100/)]));
      const one = await stack.rest('GET', `${url}${join}limit=1`, undefined, headers);
      expect(one.status).toBe(200);
      const records = Array.isArray(one.body) ? one.body : Object.values(one.body).find(Array.isArray);
      expect((records as unknown[]).length).toBeLessThanOrEqual(1);
    },
  );
});
