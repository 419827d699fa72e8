import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { loadConfig } from '../platform/config.js';
import { createTestDatabase, eventually, startTestStack, type TestStack } from './support/stack.js';
import { selfSignedCertificate, startReceiver, verifiedPayload } from './support/https-receiver.js';

const cert = selfSignedCertificate();

/** The delivery worker as every service runs it: the relay and worker live in platform, not in one subgraph. */
describe('webhook delivery in every service', () => {
  it('a stack running only risk (and the gateway) delivers its evaluation events to a webhook', async () => {
    const databaseUrl = await createTestDatabase();
    const receiver = await startReceiver(cert);
    let stack: TestStack | undefined;
    try {
      // configure the webhook through the full stack, then run risk without verification
      const full = await startTestStack({}, { databaseUrl, webhookCa: cert.cert });
      const client = await full.createClient({ name: 'risk hooks', service: 'risk' });
      const configured = await full.gql(
        `mutation($input: ConfigureWebhookInput!) { configureWebhook(input: $input) { webhook { id } secret userErrors { message } } }`,
        { input: { clientId: client.id, callbackUrl: receiver.url, events: ['EVALUATION_ALLOW'] } },
        { authorization: `Bearer ${(await full.createClient({ name: 'admin of hooks', organizationId: client.organizationId })).apiKey}` },
      );
      await full.stop();
      expect(configured.body.errors).toBeUndefined();
      const { secret } = configured.body.data.configureWebhook;

      stack = await startTestStack({}, { databaseUrl, webhookCa: cert.cert, services: ['risk', 'gateway', 'rest'] });
      const evaluated = await stack.rest(
        'POST',
        '/v1/evaluate',
        {
          transaction_id: `tx-${randomUUID()}`,
          amount: 1_500,
          currency: 'KES',
          sender: 'acc-a',
          receiver: 'acc-b',
          channel: 'mobile_money',
        },
        { authorization: `Bearer ${client.apiKey}` },
      );
      expect(evaluated.status).toBe(200);
      expect(evaluated.body.action).toBe('allow');
      await eventually(async () => receiver.received.length >= 1);
      const payload = verifiedPayload(secret, receiver.received[0]);
      expect(payload).toMatchObject({
        event: 'evaluation.allow',
        timestamp: evaluated.body.created_at,
        data: {
          evaluationId: evaluated.body.evaluation_id,
          transactionId: evaluated.body.transaction_id,
          action: 'allow',
          score: evaluated.body.score,
          mock: false,
        },
      });
    } finally {
      await stack?.stop();
      await receiver.close();
    }
  });

  describe('with the default schedule and timeout', () => {
    let stack: TestStack;
    let db: pg.Pool;
    let h: Record<string, string>;
    let clientId: string;

    beforeAll(async () => {
      // no WEBHOOK_RETRY_DELAYS / WEBHOOK_TIMEOUT_MS: the defaults the service really uses
      stack = await startTestStack({}, { webhookCa: cert.cert });
      db = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
      const client = await stack.createClient({ name: 'defaults' });
      clientId = client.id;
      h = { 'x-api-key': client.apiKey };
    });
    afterAll(async () => {
      await stack?.stop();
      await db?.end();
    });

    it('defaults to retries after 1, 5 and 30 minutes and a 30 s timeout', () => {
      const config = loadConfig({});
      expect(config.WEBHOOK_RETRY_DELAYS).toEqual([60, 300, 1800]);
      expect(config.WEBHOOK_TIMEOUT_MS).toBe(30_000);
    });

    async function verifyIdentityFor(callbackUrl: string) {
      const hook = await stack.rest('POST', '/webhooks/configure', { clientId, callbackUrl, events: ['identity.verified'] }, h);
      expect(hook.status).toBe(201);
      const created = (await stack.rest('POST', '/verifications/identity', { userId: `u-${randomUUID()}`, tier: 'BASIC' }, h)).body;
      await stack.rest(
        'POST',
        `/verifications/identity/${created.id}/review`,
        { decision: 'VERIFIED', reviewedBy: 'o', reviewNotes: 'n' },
        h,
      );
      return hook.body.id as string;
    }

    it('schedules the first retry one minute after a failed attempt', async () => {
      const receiver = await startReceiver(cert, () => 500);
      try {
        const webhookId = await verifyIdentityFor(receiver.url);
        const delivery = await eventually(async () => {
          const res = await stack.gql(
            `query($id: ID!) { webhookDeliveries(filter: { webhookId: $id }) { nodes { status attemptCount nextAttemptAt attempts { startedAt statusCode durationMs } } } }`,
            { id: webhookId },
            h,
          );
          const d = res.body.data?.webhookDeliveries.nodes[0];
          return d?.attemptCount === 1 ? d : null;
        });
        expect(delivery).toMatchObject({ status: 'PENDING', attempts: [{ statusCode: 500 }] });
        const attempted = Date.parse(delivery.attempts[0].startedAt) + delivery.attempts[0].durationMs;
        const retryIn = (Date.parse(delivery.nextAttemptAt) - attempted) / 1000;
        expect(retryIn).toBeGreaterThan(55);
        expect(retryIn).toBeLessThan(65);
      } finally {
        await receiver.close();
      }
    });

    it('holds a delivery for the 30 s timeout (plus a margin) while the receiver does not answer', async () => {
      const receiver = await startReceiver(cert, () => 'hang');
      try {
        await verifyIdentityFor(receiver.url);
        await receiver.requests(1);
        const { rows } = await db.query<{ lease: number }>(
          `select extract(epoch from claimed_until - now())::float8 as lease from platform.deliveries where url = $1`,
          [receiver.url],
        );
        // claimed for the POST's timeout plus a 10 s margin: another worker takes it only after that
        expect(rows[0].lease).toBeGreaterThan(35);
        expect(rows[0].lease).toBeLessThanOrEqual(40);
      } finally {
        await receiver.close();
      }
    });
  });
});
