import { routes } from '../rest-adapter/routes.js';
import { encodeBody } from './support/probes.js';
import { startTestStack, type Subscription, type TestStack } from './support/stack.js';
import { LISTED_PERSON, listPerson } from './support/tenants.js';

/**
 * The review queues' organization-wide feeds (`…UpdatedForOrganization`): each delivers the
 * changes of its own kind of record, of any user of the organization, and nothing of another
 * organization (test/tenant-isolation.e2e.test.ts probes every subscription for that too).
 */
const FEEDS = {
  identity: 'identityVerificationUpdatedForOrganization { type node { id userId overallStatus } }',
  document: 'documentVerificationUpdatedForOrganization { type node { id userId status } }',
  address: 'addressVerificationUpdatedForOrganization { type node { id userId status } }',
  business: 'businessVerificationUpdatedForOrganization { type node { id userId status } }',
  aml: 'amlScreeningUpdatedForOrganization { type node { id userId matches { resolution } } }',
  alert: 'watchlistAlertUpdatedForOrganization { type node { id userId status } }',
};
type Kind = keyof typeof FEEDS;

describe('review queue feeds of the organization', () => {
  let stack: TestStack;
  let key: Record<string, string>;
  let other: Record<string, string>;

  beforeAll(async () => {
    stack = await startTestStack();
    await listPerson(stack);
    key = { 'x-api-key': (await stack.createClient({ name: 'reviewers' })).apiKey };
    other = { 'x-api-key': (await stack.createClient({ name: 'another organization' })).apiKey };
  });
  afterAll(() => stack?.stop());

  const call = async (method: string, path: string, body: unknown) => {
    const route = routes.find((r) => r.method === method && r.path === path);
    const encoded = route ? encodeBody(route, body).body : body;
    const res = await stack.rest(method, `/v1${path}`, encoded, key);
    expect([path, res.status < 300]).toEqual([path, true]);
    return res.body;
  };

  /** The first event of the feed that `wanted` accepts (waits for more events until then). */
  const eventWhere = async (feed: Subscription, field: string, wanted: (event: any) => boolean) => {
    for (let n = 1; ; n++) {
      const events = await feed.next(n, 30_000);
      const found = events.map((e) => e.data?.[field]).find((e) => e && wanted(e));
      if (found) return found;
    }
  };
  const eventAbout = (feed: Subscription, field: string, id: string) => eventWhere(feed, field, (e) => e.node.id === id);

  it('each feed follows its kind of record for every user: created, sent to review, decided', async () => {
    const feeds = Object.fromEntries(
      Object.entries(FEEDS).map(([kind, selection]) => [kind, stack.subscribe(`subscription { ${selection} }`, {}, key)]),
    ) as Record<Kind, Subscription>;
    const outsider = Object.values(FEEDS).map((selection) => stack.subscribe(`subscription { ${selection} }`, {}, other));
    await Promise.all([...Object.values(feeds), ...outsider].map((feed) => feed.ready));
    const field = (kind: Kind) => FEEDS[kind].split(' ')[0]!;
    try {
      const identity = await call('POST', '/verifications/identity', { userId: 'feed-user-1' });
      const document = await call('POST', '/verifications/document', {
        userId: 'feed-user-2',
        documentType: 'PASSPORT',
        documentCountry: 'KE',
      });
      const address = await call('POST', '/verifications/address', {
        userId: 'feed-user-3',
        documentType: 'UTILITY_BILL',
        country: 'KE',
        expectedAddress: '12 Moi Avenue, Nairobi',
      });
      const business = await call('POST', '/verifications/business', {
        userId: 'feed-user-4',
        businessName: 'Feed Trading Limited',
        registrationNumber: 'FEED-001',
        country: 'KE',
        businessType: 'LLC',
      });
      const screening = await call('POST', '/screening/aml', { userId: 'feed-user-5', ...LISTED_PERSON });
      await call('POST', '/monitoring/watchlist/subscribe', { userId: 'feed-user-6', ...LISTED_PERSON });

      expect(await eventAbout(feeds.identity, field('identity'), identity.id)).toMatchObject({
        type: 'IDENTITY_CREATED',
        node: { userId: 'feed-user-1', overallStatus: 'PENDING' },
      });
      expect((await eventAbout(feeds.document, field('document'), document.id)).node.userId).toBe('feed-user-2');
      expect((await eventAbout(feeds.address, field('address'), address.id)).node.userId).toBe('feed-user-3');
      expect((await eventAbout(feeds.business, field('business'), business.id)).node.userId).toBe('feed-user-4');
      expect(await eventAbout(feeds.aml, field('aml'), screening.id)).toMatchObject({
        node: { userId: 'feed-user-5', matches: [{ resolution: 'OPEN' }] },
      });
      // monitoring raises the alert in the background: its feed brings it
      const alert = await eventWhere(feeds.alert, field('alert'), (e) => e.type === 'WATCHLIST_ALERT');
      expect(alert.node).toMatchObject({ userId: 'feed-user-6', status: 'OPEN' });

      // decisions leave the queues: the same feeds say so
      await call('POST', `/verifications/identity/${identity.id}/review`, { decision: 'REJECTED', reviewedBy: 'r', reviewNotes: 'n' });
      await call('POST', `/monitoring/watchlist/alerts/${alert.node.id}/review`, { status: 'DISMISSED', reviewedBy: 'r', note: 'n' });
      const rejected = await eventWhere(feeds.identity, field('identity'), (e) => e.type === 'IDENTITY_REJECTED');
      expect(rejected.node).toMatchObject({ id: identity.id, overallStatus: 'REJECTED' });
      const dismissed = await eventWhere(feeds.alert, field('alert'), (e) => e.type === 'WATCHLIST_ALERT_DISMISSED');
      expect(dismissed.node).toMatchObject({ id: alert.node.id, status: 'DISMISSED' });

      // another organization's feeds saw none of it
      expect(outsider.flatMap((feed) => feed.events)).toEqual([]);
    } finally {
      await Promise.all([...Object.values(feeds), ...outsider].map((feed) => feed.close()));
    }
  }, 120_000);
});
