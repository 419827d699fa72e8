import { startTestStack, type TestStack } from './support/stack.js';
import { listIndividuals } from './support/lists.js';

/**
 * The User entity across the three subgraphs: one query gives a person's whole picture —
 * identity, AML, watchlist, device/IP, risk accounts with their evaluations, recipient profile
 * and notifications — and subscriptions follow it live.
 */
describe('a user across all three subgraphs', () => {
  let stack: TestStack;
  let h: Record<string, string>;

  const USER = `query($id: ID!) {
    user(id: $id) {
      id
      currentIdentityVerification { id overallStatus user { id } }
      identityVerifications { totalCount }
      amlScreenings { nodes { id status matchCount } }
      watchlistSubscriptions { totalCount }
      deviceAssessments { totalCount }
      ipAnalyses { totalCount }
      riskAccounts { nodes { id userId profile { fullName } evaluations { totalCount nodes { id action } } } }
      notificationRecipient { id email }
      notifications { nodes { id status } }
    }
  }`;

  beforeAll(async () => {
    stack = await startTestStack();
    await listIndividuals(stack.databaseUrl, ['Ahmed Musa Bello']);
    const key = (await stack.createClient({ name: 'whole graph', service: 'all' })).apiKey;
    h = { authorization: `Bearer ${key}` };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const gql = async (query: string, variables: Record<string, unknown> = {}) => {
    const res = await stack.gql(query, variables, h);
    expect(res.body.errors).toBeUndefined();
    return res.body.data;
  };

  it('answers one query with everything the platform holds about the user', async () => {
    const identity = (await stack.rest('POST', '/verifications/identity', { userId: 'ama' }, h)).body;
    const screening = await (async () => {
      for (;;) {
        const res = (await stack.rest('POST', '/screening/aml', { userId: 'ama', fullName: 'Ahmed Musa Bello' }, h)).body;
        if (res.matchCount > 0) return res;
      }
    })();
    await stack.rest('POST', '/intelligence/ip', { ip: '41.90.1.2', userId: 'ama' }, h);
    await gql(
      `mutation { setRiskAccountProfile(input: { accountId: "254700000001", userId: "ama", fullName: "Ama Mensah" }) { userErrors { message } } }`,
    );
    const evaluation = (
      await stack.rest(
        'POST',
        '/evaluate',
        { transaction_id: 'ama-1', amount: 500, currency: 'KES', sender: '254700000001', receiver: 'shop' },
        h,
      )
    ).body;
    await stack.rest('POST', '/templates', { name: 'hello', channels: { email: { subject: 'Hi', html: '<p>Hi</p>' } } }, h);
    await stack.rest('PUT', '/recipients/ama', { email: 'ama@example.com' }, h);
    const sent = (await stack.rest('POST', '/send', { to: 'ama', template: 'hello', channels: ['email'] }, h)).body;
    // someone else's records stay out of ama's picture
    await stack.rest('POST', '/verifications/identity', { userId: 'kofi' }, h);

    const { user } = await gql(USER, { id: 'ama' });
    expect(user).toMatchObject({
      id: 'ama',
      currentIdentityVerification: { id: identity.id, overallStatus: 'PENDING', user: { id: 'ama' } },
      identityVerifications: { totalCount: 1 },
      amlScreenings: { nodes: [{ id: screening.id, status: screening.status, matchCount: screening.matchCount }] },
      watchlistSubscriptions: { totalCount: 0 },
      deviceAssessments: { totalCount: 0 },
      ipAnalyses: { totalCount: 1 },
      riskAccounts: {
        nodes: [
          {
            id: '254700000001',
            userId: 'ama',
            profile: { fullName: 'Ama Mensah' },
            evaluations: { totalCount: 1, nodes: [{ id: evaluation.evaluation_id, action: evaluation.action.toUpperCase() }] },
          },
        ],
      },
      notificationRecipient: { id: 'ama', email: 'ama@example.com' },
      notifications: { nodes: [{ id: sent.notification_id }] },
    });
    expect((await gql(USER, { id: 'nobody-yet' })).user).toMatchObject({
      id: 'nobody-yet',
      currentIdentityVerification: null,
      identityVerifications: { totalCount: 0 },
      riskAccounts: { nodes: [] },
      notificationRecipient: null,
      notifications: { nodes: [] },
    });
  });

  it('follows the user live: identity and notification events for that user only', async () => {
    const identity = stack.subscribe(`subscription { identityVerificationUpdatedForUser(userId: "efua") { type node { userId } } }`, {}, h);
    const notifications = stack.subscribe(`subscription { notificationUpdatedForUser(userId: "efua") { type node { id } } }`, {}, h);
    await Promise.all([identity.ready, notifications.ready]);
    await stack.rest('POST', '/verifications/identity', { userId: 'efua' }, h);
    await stack.rest('PUT', '/recipients/efua', { email: 'efua@example.com' }, h);
    const sent = (await stack.rest('POST', '/send', { to: 'efua', template: 'hello', channels: ['email'] }, h)).body;
    expect((await identity.next(1))[0].data.identityVerificationUpdatedForUser).toEqual({
      type: 'IDENTITY_CREATED',
      node: { userId: 'efua' },
    });
    expect((await notifications.next(1))[0].data.notificationUpdatedForUser).toMatchObject({ node: { id: sent.notification_id } });
    await identity.close();
    await notifications.close();
  });
});
