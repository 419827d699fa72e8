import type { GraphQLEnumType } from 'graphql';
import { selfSignedCertificate, startReceiver } from './support/https-receiver.js';
import {
  ADMIN_ROUTE,
  graphqlCall,
  graphqlRequests,
  restCall,
  restRequests,
  subscriptionCall,
  subscriptionRequests,
  type RefSlot,
} from './support/probes.js';
import { SCHEMA } from './support/references.js';
import { startTestStack, type Subscription, type TestStack } from './support/stack.js';
import { identityCheckImages, listPerson, seedTenant, type SeededTenant } from './support/tenants.js';

/**
 * Generated from the route table and the schema: every REST route and every root query and
 * mutation that names a record (an id, a userId, a template name…) is called by another
 * organization, by the owner's other environment, and by a browser session of another user of the
 * owner's organization (with every scope a session can have, reads and submissions; out of its
 * scopes a FORBIDDEN is fine), with the owner's records in each of those places. Each answer is a
 * 404 / NOT_FOUND, or a success that shows nothing of the owner's (an empty list, or the caller's
 * own record under that name); a session's write never succeeds (every record it names is the
 * owner's: a submission for the owner's user is a 403, the owner's record a 404). Afterwards the
 * owner's records read exactly as before. A new route, field or session scope is covered without
 * a new test. GraphQL probes use each tenant's all-services key (a query such as `user` reads
 * across subgraphs); REST probes the service's own key.
 */

const SESSION = 'a session of another user of the same organization';
const CALLERS = ['another organization', 'the same organization, other environment', SESSION] as const;
type Caller = (typeof CALLERS)[number];
/** Callers that hold keys (they can write, and subscribe as the suite's sentinels do). */
const KEY_CALLERS = CALLERS.filter((caller) => caller !== SESSION);

/** Every scope a session can be given (the schema's SessionScope): reads, and submissions of its own user's checks. */
const SESSION_SCOPES = (SCHEMA.getType('SessionScope') as GraphQLEnumType).getValues().map((v) => v.name);

const rest = restRequests();
const graph = graphqlRequests();

/** One probe per request and caller: path parameters together, each query/body/argument reference alone. */
function probesOf<R extends { slots: RefSlot[] }>(requests: R[], label: (r: R) => string) {
  return requests.flatMap((request) => {
    const groups: RefSlot[][] = [];
    const params = request.slots.filter((s) => s.at === 'param' || (s.at === 'arg' && s.path.length === 1));
    if (params.length) groups.push(params);
    for (const slot of request.slots.filter((s) => !params.includes(s))) groups.push([slot]);
    return groups.flatMap((slots) =>
      CALLERS.map(
        (caller) => [`${label(request)} [${slots.map((s) => s.path.join('.')).join(', ')}] by ${caller}`, request, slots, caller] as const,
      ),
    );
  });
}

