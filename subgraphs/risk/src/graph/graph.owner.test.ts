import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createTestDatabase } from '../../../../test/support/database.js';
import { createLogger } from '../../../../platform/logger.js';
import { GroupCommit } from '../evaluation/evaluation.commit.js';
import { evaluationOf, testGraphs } from '../../../../test/support/risk-evaluations.js';

describe('the owner of a tenant graph', () => {
  let url: string;
  let pool: pg.Pool;
  beforeAll(async () => {
    url = await createTestDatabase();
    pool = new pg.Pool({ connectionString: url, max: 4 });
  });
  afterAll(async () => {
    await pool?.end();
  });

  it('loads a graph only once the evaluations this process already queued are stored: the loaded graph misses none', async () => {
    const logger = createLogger('test', 'silent');
    const commit = new GroupCommit(pool, logger);
    let loadWaits: () => void = () => undefined;
    const waiting = new Promise<void>((resolve) => (loadWaits = resolve));
    const graphs = testGraphs(url, pool, logger, () => {
      loadWaits();
      return commit.settled();
    });
    await graphs.start('http://127.0.0.1:9/graphql');
    const tenant = { organizationId: randomUUID(), environment: 'live' };
    const blocker = await pool.connect();
    try {
      // the batch waits behind this lock: the evaluation is queued, not yet stored
      await blocker.query('begin; lock table risk.evaluations in exclusive mode');
      const queued = commit.write(
        evaluationOf(tenant, { sender: 's', receiver: 'r', amount: 5, currency: 'KES', at: new Date(), transactionId: 'in-flight' }),
        { deviceId: null, ip: null },
      );
      const seen = graphs.evaluate(
        tenant,
        {},
        async (graph) => graph.has('in-flight'),
        () => false,
      );
      await waiting;
      await blocker.query('commit');
      expect(await queued).toBe('written');
      expect(await seen).toBe(true);
    } finally {
      blocker.release();
      await graphs.stop();
    }
  });
});
