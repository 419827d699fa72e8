import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createTestDatabase } from '../../../../test/support/database.js';
import { createLogger } from '../../../../platform/logger.js';
import { postgresChannels } from '../../../../platform/db/listen.js';
import { GroupCommit } from './evaluation.commit.js';
import { EvaluationEngine } from './evaluation.engine.js';
import type { TenantGraphs } from '../graph/graph.owner.js';
import { RuleCache } from '../rules/rule.cache.js';
import { RulesStore } from '../rules/rule.store.js';
import { SanctionsLayer, type ScreeningEngineLike } from '../sanctions/sanctions.layer.js';
import { evaluationOf, testGraphs } from '../../../../test/support/risk-evaluations.js';

/** A list of one name: enough to see which profile an evaluation screened. */
const oneListedName: ScreeningEngineLike = {
  search: (q) =>
    q.fullName === 'Listed Person'
      ? [
          {
            source: 'TEST',
            kind: 'SANCTIONS',
            externalId: 'T-1',
            primaryName: 'Listed Person',
            matchedName: 'Listed Person',
            score: 1,
            listVersion: 'v1',
          },
        ]
      : [],
  versions: () => ({ TEST: 'v1' }),
};

describe('the evaluation engine: the head its owner holds', () => {
  let url: string;
  let pool: pg.Pool;
  let graphs: TenantGraphs;
  let engine: EvaluationEngine;
  let commit: GroupCommit;
  const store = () => new RulesStore(pool);
  const tenant = { organizationId: randomUUID(), environment: 'live' };
  const logger = createLogger('test', 'silent');

  beforeAll(async () => {
    url = await createTestDatabase();
    pool = new pg.Pool({ connectionString: url, max: 4 });
    commit = new GroupCommit(pool, logger);
    graphs = testGraphs(url, pool, logger, () => commit.settled());
    await graphs.start('http://127.0.0.1:9/graphql');
    engine = new EvaluationEngine({
      pool,
      graphs,
      commit,
      // not started: no notification reloads the rules, so only the commit's check can see a change
      rules: new RuleCache(postgresChannels(url), pool, logger),
      store: store(),
      sanctions: new SanctionsLayer(oneListedName, 0.85),
      thresholds: { review: 50, block: 80 },
      cycleWindowHours: 72,
      degreeCap: 50,
      logger,
    });
  });
  afterAll(async () => {
    await graphs?.stop();
    await pool?.end();
  });

  const profile = (account: string, name: string) =>
    pool.query(
      `insert into risk.account_profiles (organization_id, environment, account_id, full_name) values ($1, $2, $3, $4)
       on conflict (organization_id, environment, account_id) do update set full_name = excluded.full_name`,
      [tenant.organizationId, tenant.environment, account, name],
    );
  const evaluate = (sender: string, receiver: string) =>
    engine.evaluate(tenant, { transactionId: randomUUID(), amount: 100, currency: 'KES', sender, receiver });
  const stored = async (id: string) =>
    (await pool.query<{ n: number }>('select count(*)::int as n from risk.evaluations where id = $1', [id])).rows[0].n;

  it('evaluates parties it has read without reading again; a profile or rule changed since is applied to the very next evaluation', async () => {
    await profile('r1', 'Clean Name');
    const first = await evaluate('s1', 'r1');
    expect(first.sanctionsHits).toEqual([]);
    const reads = engine.headReads;
    const second = await evaluate('s1', 'r1');
    const third = await evaluate('r1', 's1');
    // the first read took every profile of the tenant: accounts never seen have none
    const unseen = await evaluate('s3', 'r3');
    // held: no read before any of them (one each before the owner held heads)
    expect(engine.headReads).toBe(reads);
    for (const e of [second, third, unseen]) expect(await stored(e.id)).toBe(1);
    expect(engine.staleHeads).toBe(0);

    // changed behind the owner's back: the held profile is refused at the commit, then read again
    await profile('r1', 'Listed Person');
    const listed = await evaluate('s1', 'r1');
    expect(listed.sanctionsHits).toEqual([expect.objectContaining({ party: 'receiver', account: 'r1', name: 'Listed Person' })]);
    expect(listed.action).toBe('block');
    expect(engine.staleHeads).toBe(1);

    const before = (
      await pool.query<{ n: number }>('select count(*)::int as n from risk.evaluations where organization_id = $1', [tenant.organizationId])
    ).rows[0].n;
    await store().save(tenant, 'everything', { name: 'Everything', condition: 'true', action: 'review', severity: 'low' }, 'test');
    const ruled = await evaluate('s2', 'r2');
    expect(ruled.rulesFired.map((r) => r.id)).toContain('everything');
    await store().save(tenant, 'everything', { enabled: false }, 'test');
    const after = await evaluate('s2', 'r2');
    expect(after.rulesFired.map((r) => r.id)).not.toContain('everything');
    expect(engine.staleHeads).toBe(3);
    // each evaluation stored once: a stale one is not written
    const total = (
      await pool.query<{ n: number }>('select count(*)::int as n from risk.evaluations where organization_id = $1', [tenant.organizationId])
    ).rows[0].n;
    expect(total).toBe(before + 2);
  });

  it('the group commit refuses an evaluation whose held head moved — the revision, a profile changed, added or removed — and writes the rest of its batch', async () => {
    const other = { organizationId: randomUUID(), environment: 'live' };
    await pool.query(`insert into risk.rule_sets (organization_id, environment, revision) values ($1, 'live', 5)`, [other.organizationId]);
    await pool.query(
      `insert into risk.account_profiles (organization_id, environment, account_id, full_name, nationality) values ($1, 'live', 'kept', 'Kept Name', 'KE'),
         ($1, 'live', 'renamed', 'Old Name', null), ($1, 'live', 'removed', 'Gone Name', null)`,
      [other.organizationId],
    );
    const asHeld = (account: string, fullName: string, nationality: string | null = null) => ({
      account_id: account,
      full_name: fullName,
      date_of_birth: null,
      nationality,
    });
    const write = (sender: string, receiver: string, revision: string, profiles: ReturnType<typeof asHeld>[]) =>
      commit.write(
        { ...evaluationOf(other, { sender, receiver, amount: 1, currency: 'KES', at: new Date() }), rulesRevision: revision },
        null,
        { profiles },
      );
    await pool.query(`update risk.account_profiles set full_name = 'New Name' where organization_id = $1 and account_id = 'renamed'`, [
      other.organizationId,
    ]);
    await pool.query(`delete from risk.account_profiles where organization_id = $1 and account_id = 'removed'`, [other.organizationId]);
    await pool.query(
      `insert into risk.account_profiles (organization_id, environment, account_id, full_name) values ($1, 'live', 'added', 'Added')`,
      [other.organizationId],
    );
    const outcomes = await Promise.all([
      write('kept', 'nobody', '5', [asHeld('kept', 'Kept Name', 'KE')]),
      write('kept', 'nobody', '4', [asHeld('kept', 'Kept Name', 'KE')]),
      write('renamed', 'nobody', '5', [asHeld('renamed', 'Old Name')]),
      write('removed', 'nobody', '5', [asHeld('removed', 'Gone Name')]),
      write('added', 'nobody', '5', []),
      write('kept', 'nobody', '5', [asHeld('kept', 'Kept Name', null)]),
    ]);
    expect(outcomes).toEqual(['written', 'stale', 'stale', 'stale', 'stale', 'stale']);
    const { rows } = await pool.query<{ n: number }>('select count(*)::int as n from risk.evaluations where organization_id = $1', [
      other.organizationId,
    ]);
    expect(rows[0].n).toBe(1);
  });
});
