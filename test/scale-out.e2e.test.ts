import { startTestStack, type TestStack } from './support/stack.js';
import { selfSignedCertificate, startReceiver, verifiedPayload } from './support/https-receiver.js';

const cert = selfSignedCertificate();

/**
 * Scale-out (issue 14): two instances of every subgraph and two gateways on one PostgreSQL (two
 * stacks of every service). Changes made through either instance reach a subscriber on the other
 * and the webhook of the organization, signed, from whichever relay took the event. (Rule hot
 * reload across instances: risk-rules.e2e; revocation and rate limits: gateway-hot-path.e2e;
 * subscriptions and shared limits: multi-instance.e2e.)
 */
describe('two instances of every service on one database', () => {
  let a: TestStack;
  let b: TestStack;
  beforeAll(async () => {
    a = await startTestStack({}, { webhookCa: cert.cert });
    b = await startTestStack({}, { databaseUrl: a.databaseUrl, webhookCa: cert.cert });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  it('events of changes made through either instance reach subscribers on both and the webhook, signed', async () => {
    const client = await a.createClient({ name: 'scale-out' });
    const h = { 'x-api-key': client.apiKey };
    const receiver = await startReceiver(cert);
    const configured = await b.rest(
      'POST',
      '/webhooks/configure',
      { clientId: client.id, callbackUrl: receiver.url, events: ['identity.verified'] },
      h,
    );
    expect(configured.status).toBe(201);
    const query = 'subscription($u: String!) { identityVerificationUpdatedForUser(userId: $u) { type node { id overallStatus } } }';
    const onA = a.subscribe(query, { u: 'scale-user' }, h);
    const onB = b.subscribe(query, { u: 'scale-user' }, h);
    await Promise.all([onA.ready, onB.ready]);

    const verified: string[] = [];
    for (const [creator, reviewer] of [
      [a, b],
      [b, a],
    ]) {
      const created = await creator.rest('POST', '/verifications/identity', { userId: 'scale-user', tier: 'BASIC' }, h);
      expect(created.status).toBe(201);
      const reviewed = await reviewer.rest(
        'POST',
        `/verifications/identity/${created.body.id}/review`,
        { decision: 'VERIFIED', reviewedBy: 'o', reviewNotes: 'n' },
        h,
      );
      expect(reviewed.status).toBe(200);
      verified.push(created.body.id);
    }
    // each subscriber sees both creations and both verifications, whichever instance made them
    for (const sub of [onA, onB]) {
      const events = await sub.next(4);
      const seen = events.map((e) => e.data.identityVerificationUpdatedForUser.node);
      for (const id of verified) expect(seen).toContainEqual({ id, overallStatus: 'VERIFIED' });
    }
    await receiver.requests(2);
    const delivered = receiver.received.map((req) => verifiedPayload(configured.body.secret, req));
    expect(new Set(delivered.map((d) => d.data.identityVerificationId))).toEqual(new Set(verified));
    await Promise.all([onA.close(), onB.close(), receiver.close()]);
  });
});
