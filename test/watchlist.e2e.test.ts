import pg from 'pg';
import { importSnapshot, type ListEntry } from '../screening/index.js';
import { eventually, startTestStack, type TestStack } from './support/stack.js';
import { selfSignedCertificate, startReceiver } from './support/https-receiver.js';

const cert = selfSignedCertificate();

const person = (externalId: string, full: string, extra: Partial<ListEntry> = {}): ListEntry => ({
  source: 'UN_SC',
  kind: 'SANCTIONS',
  externalId,
  entityType: 'INDIVIDUAL',
  names: [{ full, type: 'PRIMARY' }],
  datesOfBirth: [],
  nationalities: [],
  documents: [],
  programs: ['Fixture programme'],
  ...extra,
});

// fixture list versions written for this test
const AHMED = person('QDi.901', 'Ahmed Musa Bello', { addedDate: '2019-05-02' });
const OTHER = person('QDi.903', 'Oumar Traore Diallo');
const KWAME = person('QDi.950', 'Kwame Osei Mensah', { addedDate: '2026-11-20' });
const PEPS: ListEntry[] = [{ ...person('P-1', 'Amina Wanjiru Odhiambo'), source: 'CUSTOM_PEPS', kind: 'PEP' }];

const SCAN_INTERVAL_HOURS = 0.002; // 7.2 s, so the periodic rescan is observable

