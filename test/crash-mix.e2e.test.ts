import { listIndividuals } from './support/lists.js';
import { createTestDatabase, eventually, startTestStack, type TestStack } from './support/stack.js';
import { selfSignedCertificate, startReceiver, verifiedPayload, type ReceivedRequest } from './support/https-receiver.js';
import { serviceProcess, type ServiceProcess, type SubgraphServiceName } from './support/service-process.js';
import { ReconnectingSubscription, type SubscriptionSession } from './support/reconnecting-subscription.js';

/**
 * Crash safety under mixed traffic. verification, risk and notify run as their own OS processes
 * (the gateway and the REST adapter in this one). While clients create and review identity
 * verifications, evaluate transactions, screen names and resolve matches, send and open
 * notifications, and start a notification batch and an AML batch, each service is SIGKILLed at
 * random points (twice) and started again. Afterwards every request that was accepted (a 2xx
 * answer) must be found again:
 *
 * - its record reads back with a status consistent with what was accepted (a later request whose
 *   outcome is unknown — no answer, or an error while a service died — may have moved it on);
 * - every webhook it implies arrived at least once, correctly signed (matched by the ids in the
 *   payloads);
 * - the batches complete with every recipient / subject counted once, and the AML batch's
 *   callback arrives.
 *
 * What "every event reaches reconnecting subscribers" can honestly mean here: the gateway ends a
 * subscription with an UNAVAILABLE error when the subgraph serving it dies, and nothing replays
 * the events committed while a client was not subscribed (or that the dying process had not pushed
 * yet). So a reconnecting client subscribes again and, once its subscription is served, re-reads
 * the state it may have missed (a query), then applies events. The suite checks, for every
 * subscriber: each session cut by a crash ended with UNAVAILABLE and was followed by a new one;
 * after the last restart its view (re-read + events) equals the records as finally stored; and
 * every change committed after its last subscription was served (the record's updatedAt or
 * createdAt is later) reached it as an event — the traffic after the restarts makes such changes
 * for every subscriber. It does not claim that events committed while a subscriber was cut off are
 * delivered to it.
 *
 * Reproducible: the kill points, the order of the kills and the mix of requests come from a
 * seeded random generator (CRASH_SEED, printed).
 */

const SEED = Number(process.env.CRASH_SEED ?? 20_240_917);
/** Concurrent clients sending the mix. */
const WORKERS = 3;
/** Rounds of kills: in each, every service is killed once, in a seeded order. */
const ROUNDS = 2;
/** Requests sent after the last restart, once every subscriber is served again. */
const TAIL_REQUESTS = 45;
/** Users whose identity verifications / AML screenings a subscriber follows (by userId). */
const WATCHED_USERS = ['watch-ada', 'watch-bayo', 'watch-chi'];
const WATCHED_AML_USER = 'watch-aml';
/** At most this many notifications get their own `notificationUpdated` subscriber. */
const WATCHED_NOTIFICATIONS = 12;
const NOTIFY_BATCH_SIZE = 15;
const AML_BATCH_SIZE = 8;
const LISTED = ['Ahmed Musa Bello', 'Ibrahim Kabiru Sani'];
const WEBHOOK_EVENTS = [
  'identity.verified',
  'identity.rejected',
  'evaluation.allow',
  'evaluation.review',
  'evaluation.block',
  'notification.dispatched',
  'notification.updated',
  'batch.completed',
  'aml.clear',
  'aml.flagged',
  'aml.batch_complete',
];

/** mulberry32: a small seeded generator (uniform in [0, 1)). */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
type Rng = () => number;
const between = (rng: Rng, lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));

type Answer = { status: number; body: any };
type HeaderMap = Record<string, string>;

/** Wakes whoever waits for a condition on the traffic counters (no polling, no sleeps). */
class Signal {
  private waiters: Array<{ ready: () => boolean; resolve: () => void }> = [];
  notify(): void {
    for (const w of this.waiters.filter((w) => w.ready())) {
      this.waiters.splice(this.waiters.indexOf(w), 1);
      w.resolve();
    }
  }
  until(ready: () => boolean): Promise<void> {
    return ready() ? Promise.resolve() : new Promise((resolve) => this.waiters.push({ ready, resolve }));
  }
}

/** A record the mix changes (an identity verification, an AML screening), as its clients know it. */
interface Tracked {
  id: string;
  userId: string;
  /** Statuses in the accepted answers, in order. */
  accepted: string[];
  /** Statuses that requests whose outcome is unknown (no 2xx) may have set. */
  attempted: string[];
  /** A change (review, resolution) was sent and not accepted: the client does not send it again. */
  changeTried: boolean;
  /** AML screenings: the matches still OPEN. */
  openMatches: string[];
}
/** The statuses a record may finally have: the last accepted one, or one an unanswered request set. */
const allowed = (rec: Tracked) => new Set([rec.accepted.at(-1)!, ...rec.attempted]);

type Accepted =
  | { kind: 'identity.create'; id: string }
  | { kind: 'identity.review'; id: string; decision: string }
  | { kind: 'evaluation'; id: string; transactionId: string; action: string; score: number }
  | { kind: 'aml'; id: string; status: string }
  | { kind: 'aml.resolve'; id: string; status: string }
  | { kind: 'send'; id: string }
  | { kind: 'open'; id: string }
  | { kind: 'notify.batch'; id: string; total: number }
  | { kind: 'aml.batch'; id: string; total: number; callbackSecret: string };

