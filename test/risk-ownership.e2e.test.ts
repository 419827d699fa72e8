import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createTestDatabase, startTestStack, type TestStack } from './support/stack.js';
import { serviceProcess, type ServiceProcess } from './support/service-process.js';

/**
 * Risk decided in memory by the owner of the tenant's graph (issue 31, item 2). One process holds
 * a tenant's graph; the others forward to it, so every evaluation of a tenant sees every earlier
 * one, whichever instance received it. When the owner is SIGKILLed under load, another process
 * takes the partition over and loads the graph from the database: no answered evaluation is lost,
 * its transaction id is still refused, and the new owner's counters are the database's.
 */
describe('risk: one owner per tenant graph, forwarding, handover on SIGKILL', () => {
  const bearer = (k: string) => ({ authorization: `Bearer ${k}` });
  const transfer = (sender: string, over: Record<string, unknown> = {}) => ({
    transaction_id: `tx-${randomUUID()}`,
    amount: 10,
    currency: 'KES',
    sender,
    receiver: `acc-${randomUUID().slice(0, 8)}`,
    ...over,
  });
  const FACTS = 'query($id: ID!) { riskEvaluation(id: $id) { facts } }';
  const senderFacts = async (stack: TestStack, id: string, headers: Record<string, string>) => {
    const res = await stack.gql(FACTS, { id }, headers);
    return res.body.data.riskEvaluation.facts.sender as { count_1h: number; count_24h: number };
  };

  it('two instances: evaluations of one sender, sent to both at once, each see every earlier one exactly once', async () => {
    const a = await startTestStack();
    const b = await startTestStack({}, { databaseUrl: a.databaseUrl });
    try {
      const client = await a.createClient({ name: 'owner', service: 'risk' });
      const h = bearer(client.apiKey);
      const sender = `acc-${randomUUID().slice(0, 8)}`;
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).rest('POST', '/v1/evaluate', transfer(sender), h)),
      );
      expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
      const counts = await Promise.all(answers.map(async (r, i) => (await senderFacts(i % 2 ? b : a, r.body.evaluation_id, h)).count_1h));
      expect([...counts].sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    } finally {
      await b.stop();
      await a.stop();
    }
  });

  describe('the owner SIGKILLed under load', () => {
    let databaseUrl: string;
    let owner: ServiceProcess;
    let viaOwner: TestStack;
    let other: TestStack;
    let pool: pg.Pool;

    beforeAll(async () => {
      databaseUrl = await createTestDatabase();
      owner = await serviceProcess('risk', databaseUrl);
      await owner.start();
      viaOwner = await startTestStack({ RISK_URL: owner.url }, { databaseUrl });
      other = await startTestStack({}, { databaseUrl });
      pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    });
    afterAll(async () => {
      await pool?.end();
      await other?.stop();
      await viaOwner?.stop();
      await owner?.dispose();
    });

    it('loses no answered evaluation, still refuses each of their transaction ids, and the new owner counts what was stored', async () => {
      const client = await viaOwner.createClient({ name: 'handover', service: 'risk' });
      const h = bearer(client.apiKey);
      const sender = `acc-${randomUUID().slice(0, 8)}`;
      // the first evaluation makes the service process the owner of this tenant's graph
      expect((await viaOwner.rest('POST', '/v1/evaluate', transfer(sender), h)).status).toBe(200);

      const accepted: Array<{ transactionId: string; evaluationId: string }> = [];
      const unknown: string[] = [];
      let killed = false;
      const send = async (stack: TestStack) => {
        const body = transfer(sender);
        const res = await stack.rest('POST', '/v1/evaluate', body, h).catch(() => null);
        if (res?.status === 200) accepted.push({ transactionId: body.transaction_id, evaluationId: res.body.evaluation_id });
        else unknown.push(body.transaction_id);
      };
      // both doors at once, the owner killed once a batch of answers is in
      await Promise.all(
        [viaOwner, other, other].map(async (stack) => {
          for (let i = 0; i < 30; i++) {
            if (!killed && accepted.length >= 15) {
              killed = true;
              await owner.kill();
            }
            await send(stack);
          }
        }),
      );
      expect(killed).toBe(true);
      // the other instance took the partition over: everything through it was answered
      expect(accepted.length).toBeGreaterThanOrEqual(60);

      const { rows } = await pool.query<{ transaction_id: string; id: string }>(
        `select transaction_id, id::text from risk.evaluations where organization_id = $1 and sender = $2`,
        [client.organizationId, sender],
      );
      const stored = new Map(rows.map((r) => [r.transaction_id, r.id]));
      for (const a of accepted) expect(stored.get(a.transactionId)).toBe(a.evaluationId);
      for (const a of accepted.slice(0, 20)) {
        expect((await other.rest('POST', '/v1/evaluate', transfer(sender, { transaction_id: a.transactionId }), h)).status).toBe(409);
      }
      // the new owner's counters are the database's: the next evaluation counts every stored transfer of the sender
      const next = await other.rest('POST', '/v1/evaluate', transfer(sender), h);
      expect(next.status).toBe(200);
      expect((await senderFacts(other, next.body.evaluation_id, h)).count_24h).toBe(stored.size);

      // the killed process comes back and forwards to the new owner
      await owner.start();
      const back = await viaOwner.rest('POST', '/v1/evaluate', transfer(sender), h);
      expect(back.status).toBe(200);
      expect((await senderFacts(viaOwner, back.body.evaluation_id, h)).count_24h).toBe(stored.size + 1);
    });
  });
});