describe('watchlist monitoring end to end', () => {
  let stack: TestStack;
  let pool: pg.Pool;
  let h: Record<string, string>;
  let clientId: string;
  let organizationId: string;

  const alerts = async (query: string, headers = h) =>
    (await stack.rest('GET', `/monitoring/watchlist/alerts${query}`, undefined, headers)).body;

  beforeAll(async () => {
    stack = await startTestStack(
      { WATCHLIST_SCAN_INTERVAL_HOURS: String(SCAN_INTERVAL_HOURS), WATCHLIST_POLL_SECONDS: '0.5' },
      { webhookCa: cert.cert },
    );
    pool = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
    const client = await stack.createClient({ name: 'monitoring' });
    h = { 'x-api-key': client.apiKey };
    clientId = client.id;
    organizationId = client.organizationId;
    await importSnapshot(pool, 'UN_SC', [AHMED, OTHER]);
    await importSnapshot(pool, 'CUSTOM_PEPS', PEPS);
  });
  afterAll(async () => {
    await pool?.end();
    await stack?.stop();
  });

  it('subscribes (Form A), screens at once and raises an OPEN alert for a listed person', async () => {
    // the index reloads on the snapshot notification; until then a subscription finds nothing and is rescanned on reload
    const res = await stack.rest(
      'POST',
      '/v1/monitoring/watchlist/subscribe',
      { userId: 'ahmed', fullName: 'Ahmed Musa Bello', dateOfBirth: '1970-03-12', nationality: 'NG' },
      h,
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      userId: 'ahmed',
      status: 'ACTIVE',
      lists: ['SANCTIONS', 'PEP', 'ADVERSE_MEDIA'],
      cancelledAt: null,
      nationality: 'NG',
    });
    const next = Date.parse(res.body.nextScanAt) - Date.parse(res.body.createdAt);
    expect(next).toBeGreaterThan(SCAN_INTERVAL_HOURS * 3_600_000 * 0.9);
    const list = await eventually(async () => {
      const body = await alerts('?userId=ahmed');
      return body.data.length ? body : null;
    });
    expect(list.pagination).toEqual({ page: 1, limit: 20, total: 1 });
    expect(list.data[0]).toMatchObject({
      subscriptionId: res.body.id,
      userId: 'ahmed',
      status: 'OPEN',
      match: {
        listName: 'UN_SC',
        source: 'UN_SC',
        matchedName: 'Ahmed Musa Bello',
        addedDate: '2019-05-02',
        kind: 'SANCTIONS',
        externalId: 'QDi.901',
        listVersion: 'v1',
      },
      clearedAt: null,
    });
    expect(list.data[0].match.matchScore).toBeGreaterThanOrEqual(0.85);
    expect(Date.parse(list.data[0].detectedAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('alerts on a new list snapshot (Form B subscriber), clears a vanished match, with webhooks and a live subscription', async () => {
    const receiver = await startReceiver(cert);
    expect(
      (
        await stack.rest(
          'POST',
          '/webhooks/configure',
          { clientId, callbackUrl: receiver.url, events: ['watchlist.alert', 'watchlist.clear'] },
          h,
        )
      ).status,
    ).toBe(201);
    const sub = await stack.rest(
      'POST',
      '/screening/watchlist/subscribe',
      { userId: 'kwame', fullName: 'Kwame Osei Mensah', country: 'GH' },
      h,
    );
    expect(sub.status).toBe(201);
    expect(sub.body).toMatchObject({ status: 'ACTIVE', country: 'GH', lists: ['SANCTIONS', 'PEP', 'ADVERSE_MEDIA'] });
    expect((await alerts('?userId=kwame')).pagination.total).toBe(0);

    const live = stack.subscribe(
      `subscription { watchlistAlertUpdatedForUser(userId: "kwame") { type node { id userId status match { externalId listVersion } subscription { id } } } }`,
      {},
      h,
    );
    await live.ready;
    // v2: Kwame is added, Ahmed is removed
    await importSnapshot(pool, 'UN_SC', [OTHER, KWAME]);

    const [created] = await live.next(1, 20_000);
    expect(created.data.watchlistAlertUpdatedForUser).toMatchObject({
      type: 'WATCHLIST_ALERT',
      node: { userId: 'kwame', status: 'OPEN', match: { externalId: 'QDi.950', listVersion: 'v2' }, subscription: { id: sub.body.id } },
    });
    await live.close();

    const cleared = await eventually(async () =>
      (await alerts('?userId=ahmed')).data.find((a: { clearedAt: string | null }) => a.clearedAt),
    );
    expect(cleared.status).toBe('OPEN'); // a cleared match keeps its review status

    // both deliveries, whatever else arrived first: the previous test's alert may reach this
    // endpoint too when its event is delivered after the endpoint was configured
    const delivered = (event: string, userId: string) =>
      receiver.received.some((r) => {
        const body = JSON.parse(r.body) as { event: string; data: { userId: string } };
        return body.event === event && body.data.userId === userId;
      });
    await eventually(async () => delivered('watchlist.alert', 'kwame') && delivered('watchlist.clear', 'ahmed'), 15_000);
    const payloads = receiver.received.map((r) => JSON.parse(r.body));
    expect(payloads).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          event: 'watchlist.alert',
          data: expect.objectContaining({
            userId: 'kwame',
            subscriptionId: sub.body.id,
            status: 'OPEN',
            match: expect.objectContaining({ listName: 'UN_SC', matchedName: 'Kwame Osei Mensah', addedDate: '2026-11-20' }),
          }),
        }),
        expect.objectContaining({
          event: 'watchlist.clear',
          data: expect.objectContaining({ userId: 'ahmed', alertId: cleared.id, clearedAt: expect.any(String) }),
        }),
      ]),
    );
    // the scan is idempotent: a later scan raises no second alert for the same entry
    const scanned = async () =>
      (await pool.query<{ at: Date }>(`select last_scan_at as at from verification.watchlist_subscriptions where id = $1`, [sub.body.id]))
        .rows[0].at;
    const before = await scanned();
    await pool.query(`update verification.watchlist_subscriptions set next_scan_at = now() where id = $1`, [sub.body.id]);
    await eventually(async () => (await scanned()) > before);
    expect((await alerts('?userId=kwame')).pagination.total).toBe(1);
    await receiver.close();
  });

  it('rescans every subscription periodically', async () => {
    const q = `query($id: ID!) { watchlistSubscription(id: $id) { lastScanAt nextScanAt } }`;
    const sub = (await stack.rest('POST', '/monitoring/watchlist/subscribe', { userId: 'periodic', fullName: 'Someone Unlisted' }, h)).body;
    const first = (await stack.gql(q, { id: sub.id }, h)).body.data.watchlistSubscription;
    const later = await eventually(async () => {
      const s = (await stack.gql(q, { id: sub.id }, h)).body.data.watchlistSubscription;
      return s.lastScanAt !== first.lastScanAt ? s : null;
    }, 20_000);
    expect(Date.parse(later.lastScanAt)).toBeGreaterThanOrEqual(Date.parse(first.nextScanAt) - 1000);
    expect(Date.parse(later.nextScanAt)).toBeGreaterThan(Date.parse(later.lastScanAt));
  });

  it('reviews and dismisses OPEN alerts with the reviewer and a note; watchlistAlert and watchlistAlertUpdated show it', async () => {
    // alerts of its own: two subscribers named like a listed person
    for (const userId of ['review-a', 'review-b']) {
      const subscribed = await stack.rest('POST', '/monitoring/watchlist/subscribe', { userId, fullName: 'Oumar Traore Diallo' }, h);
      expect(subscribed.status).toBe(201);
    }
    const [a, b] = await eventually(async () => {
      const found = await Promise.all(['review-a', 'review-b'].map(async (u) => (await alerts(`?userId=${u}`)).data[0]));
      return found.every(Boolean) ? found : null;
    });
    expect([a.status, b.status]).toEqual(['OPEN', 'OPEN']);
    const updates = stack.subscribe(
      `subscription { watchlistAlertUpdatedForUser(userId: "review-a") { type node { id status reviewedBy reviewNote } } }`,
      {},
      h,
    );
    const updatesOfB = stack.subscribe(
      `subscription($id: ID!) { watchlistAlertUpdated(id: $id) { type occurredAt node { id status reviewNote } } }`,
      { id: b.id },
      h,
    );
    await Promise.all([updates.ready, updatesOfB.ready]);
    const reviewed = await stack.rest(
      'POST',
      `/monitoring/watchlist/alerts/${a.id}/review`,
      { status: 'REVIEWED', reviewedBy: 'analyst-3', note: 'escalated to the MLRO' },
      h,
    );
    expect(reviewed.status).toBe(200);
    expect(reviewed.body).toMatchObject({ id: a.id, status: 'REVIEWED', reviewedBy: 'analyst-3', reviewNote: 'escalated to the MLRO' });
    expect(Date.now() - Date.parse(reviewed.body.reviewedAt)).toBeLessThan(60_000);
    const [update] = await updates.next(1);
    expect(update.data.watchlistAlertUpdatedForUser).toEqual({
      type: 'WATCHLIST_ALERT_REVIEWED',
      node: { id: a.id, status: 'REVIEWED', reviewedBy: 'analyst-3', reviewNote: 'escalated to the MLRO' },
    });
    await updates.close();
    const one = await stack.gql(
      `query($id: ID!) { watchlistAlert(id: $id) { id userId status reviewedBy match { listName score kind entityType } subscription { userId status } } }`,
      { id: a.id },
      h,
    );
    expect(one.body.data.watchlistAlert).toEqual({
      id: a.id,
      userId: 'review-a',
      status: 'REVIEWED',
      reviewedBy: 'analyst-3',
      match: { listName: 'UN_SC', score: a.match.matchScore, kind: 'SANCTIONS', entityType: 'INDIVIDUAL' },
      subscription: { userId: 'review-a', status: 'ACTIVE' },
    });
    const dismissed = await stack.gql(
      `mutation($id: ID!) { reviewWatchlistAlert(input: { id: $id, status: DISMISSED, reviewedBy: "analyst-3", note: "namesake, different DOB" }) { watchlistAlert { status reviewNote } userErrors { field code message } } }`,
      { id: b.id },
      h,
    );
    expect(dismissed.body.data.reviewWatchlistAlert).toEqual({
      watchlistAlert: { status: 'DISMISSED', reviewNote: 'namesake, different DOB' },
      userErrors: [],
    });
    const dismissal = await eventually(async () =>
      updatesOfB.events.map((e) => e.data.watchlistAlertUpdated).find((u) => u.type === 'WATCHLIST_ALERT_DISMISSED'),
    );
    expect(dismissal.node).toEqual({ id: b.id, status: 'DISMISSED', reviewNote: 'namesake, different DOB' });
    expect(Date.parse(dismissal.occurredAt)).toBeGreaterThan(Date.now() - 60_000);
    await updatesOfB.close();
    const again = await stack.rest(
      'POST',
      `/screening/watchlist/alerts/${a.id}/review`,
      { status: 'DISMISSED', reviewedBy: 'x', note: 'y' },
      h,
    );
    expect(again.status).toBe(409);
    expect(
      (await stack.rest('POST', `/screening/watchlist/alerts/${a.id}/review`, { status: 'OPEN', reviewedBy: 'x', note: 'y' }, h)).status,
    ).toBe(422);
    expect((await stack.rest('POST', `/screening/watchlist/alerts/${a.id}/review`, { status: 'REVIEWED' }, h)).status).toBe(400);
    const filtered = await alerts('?status=REVIEWED&userId=review-a');
    expect(filtered.data.map((x: { id: string }) => x.id)).toEqual([a.id]);
    const page = (await stack.rest('GET', '/screening/watchlist/alerts?limit=1&page=2', undefined, h)).body;
    expect(page.pagination).toMatchObject({ page: 2, limit: 1 });
    expect(page.data).toHaveLength(1);
    const missing = await stack.gql(
      `query { watchlistAlert(id: "00000000-0000-0000-0000-000000000000") { id } watchlistSubscription(id: "nope") { id } }`,
      {},
      h,
    );
    expect(missing.body).toEqual({ data: { watchlistAlert: null, watchlistSubscription: null } });
  });

  it('unsubscribes (both forms): CANCELLED with cancelledAt, not scanned any more, listed by status', async () => {
    const a = (
      await stack.rest(
        'POST',
        '/monitoring/watchlist/subscribe',
        { userId: 'leaving-a', fullName: 'Oumar Traore Diallo', lists: ['SANCTIONS'] },
        h,
      )
    ).body;
    expect(a.lists).toEqual(['SANCTIONS']);
    const cancelled = await stack.rest('DELETE', `/monitoring/watchlist/subscribe/${a.id}`, undefined, h);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: a.id, status: 'CANCELLED', nextScanAt: null });
    expect(Date.parse(cancelled.body.cancelledAt)).toBeGreaterThan(Date.now() - 60_000);
    expect((await stack.rest('DELETE', `/monitoring/watchlist/subscribe/${a.id}`, undefined, h)).status).toBe(409);
    // a new snapshot rescans the ACTIVE subscriptions only
    const q = `query($id: ID!) { watchlistSubscription(id: $id) { lastScanAt scannedStatus: status } }`;
    const kwameSub = (await stack.rest('GET', '/monitoring/watchlist/subscriptions?userId=kwame', undefined, h)).body.data[0];
    const before = (await stack.gql(q, { id: a.id }, h)).body.data.watchlistSubscription.lastScanAt;
    await importSnapshot(pool, 'UN_SC', [OTHER, KWAME, person('QDi.960', 'Someone Else Entirely')]);
    await eventually(
      async () => (await stack.gql(q, { id: kwameSub.id }, h)).body.data.watchlistSubscription.lastScanAt !== kwameSub.lastScanAt,
    );
    expect((await stack.gql(q, { id: a.id }, h)).body.data.watchlistSubscription.lastScanAt).toBe(before);

    const b = (await stack.rest('POST', '/screening/watchlist/subscribe', { userId: 'leaving-b', fullName: 'Nobody Listed' }, h)).body;
    expect((await stack.rest('DELETE', `/screening/watchlist/unsubscribe/${b.id}`, undefined, h)).body.status).toBe('CANCELLED');
    expect((await stack.rest('DELETE', '/screening/watchlist/unsubscribe/00000000-0000-0000-0000-000000000000', undefined, h)).status).toBe(
      404,
    );

    const listed = (await stack.rest('GET', '/monitoring/watchlist/subscriptions?status=CANCELLED', undefined, h)).body;
    expect(listed.pagination.total).toBe(2);
    expect(listed.data.map((s: { id: string }) => s.id).sort()).toEqual([a.id, b.id].sort());
    const active = (await stack.rest('GET', '/screening/watchlist/subscriptions?status=ACTIVE&limit=100', undefined, h)).body;
    expect(active.data.every((s: { status: string }) => s.status === 'ACTIVE')).toBe(true);

    // a user may subscribe again once the earlier subscription is cancelled
    expect(
      (await stack.rest('POST', '/monitoring/watchlist/subscribe', { userId: 'leaving-a', fullName: 'Oumar Traore Diallo' }, h)).status,
    ).toBe(201);
  });

  it('validates: 400 missing, 422 invalid, 409 a second ACTIVE subscription', async () => {
    const missing = await stack.rest('POST', '/monitoring/watchlist/subscribe', { userId: 'v' }, h);
    expect(missing.status).toBe(400);
    expect(missing.body.message).toEqual(['fullName is required']);
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ lists: ['LAW_ENFORCEMENT'] }, /must be one of/],
      [{ lists: [] }, /at least one/],
      [{ dateOfBirth: '31-12-1980' }, /YYYY-MM-DD/],
      [{ nationality: 'Nigerian' }, /nationality must be an uppercase ISO/],
    ];
    for (const [extra, message] of cases) {
      const res = await stack.rest('POST', '/monitoring/watchlist/subscribe', { userId: 'v', fullName: 'Valid Name', ...extra }, h);
      expect([extra, res.status]).toEqual([extra, 422]);
      expect(res.body.message.join(' ')).toMatch(message);
    }
    expect(
      (await stack.rest('POST', '/screening/watchlist/subscribe', { userId: 'v', fullName: 'Valid Name', country: 'gh' }, h)).status,
    ).toBe(422);
    const dup = await stack.rest('POST', '/screening/watchlist/subscribe', { userId: 'ahmed', fullName: 'Ahmed Musa Bello' }, h);
    expect(dup.status).toBe(409);
    expect(dup.body.message).toMatch(/already has an ACTIVE watchlist subscription/);
    expect((await stack.rest('GET', '/monitoring/watchlist/alerts?status=CLOSED', undefined, h)).status).toBe(422);
    expect((await stack.rest('GET', '/monitoring/watchlist/alerts?limit=101', undefined, h)).status).toBe(400);
    expect((await stack.rest('GET', '/monitoring/watchlist/alerts?page=x', undefined, h)).status).toBe(400);
  });

  it('keeps subscriptions and alerts per organization and needs the monitoring permission', async () => {
    const other = { 'x-api-key': (await stack.createClient({ name: 'other org' })).apiKey };
    expect((await alerts('', other)).pagination.total).toBe(0);
    expect((await stack.rest('GET', '/monitoring/watchlist/subscriptions', undefined, other)).body.pagination.total).toBe(0);
    await stack.rest('POST', '/monitoring/watchlist/subscribe', { userId: 'tenancy-own', fullName: 'Oumar Traore Diallo' }, h);
    const mine = await eventually(async () => (await alerts('?userId=tenancy-own')).data[0]);
    expect(
      (
        await stack.rest(
          'POST',
          `/monitoring/watchlist/alerts/${mine.id}/review`,
          { status: 'REVIEWED', reviewedBy: 'x', note: 'y' },
          other,
        )
      ).status,
    ).toBe(404);
    // a key that may only review still gets the whole alert, its subscription (by id) included
    const writer = {
      'x-api-key': (await stack.createClient({ name: 'reviewer', organizationId, permissions: ['monitoring:write'] })).apiKey,
    };
    const byWriter = await stack.rest(
      'POST',
      `/monitoring/watchlist/alerts/${mine.id}/review`,
      { status: 'REVIEWED', reviewedBy: 'w', note: 'n' },
      writer,
    );
    expect(byWriter.status).toBe(200);
    expect(byWriter.body).toMatchObject({ id: mine.id, subscriptionId: mine.subscriptionId, status: 'REVIEWED' });
    // the same user id in another organization is another subscription
    expect(
      (await stack.rest('POST', '/monitoring/watchlist/subscribe', { userId: 'ahmed', fullName: 'Ahmed Musa Bello' }, other)).status,
    ).toBe(201);
    const reader = { 'x-api-key': (await stack.createClient({ name: 'reader', permissions: ['monitoring:read'] })).apiKey };
    expect((await stack.rest('POST', '/monitoring/watchlist/subscribe', { userId: 'r', fullName: 'Read Only' }, reader)).status).toBe(403);
    expect((await alerts('', reader)).pagination).toMatchObject({ total: 0 });
  });

  describe('GraphQL', () => {
    const USER_ERRORS = 'userErrors { field code message }';
    const SUBSCRIBE = `mutation($input: SubscribeWatchlistInput!) { subscribeWatchlist(input: $input) {
      watchlistSubscription { id userId status lists nationality dateOfBirth } ${USER_ERRORS} } }`;
    const CANCEL = `mutation($id: ID!) { cancelWatchlistSubscription(input: { id: $id }) {
      watchlistSubscription { id status cancelledAt } ${USER_ERRORS} } }`;
    const REVIEW = `mutation($input: ReviewWatchlistAlertInput!) { reviewWatchlistAlert(input: $input) { watchlistAlert { id status } ${USER_ERRORS} } }`;

    it('subscribing and cancelling answer payloads with user errors naming the field, and reach the subscription’s subscribers', async () => {
      const forUser = stack.subscribe(
        `subscription { watchlistSubscriptionUpdatedForUser(userId: "gql-sub") { type node { id status } } }`,
        {},
        h,
      );
      await forUser.ready;
      const bad = await stack.gql(
        SUBSCRIBE,
        { input: { userId: 'gql-sub', fullName: 'Valid Name', nationality: 'Nigerian', dateOfBirth: '1980-02-30' } },
        h,
      );
      expect(bad.body.data.subscribeWatchlist).toEqual({
        watchlistSubscription: null,
        userErrors: [
          { field: ['input', 'dateOfBirth'], code: 'VALIDATION_FAILED', message: 'dateOfBirth must be a date in YYYY-MM-DD format' },
          {
            field: ['input', 'nationality'],
            code: 'VALIDATION_FAILED',
            message: 'nationality must be an uppercase ISO 3166-1 alpha-2 country code',
          },
        ],
      });
      // law-enforcement lists are not watched: not a value of the input's enum
      const unwatched = await stack.gql(SUBSCRIBE, { input: { userId: 'gql-sub', fullName: 'Valid Name', lists: ['LAW_ENFORCEMENT'] } }, h);
      expect(unwatched.body.errors?.[0]).toMatchObject({
        message: 'lists[0] must be one of: SANCTIONS, PEP, ADVERSE_MEDIA',
        extensions: { code: 'VALIDATION_FAILED' },
      });
      const ok = await stack.gql(
        SUBSCRIBE,
        { input: { userId: 'gql-sub', fullName: 'Nobody Listed Here', nationality: 'NG', dateOfBirth: '1980-01-31', lists: ['PEP'] } },
        h,
      );
      const id = ok.body.data.subscribeWatchlist.watchlistSubscription?.id;
      expect(ok.body.data.subscribeWatchlist).toEqual({
        watchlistSubscription: { id, userId: 'gql-sub', status: 'ACTIVE', lists: ['PEP'], nationality: 'NG', dateOfBirth: '1980-01-31' },
        userErrors: [],
      });
      const twice = await stack.gql(SUBSCRIBE, { input: { userId: 'gql-sub', fullName: 'Nobody Listed Here' } }, h);
      expect(twice.body.data.subscribeWatchlist.userErrors).toEqual([
        {
          field: null,
          code: 'CONFLICT',
          message: `User gql-sub already has an ACTIVE watchlist subscription (${id}); unsubscribe it first`,
        },
      ]);

      const byId = stack.subscribe(
        `subscription($id: ID!) { watchlistSubscriptionUpdated(id: $id) { type occurredAt node { id status cancelledAt } } }`,
        { id },
        h,
      );
      await byId.ready;
      const cancelled = await stack.gql(CANCEL, { id }, h);
      expect(cancelled.body.data.cancelWatchlistSubscription).toEqual({
        watchlistSubscription: { id, status: 'CANCELLED', cancelledAt: expect.any(String) },
        userErrors: [],
      });
      // (the subscription's creation, committed before this subscriber came, may reach it too)
      const event = await eventually(async () =>
        byId.events.map((e) => e.data.watchlistSubscriptionUpdated).find((u) => u.type === 'WATCHLIST_UNSUBSCRIBED'),
      );
      expect(event).toMatchObject({ node: { id, status: 'CANCELLED' } });
      expect(Date.parse(event.occurredAt)).toBeGreaterThan(Date.now() - 60_000);
      const ofUser = (await forUser.next(2)).map((e) => e.data.watchlistSubscriptionUpdatedForUser);
      expect(ofUser).toEqual([
        { type: 'WATCHLIST_SUBSCRIBED', node: { id, status: 'ACTIVE' } },
        { type: 'WATCHLIST_UNSUBSCRIBED', node: { id, status: 'CANCELLED' } },
      ]);
      await Promise.all([byId.close(), forUser.close()]);

      const again = await stack.gql(CANCEL, { id }, h);
      expect(again.body.data.cancelWatchlistSubscription).toEqual({
        watchlistSubscription: null,
        userErrors: [{ field: null, code: 'CONFLICT', message: expect.stringMatching(/CANCELLED/) }],
      });
      const missing = await stack.gql(CANCEL, { id: '00000000-0000-4000-8000-000000000000' }, h);
      expect(missing.body.data.cancelWatchlistSubscription.userErrors).toEqual([
        { field: null, code: 'NOT_FOUND', message: 'Watchlist subscription 00000000-0000-4000-8000-000000000000 not found' },
      ]);
      const empty = await stack.gql(REVIEW, { input: { id, status: 'REVIEWED', reviewedBy: '', note: '' } }, h);
      expect(empty.body.data.reviewWatchlistAlert.userErrors).toEqual([
        { field: ['input', 'reviewedBy'], code: 'VALIDATION_FAILED', message: 'reviewedBy must not be empty' },
        { field: ['input', 'note'], code: 'VALIDATION_FAILED', message: 'note must not be empty' },
      ]);
    });

    it('the OPEN alerts of an organization are its review queue; watchlistAlertCreated feeds every new alert', async () => {
      const q = { 'x-api-key': (await stack.createClient({ name: 'alert queue' })).apiKey };
      const feed = stack.subscribe(`subscription { watchlistAlertCreated { type node { id userId status } } }`, {}, q);
      await feed.ready;
      const subscribe = async (userId: string) =>
        (await stack.rest('POST', '/monitoring/watchlist/subscribe', { userId, fullName: 'Oumar Traore Diallo' }, q)).body;
      const subscriptions = [];
      for (const userId of ['queue-a', 'queue-b', 'queue-c']) subscriptions.push(await subscribe(userId));
      const created = (await feed.next(3)).map((e) => e.data.watchlistAlertCreated);
      expect(created.map((c) => [c.type, c.node.userId, c.node.status])).toEqual([
        ['WATCHLIST_ALERT', 'queue-a', 'OPEN'],
        ['WATCHLIST_ALERT', 'queue-b', 'OPEN'],
        ['WATCHLIST_ALERT', 'queue-c', 'OPEN'],
      ]);
      const alertOf = Object.fromEntries(created.map((c) => [c.node.userId, c.node.id]));
      const reviewed = await stack.gql(
        REVIEW,
        { input: { id: alertOf['queue-b'], status: 'REVIEWED', reviewedBy: 'analyst', note: 'escalated' } },
        q,
      );
      expect(reviewed.body.data.reviewWatchlistAlert).toEqual({
        watchlistAlert: { id: alertOf['queue-b'], status: 'REVIEWED' },
        userErrors: [],
      });
      // the feed carries new alerts only: after the review, the next event is the next new alert
      await subscribe('queue-d');
      expect((await feed.next(4))[3].data.watchlistAlertCreated.node.userId).toBe('queue-d');
      await feed.close();

      const list = async (filter: Record<string, unknown>) => {
        const nodes: Array<{ id: string; userId: string; status: string; subscription: { id: string } }> = [];
        let totalCount = 0;
        for (let after: string | null = null; ;) {
          const page: any = (
            await stack.gql(
              `query($filter: WatchlistAlertFilter, $after: String) { watchlistAlerts(filter: $filter, first: 1, after: $after) {
                totalCount nodes { id userId status subscription { id } } pageInfo { hasNextPage endCursor } } }`,
              { filter, after },
              q,
            )
          ).body.data.watchlistAlerts;
          totalCount = page.totalCount;
          nodes.push(...page.nodes);
          if (!page.pageInfo.hasNextPage) break;
          after = page.pageInfo.endCursor;
        }
        expect(nodes).toHaveLength(totalCount);
        return nodes;
      };
      // newest first, a page at a time
      expect((await list({ status: 'OPEN' })).map((a) => a.userId)).toEqual(['queue-d', 'queue-c', 'queue-a']);
      expect((await list({ status: 'REVIEWED' })).map((a) => a.id)).toEqual([alertOf['queue-b']]);
      expect(await list({ subscriptionId: subscriptions[0].id })).toEqual([
        { id: alertOf['queue-a'], userId: 'queue-a', status: 'OPEN', subscription: { id: subscriptions[0].id } },
      ]);
      expect(await list({ subscriptionId: 'not-an-id' })).toEqual([]);
      expect((await list({ userId: 'queue-c', status: 'OPEN' })).map((a) => a.id)).toEqual([alertOf['queue-c']]);

      const subscriptionsOf = async (filter: Record<string, unknown>) =>
        (
          await stack.gql(
            `query($filter: WatchlistSubscriptionFilter) { watchlistSubscriptions(filter: $filter) { totalCount nodes { userId } } }`,
            { filter },
            q,
          )
        ).body.data.watchlistSubscriptions;
      expect(await subscriptionsOf({ status: 'ACTIVE' })).toEqual({
        totalCount: 4,
        nodes: [{ userId: 'queue-d' }, { userId: 'queue-c' }, { userId: 'queue-b' }, { userId: 'queue-a' }],
      });
      expect(await subscriptionsOf({ userId: 'queue-b', status: 'CANCELLED' })).toEqual({ totalCount: 0, nodes: [] });
    });
  });
});
