import fc from 'fast-check';
import { selfSignedCertificate, startReceiver } from './support/https-receiver.js';
import { ADMIN_ROUTE, graphqlCall, graphqlRequests, restCall, restRequests, type FixedValues } from './support/probes.js';
import { ADMIN_SECRET, startTestStack, type TestStack } from './support/stack.js';
import { listPerson, seedTenant, type SeededTenant } from './support/tenants.js';

/**
 * Property-based fuzzing (fast-check) of every REST route and every GraphQL mutation, generated
 * from the route table and the schema: each starts from a valid request and gets one part
 * replaced by something a careless or hostile client sends (wrong types, huge strings, deep JSON,
 * NUL, lone surrogates, RTL marks, path traversal…), or its body sent with a wrong content type
 * or cut short. Whatever comes in: never a 5xx, never a stack trace, an answer within the deadline,
 * and the documented error body.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
/** An answer later than this is a hang. */
const DEADLINE_MS = 10_000;
const ERROR_CODES = [
  'BAD_USER_INPUT',
  'VALIDATION_FAILED',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'RATE_LIMITED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_REQUEST',
];
const NOT_AN_ID = '00000000-0000-4000-8000-000000000000';

const deep = (depth: number, leaf: unknown = 1): unknown => {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

/** What a careless or hostile client puts where a value belongs. */
const nasty: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    true,
    0,
    -1,
    -0,
    1e308,
    2 ** 53 + 1,
    0.1,
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udfffy',
    'abc\u202edcba',
    '\u200b\u200d\ufeff',
    '👩🏽‍⚕️',
    'e\u0301\u0301\u0301',
    '../../../../etc/passwd',
    '..\\..\\windows\\win.ini',
    '%2e%2e%2f%00',
    '%E0%A4%A',
    '%zz',
    '%',
    "'; drop table api_clients; --",
    '{{constructor.constructor("return process")()}}',
    '<script>alert(1)</script>',
    '__proto__',
    'NaN',
    '-1e309',
    '9'.repeat(400),
    '2026-02-30',
    '+999999999999999999',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.constantFrom('x'.repeat(100_000), '\u0000'.repeat(1000), 'ß'.repeat(50_000)),
  fc.constantFrom(deep(64), deep(2_000), deep(20, '\u0000')),
  fc.array(fc.anything({ maxDepth: 2 }), { maxLength: 5 }),
  fc.constantFrom(Array.from({ length: 20_000 }, () => 'a')),
  fc.dictionary(fc.string(), fc.anything({ maxDepth: 1 }), { maxKeys: 4 }),
);

const WRONG_BODIES: Array<[string, string]> = [
  ['text/plain', '{"userId": "x"}'],
  ['application/x-www-form-urlencoded', 'userId=x&tier=BASIC'],
  ['multipart/form-data; boundary=zz', '--zz\r\nContent-Disposition: form-data; name="file"; filename="../../etc/passwd"\r\n\r\nroot'],
  ['application/xml', '<a>1</a>'],
  ['application/json', '{"userId": "x", "tier": '],
  ['application/json', '\u0000\u0001'],
  ['application/json', '[]'],
  ['application/json', '"just a string"'],
  ['application/json; charset=utf-16', '{"a":1}'],
];

interface Answer {
  status: number;
  text: string;
}