/** What a subscriber believes each resource is (the latest by updatedAt), from re-reads and events. */
class View {
  readonly items = new Map<string, { status: string; updatedAt: number }>();
  merge(id: string, status: string, updatedAt: string): void {
    const at = Date.parse(updatedAt);
    const known = this.items.get(id);
    if (!known || at >= known.updatedAt) this.items.set(id, { status, updatedAt: at });
  }
}

/** The webhook event an AML status is announced with (none when a resolution left it POTENTIAL_MATCH). */
const amlEvent = (status: string, screened: boolean) =>
  status === 'CLEAR' ? 'aml.clear' : status === 'CONFIRMED_MATCH' || screened ? 'aml.flagged' : null;

describe('crash safety under mixed traffic', () => {
  let stack: TestStack | undefined;
  const services = new Map<SubgraphServiceName, ServiceProcess>();
  const subscribers: Array<{ service: SubgraphServiceName; sub: ReconnectingSubscription }> = [];
  afterAll(async () => {
    await Promise.all(subscribers.map(({ sub }) => sub.close()));
    await Promise.all([...services.values()].map((s) => s.dispose()));
    await stack?.stop();
  });

  it('loses no accepted request when each service is killed (SIGKILL) during the traffic', async () => {
    const started = Date.now();
    console.log(`crash mix: seed ${SEED} (set CRASH_SEED to replay)`);
    const plan = seeded(SEED);

    // --- the stack: lists for AML, three service processes, gateway and REST adapter here ---
    const cert = selfSignedCertificate();
    const databaseUrl = await createTestDatabase();
    await listIndividuals(databaseUrl, LISTED, 'QDi.80');
    const env = {
      // an attempt that fails is retried within seconds, not minutes
      WEBHOOK_RETRY_DELAYS: '1,2,5',
      // deliveries the killed notify process had claimed are taken again after 5 s, not 5 min
      NOTIFY_CLAIM_LEASE_SECONDS: '5',
    };
    for (const name of ['verification', 'risk', 'notify'] as const) {
      services.set(name, await serviceProcess(name, databaseUrl, { caPem: cert.cert, env, countSubscriptions: true }));
    }
    const proc = (name: SubgraphServiceName) => services.get(name)!;
    // one first (it installs the job queue's schema), then the others side by side
    await proc('verification').start();
    await Promise.all([proc('risk').start(), proc('notify').start()]);
    stack = await startTestStack(
      {
        VERIFICATION_URL: proc('verification').url,
        RISK_URL: proc('risk').url,
        NOTIFY_URL: proc('notify').url,
        ORGANIZATION_RATE_LIMIT: '1000000',
      },
      { databaseUrl, services: ['gateway', 'rest'] },
    );
    const restUrl = stack.urls.rest!;
    const gatewayUrl = stack.urls.gateway!;

    /** A REST call that never throws: status 0 when there was no answer. */
    const call = async (method: string, path: string, headers: HeaderMap, body?: unknown): Promise<Answer> => {
      try {
        const res = await fetch(restUrl + path, {
          method,
          headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await res.text();
        let parsed: unknown = text;
        try {
          parsed = text ? JSON.parse(text) : null;
        } catch {
          // not JSON: keep the text
        }
        return { status: res.status, body: parsed };
      } catch (err) {
        return { status: 0, body: String(err) };
      }
    };
    const ok = (a: Answer) => a.status >= 200 && a.status < 300;
    const gql = async (query: string, variables: Record<string, unknown>, headers: HeaderMap) => {
      const res = await stack!.gql(query, variables, headers);
      if (res.status !== 200 || res.body.errors?.length) throw new Error(`query failed: ${res.status} ${JSON.stringify(res.body.errors)}`);
      return res.body.data;
    };

    // --- one organization, a key per service, a webhook for every event of the mix ---
    const verificationClient = await stack.createClient({ name: 'crash mix', rateLimit: 1_000_000 });
    const organizationId = verificationClient.organizationId;
    const riskClient = await stack.createClient({ name: 'crash mix risk', service: 'risk', organizationId, rateLimit: 1_000_000 });
    const notifyClient = await stack.createClient({ name: 'crash mix notify', service: 'notify', organizationId, rateLimit: 1_000_000 });
    const V = { 'x-api-key': verificationClient.apiKey };
    const R = { authorization: `Bearer ${riskClient.apiKey}` };
    const N = { authorization: `Bearer ${notifyClient.apiKey}` };
    const hooks = await startReceiver(cert);
    const callbacks = await startReceiver(cert);
    const webhook = await call('POST', '/webhooks/configure', V, {
      clientId: verificationClient.id,
      callbackUrl: hooks.url,
      events: WEBHOOK_EVENTS,
    });
    expect(webhook.status).toBe(201);
    const template = {
      name: 'mix',
      channels: { email: { subject: 'Hello {{name}}', html: '<p>Hello {{name}}</p>' }, sms: { body: 'Hello {{name}}' } },
    };
    expect((await call('POST', '/v1/templates', N, template)).status).toBe(201);

    // --- subscribers: they reconnect when their subgraph dies, and re-read what they may have missed ---
    // a subscription is served once its service serves as many subscriptions as ours that are open on it
    const served = async (service: SubgraphServiceName) => {
      const expected = subscribers.filter((s) => s.service === service && s.sub.subscribed).length;
      return (await proc(service).subscriptions()) >= expected;
    };
    const subscribe = (
      service: SubgraphServiceName,
      options: Omit<ConstructorParameters<typeof ReconnectingSubscription>[0], 'url' | 'served'>,
    ) => {
      const sub = new ReconnectingSubscription({ ...options, url: gatewayUrl, served: () => served(service) });
      subscribers.push({ service, sub });
      return sub;
    };
    /** A user's identity verifications or AML screenings, followed by `userId`. */
    interface UserWatch {
      what: 'identity' | 'aml';
      userId: string;
      view: View;
      sub: ReconnectingSubscription;
      field: string;
      read(): Promise<Array<{ id: string; status: string; updatedAt: string }>>;
    }
    const userWatches: UserWatch[] = [];
    type Row = { id: string; status: string; updatedAt: string };
    /** How each kind is read back (every page) and followed, one user at a time. */
    const KINDS: Record<
      UserWatch['what'],
      { field: string; read(userId: string): Promise<Row[]>; subscription: string; node(d: any): Row }
    > = {
      identity: {
        field: 'identityVerificationUpdatedForUser',
        read: async (userId) => {
          const all: Row[] = [];
          for (let after: string | null = null; ;) {
            const data = await gql(
              `query($u: String!, $after: String) { identityVerifications(filter: { userId: $u }, first: 100, after: $after) {
                nodes { id status: overallStatus updatedAt } pageInfo { hasNextPage endCursor } } }`,
              { u: userId, after },
              V,
            );
            all.push(...data.identityVerifications.nodes);
            if (!data.identityVerifications.pageInfo.hasNextPage) return all;
            after = data.identityVerifications.pageInfo.endCursor;
          }
        },
        subscription: `subscription($u: String!) { identityVerificationUpdatedForUser(userId: $u) { node { id status: overallStatus updatedAt } } }`,
        node: (d) => d.identityVerificationUpdatedForUser.node,
      },
      aml: {
        field: 'amlScreeningUpdatedForUser',
        read: async (userId) => {
          const all: Row[] = [];
          for (let after: string | null = null; ;) {
            const data = await gql(
              `query($u: String!, $after: String) { amlScreenings(filter: { userId: $u }, first: 100, after: $after) {
                nodes { id status updatedAt } pageInfo { hasNextPage endCursor } } }`,
              { u: userId, after },
              V,
            );
            all.push(...data.amlScreenings.nodes);
            if (!data.amlScreenings.pageInfo.hasNextPage) return all;
            after = data.amlScreenings.pageInfo.endCursor;
          }
        },
        subscription: `subscription($u: String!) { amlScreeningUpdatedForUser(userId: $u) { node { id status updatedAt } } }`,
        node: (d) => d.amlScreeningUpdatedForUser.node,
      },
    };
    const watchUser = (what: UserWatch['what'], userId: string) => {
      const kind = KINDS[what];
      const field = kind.field;
      const view = new View();
      const read = () => kind.read(userId);
      const sub = subscribe('verification', {
        connectionParams: V,
        query: kind.subscription,
        variables: { u: userId },
        onEvent: (d) => {
          const row = kind.node(d);
          view.merge(row.id, row.status, row.updatedAt);
        },
        onLive: async () => {
          for (const r of await read()) view.merge(r.id, r.status, r.updatedAt);
        },
      });
      userWatches.push({ what, userId, view, sub, field, read });
    };
    for (const userId of WATCHED_USERS) watchUser('identity', userId);
    watchUser('aml', WATCHED_AML_USER);

    const evaluationView = new Map<string, { action: string; createdAt: number }>();
    const readEvaluations = async () => {
      const all: Array<{ id: string; action: string; createdAt: string }> = [];
      for (let after: string | null = null; ;) {
        const data = await gql(
          `query($after: String) { riskEvaluations(first: 100, after: $after) { nodes { id action createdAt } pageInfo { hasNextPage endCursor } } }`,
          { after },
          R,
        );
        all.push(...data.riskEvaluations.nodes);
        if (!data.riskEvaluations.pageInfo.hasNextPage) return all;
        after = data.riskEvaluations.pageInfo.endCursor;
      }
    };
    const evaluationSub = subscribe('risk', {
      connectionParams: R,
      query: `subscription { riskEvaluationCreated { node { id action createdAt } } }`,
      onEvent: (d) =>
        evaluationView.set(d.riskEvaluationCreated.node.id, {
          action: d.riskEvaluationCreated.node.action,
          createdAt: Date.parse(d.riskEvaluationCreated.node.createdAt),
        }),
      onLive: async () => {
        for (const e of await readEvaluations()) evaluationView.set(e.id, { action: e.action, createdAt: Date.parse(e.createdAt) });
      },
    });

    /** A notification's status with its channels' (an open changes only the channel), in REST's lower case. */
    const notificationState = (n: { status: string; channels: Array<{ channel: string; status: string }> }) =>
      `${n.status} ${n.channels.map((c) => `${c.channel}:${c.status}`).join(',')}`.toLowerCase();
    const notificationViews = new Map<string, View>();
    const notificationSubs = new Map<string, ReconnectingSubscription>();
    const watchNotification = (id: string) => {
      const view = new View();
      notificationViews.set(id, view);
      const sub = subscribe('notify', {
        connectionParams: N,
        query: `subscription($id: ID!) { notificationUpdated(id: $id) { node { id status updatedAt channels { channel status } } } }`,
        variables: { id },
        onEvent: (d) => view.merge(id, notificationState(d.notificationUpdated.node), d.notificationUpdated.node.updatedAt),
        onLive: async () => {
          const data = await gql(
            `query($id: ID!) { notification(id: $id) { id status updatedAt channels { channel status } } }`,
            { id },
            N,
          );
          view.merge(id, notificationState(data.notification), data.notification.updatedAt);
        },
      });
      notificationSubs.set(id, sub);
    };
    const allLive = () => subscribers.every(({ sub }) => sub.live);
    await eventually(async () => allLive(), 20_000, 25);

    // --- the requests of the mix; each answers whether it was accepted and changed something ---
    const accepted: Accepted[] = [];
    const identities = new Map<string, Tracked>();
    const screenings = new Map<string, Tracked>();
    const reviewable: string[] = [];
    const resolvable: string[] = [];
    const busyWatched = new Set<string>();
    let failures = 0;
    const failureStatuses = new Map<number, number>();
    const failed = (a: Answer) => {
      failures += 1;
      failureStatuses.set(a.status, (failureStatuses.get(a.status) ?? 0) + 1);
      return false;
    };

    const createIdentity = async (rng: Rng, userId: string) => {
      const a = await call('POST', '/verifications/identity', V, { userId, tier: rng() < 0.5 ? 'BASIC' : 'STANDARD' });
      if (!ok(a)) return failed(a);
      const rec: Tracked = identities.get(a.body.id) ?? {
        id: a.body.id,
        userId,
        accepted: [],
        attempted: [],
        changeTried: false,
        openMatches: [],
      };
      identities.set(rec.id, rec);
      rec.accepted.push(a.body.overallStatus);
      // returned as the user's active one: a review whose outcome was unknown did not happen; it may be sent again
      if (a.body.overallStatus === 'PENDING') rec.changeTried = false;
      accepted.push({ kind: 'identity.create', id: rec.id });
      if (!WATCHED_USERS.includes(userId) && a.body.overallStatus === 'PENDING' && !reviewable.includes(rec.id)) reviewable.push(rec.id);
      return a.status === 201;
    };
    const review = async (rng: Rng, rec: Tracked) => {
      const decision = rng() < 0.7 ? 'VERIFIED' : 'REJECTED';
      rec.changeTried = true;
      const a = await call('POST', `/verifications/identity/${rec.id}/review`, V, {
        decision,
        reviewedBy: 'officer-mix',
        reviewNotes: 'mix',
      });
      if (!ok(a)) {
        rec.attempted.push(decision);
        return failed(a);
      }
      rec.accepted.push(a.body.overallStatus);
      accepted.push({ kind: 'identity.review', id: rec.id, decision });
      return true;
    };
    /** A watched user: review the active verification, or start a new one. */
    const watchedStep = async (rng: Rng, userId: string) => {
      const active = [...identities.values()].find((r) => r.userId === userId && r.accepted.at(-1) === 'PENDING' && !r.changeTried);
      return active ? review(rng, active) : createIdentity(rng, userId);
    };
    const evaluate = async (rng: Rng, i: number) => {
      const a = await call('POST', '/v1/evaluate', R, {
        transaction_id: `mix-${SEED}-${i}`,
        amount: 500 + Math.floor(rng() * 90_000),
        currency: 'KES',
        sender: `2547100000${between(rng, 10, 17)}`,
        receiver: `2547200000${between(rng, 10, 29)}`,
        channel: 'mobile_money',
      });
      if (!ok(a)) return failed(a);
      accepted.push({
        kind: 'evaluation',
        id: a.body.evaluation_id,
        transactionId: a.body.transaction_id,
        action: a.body.action,
        score: a.body.score,
      });
      return true;
    };
    const openMatchesOf = (screening: { matches: Array<{ id: string; resolution: string }> }) =>
      screening.matches.filter((m) => m.resolution === 'OPEN').map((m) => m.id);
    const screen = async (userId: string, fullName: string) => {
      const a = await call('POST', '/screening/aml', V, { userId, fullName });
      if (!ok(a)) return failed(a);
      const rec: Tracked = {
        id: a.body.id,
        userId,
        accepted: [a.body.status],
        attempted: [],
        changeTried: false,
        openMatches: openMatchesOf(a.body),
      };
      screenings.set(rec.id, rec);
      accepted.push({ kind: 'aml', id: rec.id, status: a.body.status });
      if (userId !== WATCHED_AML_USER && rec.openMatches.length) resolvable.push(rec.id);
      return true;
    };
    /** A reviewer resolves the first open match of a screening. */
    const resolve = async (rng: Rng, rec: Tracked) => {
      const resolution = rng() < 0.5 ? 'TRUE_POSITIVE' : 'FALSE_POSITIVE';
      rec.changeTried = true;
      const a = await call('POST', `/screening/aml/${rec.id}/matches/${rec.openMatches[0]}/resolve`, V, {
        resolution,
        resolvedBy: 'officer-mix',
        reason: 'mix',
      });
      if (!ok(a)) {
        rec.attempted.push(resolution === 'TRUE_POSITIVE' ? 'CONFIRMED_MATCH' : 'CLEAR');
        return failed(a);
      }
      rec.accepted.push(a.body.status);
      rec.openMatches = openMatchesOf(a.body);
      rec.changeTried = false;
      accepted.push({ kind: 'aml.resolve', id: rec.id, status: a.body.status });
      if (rec.userId !== WATCHED_AML_USER && rec.openMatches.length) resolvable.push(rec.id);
      return true;
    };
    /** The watched AML user: resolve an open match, or be screened again (a listed name: a new match). */
    const watchedAmlStep = async (rng: Rng) => {
      const open = [...screenings.values()].find((r) => r.userId === WATCHED_AML_USER && r.openMatches.length && !r.changeTried);
      return open ? resolve(rng, open) : screen(WATCHED_AML_USER, LISTED[0]);
    };
    const emailSends: string[] = [];
    const openTried = new Set<string>();
    const send = async (rng: Rng, i: number, email = rng() < 0.5) => {
      // never a sandbox magic value (bounce…/fail…/flaky…, numbers ending 0001-0003): every send is delivered
      const a = await call('POST', '/v1/send', N, {
        to: email ? `mix${i}@example.com` : `+2547${30_000_000 + i * 10 + 5}`,
        template: 'mix',
        channels: [email ? 'email' : 'sms'],
        data: { name: `N${i}` },
      });
      if (!ok(a)) return failed(a);
      accepted.push({ kind: 'send', id: a.body.notification_id });
      if (!email) return true;
      emailSends.push(a.body.notification_id);
      // every other email gets a notificationUpdated subscriber (opens change them after the crashes too)
      if (emailSends.length % 2 === 1 && notificationSubs.size < WATCHED_NOTIFICATIONS) watchNotification(a.body.notification_id);
      return true;
    };
    /**
     * The recipient opens a delivered email: the open pixel (served by the notify service) answers
     * once the open is recorded. Nothing is sent while the email is not delivered yet.
     */
    const open = async (id: string) => {
      openTried.add(id);
      const n = await call('GET', `/v1/notifications/${id}`, N);
      if (!ok(n)) return failed(n);
      if (n.body.channels.email.status !== 'delivered') return !openTried.delete(id);
      const message = await call('GET', `/v1/sandbox/messages?notification_id=${id}`, N);
      if (!ok(message)) return failed(message);
      const pixel = /\/track\/open\/[^"]+\.gif/.exec(message.body.data[0].html)![0];
      const status = await fetch(new URL(proc('notify').url).origin + pixel).then(
        (r) => r.status,
        () => 0,
      );
      if (status !== 200) return failed({ status, body: null });
      accepted.push({ kind: 'open', id });
      return true;
    };
    /** A batch is sent again until it is accepted (the notify batch with an Idempotency-Key: at most one batch). */
    const untilAccepted = async (attempt: () => Promise<Answer>): Promise<Answer> => {
      let last: Answer = { status: 0, body: null };
      await eventually(
        async () => {
          last = await attempt();
          return ok(last) || failed(last);
        },
        60_000,
        200,
      );
      return last;
    };
    const notifyBatch = async (k: number) => {
      const recipients = Array.from({ length: NOTIFY_BATCH_SIZE }, (_, j) => ({
        to: `+2547${40_000_000 + k * 1_000 + j * 10 + 5}`,
        data: { name: `B${k}-${j}` },
      }));
      const body = { template: 'mix', channels: ['sms'], recipients };
      const a = await untilAccepted(() => call('POST', '/v1/send/batch', { ...N, 'idempotency-key': `mix-${SEED}-batch-${k}` }, body));
      accepted.push({ kind: 'notify.batch', id: a.body.batch_id, total: a.body.total });
    };
    const amlBatch = async (k: number) => {
      const subjects = Array.from({ length: AML_BATCH_SIZE }, (_, j) => ({
        userId: `aml-batch-${k}-${j}`,
        fullName: j % 4 === 1 ? LISTED[j % LISTED.length] : `Kwame Osei ${k}-${j}`,
      }));
      const a = await untilAccepted(() => call('POST', '/screening/aml/batch', V, { subjects, callbackUrl: callbacks.url }));
      accepted.push({ kind: 'aml.batch', id: a.body.id, total: a.body.total, callbackSecret: a.body.callbackSecret });
    };

    // --- the seeded plan: where the batches go, which service dies when ---
    const specials = new Map<number, () => Promise<unknown>>([
      [between(plan, 5, 30), () => notifyBatch(1)],
      [between(plan, 31, 70), () => amlBatch(1)],
      [between(plan, 71, 110), () => notifyBatch(2)],
    ]);
    const killOrder = Array.from({ length: ROUNDS }, () =>
      (['verification', 'risk', 'notify'] as const)
        .map((name) => ({ name, key: plan() }))
        .sort((a, b) => a.key - b.key)
        .map((k) => k.name),
    ).flat();
    const killGaps = killOrder.map((_, i) => (i === 0 ? between(plan, 15, 45) : between(plan, 10, 40)));

    /** The i-th request of the mix (its own generator: the same seed gives the same kinds of requests in the same order). */
    const nextOp = (i: number): (() => Promise<unknown>) => {
      const special = specials.get(i);
      if (special) return special;
      const rng = seeded((SEED ^ Math.imul(i + 1, 0x9e3779b1)) >>> 0);
      const r = rng();
      const watched = (key: string, step: () => Promise<boolean>) => {
        if (busyWatched.has(key)) return () => createIdentity(rng, `mix-${i}`);
        busyWatched.add(key);
        return () => step().finally(() => busyWatched.delete(key));
      };
      if (r < 0.17) return () => createIdentity(rng, `mix-${i}`);
      if (r < 0.3) {
        const id = reviewable.shift();
        return id ? () => review(rng, identities.get(id)!) : () => createIdentity(rng, `mix-${i}`);
      }
      if (r < 0.41) {
        const userId = WATCHED_USERS[Math.floor(rng() * WATCHED_USERS.length)];
        return watched(userId, () => watchedStep(rng, userId));
      }
      if (r < 0.62) return () => evaluate(rng, i);
      if (r < 0.8) return () => send(rng, i);
      if (r < 0.84) {
        const unopened = emailSends.filter((id) => !openTried.has(id));
        return unopened.length ? () => open(unopened[Math.floor(rng() * unopened.length)]) : () => send(rng, i);
      }
      if (r < 0.91) return () => screen(`aml-${i}`, rng() < 0.3 ? LISTED[i % LISTED.length] : `Grace Wanjiru ${i}`);
      if (r < 0.95) {
        const id = resolvable.shift();
        return id ? () => resolve(rng, screenings.get(id)!) : () => screen(`aml-${i}`, LISTED[i % LISTED.length]);
      }
      return watched(WATCHED_AML_USER, () => watchedAmlStep(rng));
    };

    // --- the traffic, and the kills at seeded points of it ---
    let sent = 0;
    let stopAt = Infinity;
    const progress = new Signal();
    const worker = async () => {
      while (sent < stopAt) {
        const i = sent++;
        await nextOp(i)();
        progress.notify();
      }
    };
    const kills: string[] = [];
    const chaos = async () => {
      for (const [k, name] of killOrder.entries()) {
        const at = sent + killGaps[k];
        await progress.until(() => sent >= at);
        const service = proc(name);
        await service.kill();
        kills.push(`${name}@${sent}`);
        await service.start();
        // its subscribers are served again (so that its next crash cuts them too)
        await eventually(async () => subscribers.every((s) => s.service !== name || s.sub.live), 30_000, 25);
      }
      // every subscriber is served again and has re-read the state: then more traffic
      await eventually(async () => allLive(), 30_000, 25);
      stopAt = sent + TAIL_REQUESTS;
    };
    // one email first: its subscriber lives through every notify crash
    expect(await send(() => 0, -1, true)).toBe(true);
    expect(notificationSubs.size).toBe(1);
    const trafficStarted = Date.now();
    const setupMs = trafficStarted - started;
    await Promise.all([chaos(), ...Array.from({ length: WORKERS }, () => worker())]);
    const trafficMs = Date.now() - trafficStarted;

    // After the last reconnect every subscriber's resources change again, whatever the tail did:
    // a review of each watched user, a match resolution of the watched AML user, an evaluation and
    // an open of each watched email not opened yet.
    const changes = (kind: Accepted['kind'], of: (id: string) => boolean) => accepted.filter((a) => a.kind === kind && of(a.id)).length;
    for (const [k, userId] of WATCHED_USERS.entries()) {
      const reviews = () => changes('identity.review', (id) => identities.get(id)!.userId === userId);
      const before = reviews();
      await eventually(async () => (await watchedStep(seeded(SEED + k), userId)) && reviews() > before, 30_000);
    }
    const resolutions = () => changes('aml.resolve', (id) => screenings.get(id)!.userId === WATCHED_AML_USER);
    const resolvedBefore = resolutions();
    await eventually(async () => (await watchedAmlStep(seeded(SEED))) && resolutions() > resolvedBefore, 30_000);
    let extra = 0;
    await eventually(() => evaluate(seeded(SEED), --extra), 30_000);
    for (const id of notificationSubs.keys()) {
      if (!changes('open', (opened) => opened === id)) await eventually(() => open(id), 30_000);
    }

    // --- every accepted request is found again ---
    const hookEvents = () => {
      const seen = new Set<string>();
      for (const req of hooks.received) {
        const { event, data } = verifiedPayload(webhook.body.secret, req);
        const id = data.identityVerificationId ?? data.evaluationId ?? data.notificationId ?? data.screeningId ?? data.batchId ?? '(no id)';
        seen.add(`${event} ${id}`);
        if (data.status) seen.add(`${event} ${id} ${data.status}`);
        for (const [channel, c] of Object.entries((data.channels ?? {}) as Record<string, { status: string }>)) {
          seen.add(`${event} ${id} ${channel}:${c.status}`);
        }
      }
      return seen;
    };
    const callbackFor = (batchId: string, secret: string) =>
      callbacks.received.some((req: ReceivedRequest) => {
        const body = JSON.parse(req.body);
        return body.data?.batchId === batchId && verifiedPayload(secret, req).event === 'aml.batch_complete';
      });
    const recovered = new Set<Accepted>();
    const missing = new Map<Accepted, string>();

    /** What is wrong with an accepted request after the crashes (null: it was found again, whole). */
    const check = async (a: Accepted, seen: Set<string>): Promise<string | null> => {
      switch (a.kind) {
        case 'identity.create':
        case 'identity.review': {
          const r = await call('GET', `/verifications/identity/${a.id}`, V);
          if (r.status !== 200) return `identity ${a.id}: ${r.status}`;
          const rec = identities.get(a.id)!;
          if (!allowed(rec).has(r.body.overallStatus)) return `identity ${a.id} is ${r.body.overallStatus}, allowed ${[...allowed(rec)]}`;
          if (a.kind === 'identity.create') return null;
          if (r.body.overallStatus !== a.decision) return `identity ${a.id} is ${r.body.overallStatus} after an accepted ${a.decision}`;
          const event = a.decision === 'VERIFIED' ? 'identity.verified' : 'identity.rejected';
          return seen.has(`${event} ${a.id}`) ? null : `no ${event} webhook for ${a.id}`;
        }
        case 'evaluation': {
          const r = await call('GET', `/v1/evaluations/${a.id}`, R);
          if (r.status !== 200) return `evaluation ${a.id}: ${r.status}`;
          if (r.body.action !== a.action || r.body.score !== a.score || r.body.transaction_id !== a.transactionId) {
            return `evaluation ${a.id} reads ${r.body.action}/${r.body.score}, accepted ${a.action}/${a.score}`;
          }
          return seen.has(`evaluation.${a.action} ${a.id}`) ? null : `no evaluation.${a.action} webhook for ${a.id}`;
        }
        case 'aml':
        case 'aml.resolve': {
          const r = await call('GET', `/screening/aml/${a.id}`, V);
          if (r.status !== 200) return `screening ${a.id}: ${r.status}`;
          const rec = screenings.get(a.id)!;
          if (!allowed(rec).has(r.body.status)) return `screening ${a.id} is ${r.body.status}, allowed ${[...allowed(rec)]}`;
          const event = amlEvent(a.status, a.kind === 'aml');
          return !event || seen.has(`${event} ${a.id} ${a.status}`) ? null : `no ${event} webhook for ${a.id} (${a.status})`;
        }
        case 'send': {
          const r = await call('GET', `/v1/notifications/${a.id}`, N);
          if (r.status !== 200) return `notification ${a.id}: ${r.status}`;
          if (r.body.status !== 'delivered') return `notification ${a.id} is ${r.body.status}`;
          if (!seen.has(`notification.dispatched ${a.id}`)) return `no notification.dispatched webhook for ${a.id}`;
          return seen.has(`notification.updated ${a.id} delivered`) ? null : `no final notification.updated webhook for ${a.id}`;
        }
        case 'open': {
          const r = await call('GET', `/v1/notifications/${a.id}`, N);
          if (r.status !== 200) return `notification ${a.id}: ${r.status}`;
          const email = r.body.channels.email;
          if (email.status !== 'opened' || !email.opened_at) return `notification ${a.id} email is ${email.status} after an accepted open`;
          return seen.has(`notification.updated ${a.id} email:opened`) ? null : `no notification.updated webhook for the open of ${a.id}`;
        }
        case 'notify.batch': {
          const b = await call('GET', `/v1/send/batch/${a.id}`, N);
          if (b.status !== 200) return `batch ${a.id}: ${b.status}`;
          const { status, total, processed, succeeded, failed: failedCount, queued } = b.body;
          if (status !== 'completed') return `batch ${a.id} is ${status} (${processed}/${total})`;
          if (total !== NOTIFY_BATCH_SIZE || processed !== total || succeeded !== total || failedCount !== 0 || queued !== 0) {
            return `batch ${a.id} counts ${JSON.stringify({ total, processed, succeeded, failedCount, queued })}`;
          }
          const list = await call('GET', `/v1/notifications?batch_id=${a.id}&limit=100`, N);
          const rows: Array<{ notification_id: string; to: string; status: string }> = list.body.data;
          const recipients = new Set(rows.map((n) => n.to)).size;
          if (list.body.total !== total || recipients !== total)
            return `batch ${a.id} has ${list.body.total} notifications for ${recipients} recipients`;
          const undelivered = rows.filter(
            (n) => n.status !== 'delivered' || !seen.has(`notification.updated ${n.notification_id} delivered`),
          );
          if (undelivered.length) return `batch ${a.id}: ${undelivered.length} notifications without a final delivered webhook`;
          return seen.has(`batch.completed ${a.id}`) ? null : `no batch.completed webhook for ${a.id}`;
        }
        case 'aml.batch': {
          const b = await call('GET', `/screening/aml/batch/${a.id}`, V);
          if (b.status !== 200) return `AML batch ${a.id}: ${b.status}`;
          const { status, total, processed, results, callbackStatus } = b.body;
          if (status !== 'COMPLETED' || processed !== total || total !== AML_BATCH_SIZE) {
            return `AML batch ${a.id} is ${status} ${processed}/${total}`;
          }
          const subjects = new Set(results.map((r: { userId: string }) => r.userId)).size;
          if (results.length !== total || subjects !== total)
            return `AML batch ${a.id} has ${results.length} results for ${subjects} subjects`;
          if (callbackStatus !== 'DELIVERED' || !callbackFor(a.id, a.callbackSecret)) return `AML batch ${a.id} callback ${callbackStatus}`;
          if (!seen.has(`aml.batch_complete ${a.id}`)) return `no aml.batch_complete webhook for ${a.id}`;
          const unseen = results.filter(
            (r: { status: string; screeningId: string }) => !seen.has(`${amlEvent(r.status, true)} ${r.screeningId} ${r.status}`),
          );
          return unseen.length ? `AML batch ${a.id}: ${unseen.length} subjects without their webhook` : null;
        }
      }
    };
    const recoverAll = async () => {
      const seen = hookEvents();
      const open = accepted.filter((a) => !recovered.has(a));
      for (let i = 0; i < open.length; i += 8) {
        await Promise.all(
          open.slice(i, i + 8).map(async (a) => {
            const problem = await check(a, seen);
            if (problem) return void missing.set(a, problem);
            missing.delete(a);
            recovered.add(a);
          }),
        );
      }
      return recovered.size === accepted.length;
    };
    // a thrown error (a webhook with a bad signature, a broken answer) is reported as such, not as a loss
    let broken: unknown = null;
    const recoveryStarted = Date.now();
    await eventually(
      async () => {
        try {
          broken = null;
          return await recoverAll();
        } catch (err) {
          broken = err;
          return false;
        }
      },
      60_000,
      500,
    ).catch(() => undefined);
    if (broken) throw broken;
    const lost = accepted.length - recovered.size;
    const recoveryMs = Date.now() - recoveryStarted;
    const count = (kind: Accepted['kind']) => accepted.filter((a) => a.kind === kind).length;
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    console.log(`crash mix: seed ${SEED}, accepted ${accepted.length}, recovered ${recovered.size}, lost ${lost}`);
    console.log(
      `crash mix: setup ${seconds(setupMs)}; kills ${kills.join(', ')}; ${sent} requests in ${seconds(trafficMs)}, ` +
        `${failures} not accepted (${[...failureStatuses].map(([s, n]) => `${s || 'no answer'}×${n}`).join(', ')}); accepted: ` +
        `${count('identity.create')} identity creates, ${count('identity.review')} reviews, ${count('evaluation')} evaluations, ` +
        `${count('aml')} screenings, ${count('aml.resolve')} match resolutions, ${count('send')} sends, ${count('open')} email opens, ` +
        `${count('notify.batch')} notify batches, ${count('aml.batch')} AML batch; ${hooks.received.length} webhook requests; ` +
        `all found again in ${seconds(recoveryMs)}`,
    );
    expect([...missing.values()].slice(0, 10)).toEqual([]);
    expect(lost).toBe(0);
    // the crashes were real: each service died ROUNDS times, and requests failed while it was down
    expect(kills).toHaveLength(3 * ROUNDS);
    expect(failures).toBeGreaterThan(0);

    // --- subscribers: cut by each crash, served again, and their view is the final state ---
    const unavailable = (s: SubscriptionSession) =>
      Array.isArray(s.endedWith) && s.endedWith.some((e: { extensions?: { code?: string } }) => e.extensions?.code === 'UNAVAILABLE');
    for (const { sub } of subscribers) {
      expect(sub.sessions.filter((s) => s.endedAt !== undefined && !unavailable(s)).map((s) => s.endedWith)).toEqual([]);
      expect(sub.live).toBe(true);
    }
    // the user and evaluation subscribers, and the first notification's, were open from the start: every crash of their service cut them
    const servedSessions = (sub: ReconnectingSubscription) => sub.sessions.filter((s) => s.liveAt !== undefined).length;
    for (const sub of [...userWatches.map((w) => w.sub), evaluationSub, notificationSubs.values().next().value!]) {
      expect(servedSessions(sub)).toBeGreaterThanOrEqual(ROUNDS + 1);
    }

    const strict = { identity: 0, aml: 0, evaluation: 0, notification: 0 };
    /** A change committed after the last session was served: it must have come as an event of that session. */
    const afterReconnect = (sub: ReconnectingSubscription, at: string, isIt: (data: any) => boolean) => {
      const session = sub.subscribed!;
      if (Date.parse(at) <= session.liveAt!) return null;
      return session.events.some((e) => isIt(e.data));
    };
    await eventually(
      async () => {
        strict.identity = strict.aml = strict.evaluation = strict.notification = 0;
        for (const w of userWatches) {
          const records = await w.read();
          expect(new Set(w.view.items.keys())).toEqual(new Set(records.map((x) => x.id)));
          for (const rec of records) {
            const stored = { id: rec.id, status: rec.status, updatedAt: Date.parse(rec.updatedAt) };
            expect({ id: rec.id, ...w.view.items.get(rec.id) }).toEqual(stored);
            const event = afterReconnect(
              w.sub,
              rec.updatedAt,
              (d) => KINDS[w.what].node(d).id === rec.id && KINDS[w.what].node(d).updatedAt === rec.updatedAt,
            );
            if (event === null) continue;
            strict[w.what] += 1;
            expect({ ...stored, eventAfterReconnect: event }).toEqual({ ...stored, eventAfterReconnect: true });
          }
        }
        const evaluations = await readEvaluations();
        expect(new Set(evaluationView.keys())).toEqual(new Set(evaluations.map((e) => e.id)));
        for (const e of evaluations) {
          expect({ id: e.id, action: evaluationView.get(e.id)?.action }).toEqual({ id: e.id, action: e.action });
          const event = afterReconnect(evaluationSub, e.createdAt, (d) => d.riskEvaluationCreated.node.id === e.id);
          if (event === null) continue;
          strict.evaluation += 1;
          expect({ id: e.id, eventAfterReconnect: event }).toEqual({ id: e.id, eventAfterReconnect: true });
        }
        for (const [id, sub] of notificationSubs) {
          const r = await call('GET', `/v1/notifications/${id}`, N);
          const channels = Object.entries(r.body.channels as Record<string, { status: string }>).map(([channel, c]) => ({
            channel,
            status: c.status,
          }));
          const stored = { id, status: notificationState({ status: r.body.status, channels }), updatedAt: Date.parse(r.body.updated_at) };
          expect({ id, ...notificationViews.get(id)!.items.get(id) }).toEqual(stored);
          const event = afterReconnect(sub, r.body.updated_at, (d) => d.notificationUpdated.node.updatedAt === r.body.updated_at);
          if (event === null) continue;
          strict.notification += 1;
          expect({ ...stored, eventAfterReconnect: event }).toEqual({ ...stored, eventAfterReconnect: true });
        }
        return true;
      },
      20_000,
      250,
    );
    // the changes made after the last reconnect (see above) reached the subscribers as events
    expect(strict.identity).toBeGreaterThanOrEqual(WATCHED_USERS.length);
    expect(strict.aml).toBeGreaterThan(0);
    expect(strict.evaluation).toBeGreaterThan(0);
    expect(strict.notification).toBeGreaterThan(0);
    console.log(
      `crash mix: ${subscribers.length} reconnecting subscribers, ${subscribers.reduce((n, s) => n + servedSessions(s.sub), 0)} ` +
        `served sessions; changes after the last reconnect received as events: ${strict.identity} identity verifications, ` +
        `${strict.aml} AML screenings, ${strict.evaluation} evaluations, ${strict.notification} notifications; ` +
        `${seconds(Date.now() - started)} in all`,
    );
  }, 180_000);
});
