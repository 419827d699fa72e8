import { startTestStack, type TestStack } from './support/stack.js';

const ORGANIZATION_LIMIT = 5;

/** Risk and notify keys share a per-organization budget on top of each key's own (1,000/min by default). */
describe('per-organization rate limit (risk and notify)', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ ORGANIZATION_RATE_LIMIT: String(ORGANIZATION_LIMIT) });
  });
  afterAll(() => stack?.stop());

  /** Budgets count per minute window: start a run of requests early in one, so it ends in the same window. */
  async function freshWindow(headers: Record<string, string>, path: string) {
    const probe = await stack.rest('GET', path, undefined, headers);
    const reset = Number(probe.headers.get('ratelimit-reset'));
    if (reset < 15) await new Promise((r) => setTimeout(r, reset * 1000 + 100));
  }

  it.each([
    ['risk', '/v1/rules'],
    ['notify', '/v1/templates'],
  ])('two %s keys of one organization share its budget; the 429 describes that budget', async (service, path) => {
    const first = await stack.createClient({ name: `${service} one`, service, rateLimit: 100 });
    const second = await stack.createClient({ name: `${service} two`, service, rateLimit: 100, organizationId: first.organizationId });
    const one = { authorization: `Bearer ${first.apiKey}` };
    const two = { authorization: `Bearer ${second.apiKey}` };
    await freshWindow(one, path);

    // the probe used one request of this window (or none, after waiting for a new one): fill the rest with both keys
    const answers = [];
    for (let i = 0; i < ORGANIZATION_LIMIT + 2; i++) answers.push(await stack.rest('GET', path, undefined, i % 2 ? two : one));
    const statuses = answers.map((a) => a.status);
    const refused = statuses.indexOf(429);
    expect(refused).toBeGreaterThan(0);
    expect(statuses.slice(0, refused).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(refused).every((s) => s === 429)).toBe(true);
    // each key alone is far below its own 100/min: the organization's 5 is what ran out
    const limited = answers[refused];
    expect(limited.headers.get('ratelimit-limit')).toBe(String(ORGANIZATION_LIMIT));
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.body.code).toBe('RATE_LIMITED');
    // before the budget ran out, the headers counted it down
    const before = answers[refused - 1];
    expect(before.headers.get('ratelimit-limit')).toBe(String(ORGANIZATION_LIMIT));
    expect(before.headers.get('ratelimit-remaining')).toBe('0');

    // another organization's keys are not affected
    const other = await stack.createClient({ name: `${service} elsewhere`, service });
    expect((await stack.rest('GET', path, undefined, { authorization: `Bearer ${other.apiKey}` })).status).toBe(200);
  });

  it('a mutation counts once per root field: aliases do not multiply what one request may do', async () => {
    const client = await stack.createClient({ name: 'aliases', service: 'risk', rateLimit: 4 });
    const auth = { authorization: `Bearer ${client.apiKey}` };
    await freshWindow(auth, '/v1/rules');
    const probe = await stack.rest('GET', '/v1/rules', undefined, auth);
    const left = Number(probe.headers.get('ratelimit-remaining'));
    const mutation = (n: number) =>
      `mutation { ${Array.from({ length: n }, (_, i) => `r${i}: disableRiskRule(input: { id: "velocity_burst" }) { riskRule { version } }`).join(' ')} }`;

    const refused = await stack.gql(mutation(left + 1), {}, auth);
    expect(refused.status).toBe(429);
    expect(refused.body.errors?.[0].extensions.code).toBe('RATE_LIMITED');
  });
});