describe('fuzzing every REST route and GraphQL mutation (fast-check)', () => {
  const cert = selfSignedCertificate();
  let stack: TestStack;
  let own: SeededTenant;
  const fixed: FixedValues = {};
  let counted = 0;

  /** One request under a deadline; its answer, however it looks. */
  const send = async (url: string, init: RequestInit): Promise<Answer> => {
    counted += 1;
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(DEADLINE_MS) });
    return { status: res.status, text: await res.text() };
  };
  const expectHandled = (answer: Answer, what: string) => {
    const context = `${what} → ${answer.status} ${answer.text.slice(0, 300)}`;
    expect({ context, serverError: answer.status >= 500 }).toEqual({ context, serverError: false });
    expect({ context, trace: /\n\s+at |node_modules|\.(?:js|ts):\d+:\d+|\b[A-Z]\w*Error: /.test(answer.text) }).toEqual({
      context,
      trace: false,
    });
  };
  const expectRestError = (answer: Answer, what: string) => {
    expectHandled(answer, what);
    if (answer.status < 400) return;
    const body = JSON.parse(answer.text);
    expect({ what, body }).toMatchObject({ body: { statusCode: answer.status, code: expect.any(String), timestamp: expect.any(String) } });
  };

  beforeAll(async () => {
    stack = await startTestStack({ DEFAULT_RATE_LIMIT: '1000000', ORGANIZATION_RATE_LIMIT: '1000000' }, { webhookCa: cert.cert });
    await listPerson(stack);
    const receiver = await startReceiver(cert);
    fixed.callbackUrl = receiver.url;
    own = await seedTenant(stack, { webhookUrl: receiver.url });
  }, 120_000);
  afterAll(async () => {
    console.log(`fuzzing: seed ${SEED}, ${RUNS} runs per request kind, ${counted} requests sent`);
    await stack?.stop();
  });

  const restKinds = restRequests();
  const headersOf = (request: (typeof restKinds)[number]) =>
    ADMIN_ROUTE(request.route) ? { 'x-admin-secret': ADMIN_SECRET } : own.headers[request.service];

  it.each(restKinds.map((r) => [`${r.route.method} ${r.route.path}`, r] as const))('REST %s', async (_name, request) => {
    const refs = ADMIN_ROUTE(request.route) ? { ...own.refs, ApiClient: [NOT_AN_ID] } : own.refs;
    const places = [
      ...(request.route.body ?? []).map((f) => ['body', f.name] as const),
      ...(request.route.body ? [['body', '*'] as const] : []),
      ...[...request.route.path.matchAll(/:(\w+)/g)].map(([, name]) => ['param', name] as const),
      ...(request.route.query ?? []).map((f) => ['query', f.name] as const),
    ];
    if (!places.length) places.push(['query', 'unknown']);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...places), nasty, async ([at, name], value) => {
        const call = restCall(request, refs, new Map(), fixed);
        let url = call.url;
        let body: unknown = call.body;
        if (at === 'body' && call.body instanceof FormData) {
          // a multipart route: the value as one of its text fields (or the whole body, as JSON)
          const form = new FormData();
          for (const [key, item] of call.body) if (key !== name) form.append(key, item);
          if (name !== '*') form.append(name, typeof value === 'string' ? value : JSON.stringify(value));
          body = name === '*' ? value : form;
        } else if (at === 'body') body = name === '*' ? value : { ...(call.body as object), [name]: value };
        const text = typeof value === 'string' ? value : JSON.stringify(value);
        // a value that starts with % goes as it is (malformed escapes); any other is encoded
        const raw = typeof value === 'string' && value.startsWith('%') ? value : encodeURIComponent(text.slice(0, 2000));
        if (at === 'param') url = `/v1${request.route.path.replace(`:${name}`, raw)}`.replace(/:(\w+)/g, NOT_AN_ID);
        if (at === 'query') url += `${url.includes('?') ? '&' : '?'}${encodeURIComponent(name)}=${raw}`;
        const form = body instanceof FormData;
        const answer = await send(stack.urls.rest + url, {
          method: call.method,
          headers: { ...headersOf(request), ...(body !== undefined && !form ? { 'content-type': 'application/json' } : {}) },
          body: body === undefined || form ? (body as FormData | undefined) : JSON.stringify(body),
        });
        expectRestError(answer, `${call.method} ${url.slice(0, 200)} ${at}:${name}`);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });

  it.each(restKinds.filter((r) => r.route.body).map((r) => [`${r.route.method} ${r.route.path}`, r] as const))(
    'REST %s with a wrong content type or a cut body',
    async (_name, request) => {
      const call = restCall(request, own.refs, new Map(), fixed);
      for (const [type, body] of WRONG_BODIES) {
        const answer = await send(stack.urls.rest + call.url, {
          method: call.method,
          headers: { ...headersOf(request), 'content-type': type },
          body,
        });
        expectRestError(answer, `${call.method} ${call.url} as ${type}: ${body.slice(0, 40)}`);
        expect({ type, body, refused: answer.status >= 400 }).toEqual({ type, body, refused: true });
      }
    },
  );

  const mutations = graphqlRequests().filter((r) => r.rootType === 'Mutation');
  it.each(mutations.map((r) => [r.field.name, r] as const))('GraphQL mutation %s', async (_name, request) => {
    const base = graphqlCall(request, own.refs, new Map(), fixed);
    const places: string[][] = [];
    for (const [name, value] of Object.entries(base.variables)) {
      places.push([name]);
      if (value && typeof value === 'object' && !Array.isArray(value)) for (const inner of Object.keys(value)) places.push([name, inner]);
    }
    places.push(['unknownVariable']);
    const headers = request.admin ? { 'x-admin-secret': ADMIN_SECRET } : own.headers[request.service];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...places), nasty, async (place, value) => {
        const variables: Record<string, any> = structuredClone(base.variables);
        if (place.length === 1) variables[place[0]] = value;
        else variables[place[0]] = { ...variables[place[0]], [place[1]]: value };
        if (request.admin) for (const key of ['id']) if (key in variables && place[0] !== key) variables[key] = NOT_AN_ID;
        const answer = await send(stack.urls.gateway!, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ query: base.query, variables }),
        });
        expectHandled(answer, `${request.field.name} ${place.join('.')}=${JSON.stringify(value)?.slice(0, 80)}`);
        const body = JSON.parse(answer.text);
        for (const error of body.errors ?? []) {
          const known = ERROR_CODES.includes(error.extensions?.code);
          expect({ place, error, known, stacktrace: error.extensions?.stacktrace }).toEqual({
            place,
            error,
            known: true,
            stacktrace: undefined,
          });
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });

  it('the gateway answers malformed requests with a 4xx: wrong content types, cut JSON and multipart, traversal in file names', async () => {
    const headers = own.headers.verification;
    const query = 'mutation($input: CreateIdentityVerificationInput!) { createIdentityVerification(input: $input) { created } }';
    const multipart = (files: string, tail = '--zz--\r\n') =>
      `--zz\r\nContent-Disposition: form-data; name="operations"\r\n\r\n${JSON.stringify({ query, variables: { input: { userId: 'u' } } })}\r\n` +
      `--zz\r\nContent-Disposition: form-data; name="map"\r\n\r\n{"0":["variables.input.userId"]}\r\n` +
      `--zz\r\nContent-Disposition: form-data; name="0"; filename="${files}"\r\nContent-Type: text/plain\r\n\r\nroot:x:0:0\r\n${tail}`;
    const cases: Array<[string, string]> = [
      ...WRONG_BODIES,
      ['multipart/form-data; boundary=zz', multipart('../../../../etc/passwd')],
      ['multipart/form-data; boundary=zz', multipart('..\\..\\boot.ini\u0000.png')],
      ['multipart/form-data; boundary=zz', multipart('a.txt', '')],
      ['multipart/form-data; boundary=zz', multipart('a.txt').slice(0, 150)],
      ['multipart/form-data', multipart('a.txt')],
      ['application/graphql', query],
      ['application/json', `{"query": ${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`],
      ['application/json', `{"query": ${JSON.stringify(query)}, "variables": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`],
      ['application/json', JSON.stringify([{ query }, { query }])],
    ];
    for (const [type, body] of cases) {
      const answer = await send(stack.urls.gateway!, {
        method: 'POST',
        headers: { ...headers, 'content-type': type, 'apollo-require-preflight': 'true' },
        body,
      });
      expectHandled(answer, `gateway ${type}: ${body.slice(0, 60)}`);
      expect({ type, body: body.slice(0, 60), clientError: answer.status >= 400 && answer.status < 500 }).toEqual({
        type,
        body: body.slice(0, 60),
        clientError: true,
      });
    }
  });
});