describe('tenant isolation (generated from the route table and the schema)', () => {
  const cert = selfSignedCertificate();
  let stack: TestStack;
  let owner: SeededTenant;
  const callers = {} as Record<Caller, SeededTenant>;

  /** Owner values each caller has already written with (a create or upsert that succeeded): a 409 on one is the caller's own record. */
  const usedBefore = new Map<Caller, Set<string>>(CALLERS.map((c) => [c, new Set()]));
  const expectRefusedOrOwn = (caller: Caller, slots: RefSlot[], code: string, answer: unknown) => {
    const own = code === 'CONFLICT' && slots.every((slot) => usedBefore.get(caller)!.has(owner.refs[slot.kind][0]));
    // a session may read only some areas: elsewhere it is refused outright
    const outOfScope = caller === SESSION && code === 'FORBIDDEN';
    if (code !== 'NOT_FOUND' && !own && !outOfScope) expect(`${code}: ${JSON.stringify(answer)}`).toMatch(/^NOT_FOUND/);
  };
  const remember = (caller: Caller, slots: RefSlot[]) => slots.forEach((slot) => usedBefore.get(caller)!.add(owner.refs[slot.kind][0]));
  /** Nothing of the owner's in an answer, once the values the caller sent are taken out. */
  const expectNothingOfOwner = (answer: unknown, sent: string[], caller?: Caller) => {
    let text = JSON.stringify(answer);
    const echoed = [...sent, ...(caller ? usedBefore.get(caller)! : [])].sort((a, b) => b.length - a.length);
    for (const value of echoed) if (value.length > 3) text = text.split(value).join('');
    for (const secret of [owner.marker, ...owner.serverIds]) expect(text).not.toContain(secret);
  };
  const owned = (slots: RefSlot[]) => new Map(slots.map((slot) => [slot, owner.refs[slot.kind][0]]));
  /** The owner's view of every record, through every query that names one. */
  const ownerView = async () => {
    const views: Record<string, unknown> = {};
    for (const request of graph.filter((r) => r.rootType === 'Query' && r.slots.length && !r.admin)) {
      const call = graphqlCall(request, owner.refs);
      views[request.field.name] = (await stack.gql(call.query, call.variables, owner.headers.all)).body;
    }
    return views;
  };
  let before: Record<string, unknown>;
  const fixed: Record<string, string> = {};

  beforeAll(async () => {
    stack = await startTestStack({}, { webhookCa: cert.cert });
    await listPerson(stack);
    const receiver = await startReceiver(cert);
    fixed.callbackUrl = receiver.url;
    // an AI identity check needs a real selfie and document to be accepted
    Object.assign(fixed, await identityCheckImages());
    owner = await seedTenant(stack, { webhookUrl: receiver.url });
    callers['another organization'] = await seedTenant(stack, { webhookUrl: receiver.url });
    callers['the same organization, other environment'] = await seedTenant(stack, {
      webhookUrl: receiver.url,
      organizationId: owner.organizationId,
      environment: 'test',
    });
    // a browser session of another user of the owner's organization, with every scope a session can have
    const minted = await stack.gql(
      `mutation($scopes: [SessionScope!]!) { createSessionToken(input: { userId: "someone-else", scopes: $scopes }) { sessionToken { token } } }`,
      { scopes: SESSION_SCOPES },
      owner.headers.verification,
    );
    const session = { authorization: `Bearer ${minted.body.data.createSessionToken.sessionToken.token}` };
    callers[SESSION] = { ...owner, headers: { verification: session, risk: session, notify: session, all: session } };
    before = await ownerView();
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('generates probes for every route and every root field that names a record', () => {
    expect(rest.filter((r) => r.slots.length).length).toBeGreaterThanOrEqual(30);
    expect(graph.filter((r) => r.slots.length).length).toBeGreaterThanOrEqual(35);
  });

  const lists = graph.filter((r) => r.rootType === 'Query' && !r.slots.length && !r.admin);
  it.each(lists.map((r) => [r.field.name, r] as const))(
    'GraphQL Query.%s shows none of the owner’s records to another tenant',
    async (_name, request) => {
      for (const caller of CALLERS) {
        const call = graphqlCall(request, callers[caller].refs);
        const res = await stack.gql(call.query, call.variables, callers[caller].headers.all);
        expectNothingOfOwner(res.body, call.sent);
      }
    },
  );

  const restProbes = probesOf(
    rest.filter((r) => r.slots.length && !ADMIN_ROUTE(r.route)),
    (r) => `${r.route.method} ${r.route.path}`,
  );
  it.each(restProbes)('REST %s', async (_name, request, slots, caller) => {
    const call = restCall(request, callers[caller].refs, owned(slots), fixed);
    const res = await stack.rest(call.method, call.url, call.body, callers[caller].headers[request.service]);
    if (caller === SESSION && request.route.method !== 'GET') expect(`${res.status} ${JSON.stringify(res.body)}`).toMatch(/^4\d\d /);
    if (res.status >= 300) expectRefusedOrOwn(caller, slots, res.body.code, res.body);
    else if (request.route.method !== 'GET') remember(caller, slots);
    expectNothingOfOwner(res.body, call.sent, caller);
  });

  const graphProbes = probesOf(
    graph.filter((r) => r.slots.length && !r.admin),
    (r) => `${r.rootType}.${r.field.name}`,
  );
  it.each(graphProbes)('GraphQL %s', async (_name, request, slots, caller) => {
    const call = graphqlCall(request, callers[caller].refs, owned(slots), fixed);
    const res = await stack.gql(call.query, call.variables, callers[caller].headers.all);
    if (caller === SESSION && request.rootType === 'Mutation') {
      // refused outright, or a payload's user errors (another user's record is not found)
      const userErrors: Array<{ code: string; message: string }> = res.body.data?.[request.field.name]?.userErrors ?? [];
      expect({ errors: res.body.errors?.length ?? 0, userErrors: userErrors.length }).not.toEqual({ errors: 0, userErrors: 0 });
      for (const error of userErrors) expectRefusedOrOwn(caller, slots, error.code, error.message);
    }
    if (!res.body.errors && request.rootType === 'Mutation') remember(caller, slots);
    for (const error of res.body.errors ?? []) expectRefusedOrOwn(caller, slots, error.extensions?.code, error.message);
    expectNothingOfOwner(res.body, call.sent, caller);
  });

  it.each([...graph.filter((r) => r.admin).map((r) => [`GraphQL ${r.field.name}`, r] as const)])(
    '%s refuses API keys',
    async (_name, request) => {
      const call = graphqlCall(
        request,
        callers['another organization'].refs,
        new Map(request.slots.map((s) => [s, owner.refs[s.kind][0]])),
      );
      const res = await stack.gql(call.query, call.variables, callers['another organization'].headers[request.service]);
      expect(res.body.errors?.map((e: { extensions?: { code?: string } }) => e.extensions?.code)).toEqual([
        expect.stringMatching(/^(FORBIDDEN|UNAUTHENTICATED)$/),
      ]);
    },
  );

  it.each(rest.filter((r) => ADMIN_ROUTE(r.route)).map((r) => [`${r.route.method} ${r.route.path}`, r] as const))(
    'REST %s refuses API keys',
    async (_name, request) => {
      const call = restCall(request, owner.refs);
      const res = await stack.rest(call.method, call.url, call.body, callers['another organization'].headers[request.service]);
      expect([401, 403]).toContain(res.status);
    },
  );

  it('leaves every record of the owner as it was', async () => {
    expect(await ownerView()).toEqual(before);
  });

  /**
   * Every subscription field, opened by each other tenant with the owner's records in its
   * arguments, then the owner changes its records while its own twin subscriptions watch. Once
   * those saw the owner's events, each other tenant changes its own records and waits for its own
   * events: by then an owner's event would have reached the others' subscriptions too (events
   * leave the subgraph in commit order). Subscriptions on records that are finished (a sent
   * notification, a completed batch) can get no event; they are opened all the same.
   */
  it('subscriptions opened with the owner’s records by another tenant receive none of the owner’s events', async () => {
    const opened: Array<{ name: string; sub: Subscription }> = [];
    const open = (tenant: SeededTenant, request: ReturnType<typeof subscriptionRequests>[number], refs = owner.refs) => {
      const sub = stack.subscribe(subscriptionCall(request, refs), {}, tenant.headers[request.service]);
      opened.push({ name: request.field.name, sub });
      return sub;
    };
    /** Waits until none of a tenant's document verifications is still waiting for its check. */
    const documentChecksSettled = async (tenant: SeededTenant) => {
      const query =
        '{ a: documentVerifications(filter: { status: PENDING }) { totalCount } b: documentVerifications(filter: { status: PROCESSING }) { totalCount } }';
      for (;;) {
        const { body } = await stack.gql(query, {}, tenant.headers.all);
        if (body.data.a.totalCount + body.data.b.totalCount === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    // documents the probes above made (with the owner's user id, in their own tenant) are checked
    // in the background: their events are the caller's own, so they must be over before watching
    for (const caller of KEY_CALLERS) await documentChecksSettled(callers[caller]);
    const requests = subscriptionRequests();
    const byName = (name: string) => requests.find((r) => r.field.name === name)!;
    const probes = KEY_CALLERS.flatMap((caller) =>
      requests.map((request) => ({ caller, name: request.field.name, sub: open(callers[caller], request) })),
    );
    const controls = ['identityVerificationUpdated', 'amlScreeningUpdated', 'watchlistAlertUpdated', 'riskEvaluationCreated'].map((name) =>
      open(owner, byName(name)),
    );
    // a notification sent to the owner's recipient profile (the profile's id is the owner's user id)
    controls.push(open(owner, byName('notificationUpdatedForUser')));
    const sentinels = KEY_CALLERS.map((caller) => open(callers[caller], byName('identityVerificationUpdated'), callers[caller].refs));
    try {
      await Promise.all(opened.map(({ sub }) => sub.ready));
      const act = async (tenant: SeededTenant) => {
        const as = async (service: 'verification' | 'risk' | 'notify', method: string, path: string, body: unknown) => {
          const res = await stack.rest(method, path, body, tenant.headers[service]);
          expect({ path, status: res.status < 300 }).toEqual({ path, status: true });
        };
        const { refs } = tenant;
        await as('verification', 'POST', `/v1/verifications/identity/${refs.IdentityVerification[0]}/review`, {
          decision: 'REJECTED',
          reviewedBy: 'isolation',
          reviewNotes: 'isolation probe',
        });
        if (tenant !== owner) return;
        await as('verification', 'POST', `/v1/screening/aml/${refs.AmlScreening[0]}/matches/${refs.AmlMatch[0]}/resolve`, {
          resolution: 'FALSE_POSITIVE',
          resolvedBy: 'isolation',
          reason: 'isolation probe',
        });
        await as('verification', 'POST', `/v1/monitoring/watchlist/alerts/${refs.WatchlistAlert[0]}/review`, {
          status: 'DISMISSED',
          reviewedBy: 'isolation',
          note: 'isolation probe',
        });
        await as('risk', 'POST', '/v1/evaluate', {
          transaction_id: `${tenant.marker}-late`,
          amount: 10,
          currency: 'KES',
          sender: refs.RiskAccount[0],
          receiver: 'r',
        });
        await as('notify', 'POST', '/v1/send', {
          to: refs.NotificationRecipient[0],
          template: refs.NotificationTemplate[0],
          channels: ['email'],
          data: { first_name: tenant.marker },
        });
      };
      await act(owner);
      await Promise.all(controls.map((sub) => sub.next(1)));
      for (const caller of KEY_CALLERS) await act(callers[caller]);
      await Promise.all(sentinels.map((sub) => sub.next(1)));
      for (const probe of probes) {
        const text = JSON.stringify(probe.sub.events);
        for (const secret of [owner.marker, ...owner.serverIds])
          expect({ probe: `${probe.name} by ${probe.caller}`, leaked: text.includes(secret) }).toEqual({
            probe: `${probe.name} by ${probe.caller}`,
            leaked: false,
          });
      }
    } finally {
      await Promise.all(opened.map(({ sub }) => sub.close()));
    }
  });
});
