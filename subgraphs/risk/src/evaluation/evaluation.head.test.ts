import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createTestDatabase, eventually } from '../../../../test/support/database.js';
import { postgresChannels } from '../../../../platform/db/listen.js';
import { createLogger } from '../../../../platform/logger.js';
import { EvaluationHeads } from './evaluation.head.js';

describe('evaluation heads (rule-set revision and the parties’ profiles)', () => {
  let pool: pg.Pool;
  let url: string;
  beforeAll(async () => {
    url = await createTestDatabase();
    pool = new pg.Pool({ connectionString: url, max: 4 });
  });
  afterAll(async () => {
    await pool?.end();
  });

  const profile = (tenant: { organizationId: string; environment: string }, account: string, name: string) =>
    pool.query(
      `insert into risk.account_profiles (organization_id, environment, account_id, full_name) values ($1, $2, $3, $4)
       on conflict (organization_id, environment, account_id) do update set full_name = excluded.full_name`,
      [tenant.organizationId, tenant.environment, account, name],
    );
  const revision = (tenant: { organizationId: string; environment: string }, value: number) =>
    pool.query(
      `insert into risk.rule_sets (organization_id, environment, revision) values ($1, $2, $3)
       on conflict (organization_id, environment) do update set revision = excluded.revision`,
      [tenant.organizationId, tenant.environment, value],
    );

  it('reads the heads of a tenant’s evaluations arriving together in one statement, each with its own parties', async () => {
    const heads = new EvaluationHeads(pool);
    const tenant = { organizationId: randomUUID(), environment: 'live' };
    const other = { organizationId: randomUUID(), environment: 'live' };
    await revision(tenant, 7);
    await Promise.all([profile(tenant, 'a', 'Amina Bello'), profile(tenant, 'b', 'Kwame Mensah'), profile(tenant, 'c', 'Ngozi Eze')]);
    await profile(other, 'a', 'Someone Else');

    const [ab, bc, cx, elsewhere] = await Promise.all([
      heads.read(tenant, 'a', 'b'),
      heads.read(tenant, 'b', 'c'),
      heads.read(tenant, 'c', 'x'),
      heads.read(other, 'a', 'b'),
    ]);
    // one statement per tenant for the four evaluations (one each before)
    expect(heads.statements).toBe(2);
    const names = (h: { profiles: { full_name: string }[] }) => h.profiles.map((p) => p.full_name).sort();
    expect(ab.revision).toBe('7');
    expect(names(ab)).toEqual(['Amina Bello', 'Kwame Mensah']);
    expect(names(bc)).toEqual(['Kwame Mensah', 'Ngozi Eze']);
    expect(names(cx)).toEqual(['Ngozi Eze']);
    expect(elsewhere).toEqual({ revision: null, profiles: [expect.objectContaining({ account_id: 'a', full_name: 'Someone Else' })] });
  });

  it('sees a change committed before the evaluation arrived', async () => {
    const heads = new EvaluationHeads(pool);
    const tenant = { organizationId: randomUUID(), environment: 'live' };
    await revision(tenant, 1);
    await profile(tenant, 'a', 'Before');
    expect((await heads.read(tenant, 'a', 'b')).revision).toBe('1');
    await revision(tenant, 2);
    await profile(tenant, 'a', 'After');
    const head = await heads.read(tenant, 'a', 'b');
    expect(head.revision).toBe('2');
    expect(head.profiles.map((p) => p.full_name)).toEqual(['After']);
  });

  it('holds every profile of a tenant from its first read: accounts never read are held as having none, forgotten ones are read again', async () => {
    const heads = new EvaluationHeads(pool);
    const tenant = { organizationId: randomUUID(), environment: 'live' };
    await revision(tenant, 3);
    await Promise.all([profile(tenant, 'a', 'Amina Bello'), profile(tenant, 'c', 'Ngozi Eze')]);
    expect(heads.held(tenant, 'a', 'b')).toBeNull();
    await heads.read(tenant, 'a', 'b');
    expect(heads.held(tenant, 'c', 'z')?.map((p) => p.full_name)).toEqual(['Ngozi Eze']);
    expect(heads.held(tenant, 'y', 'z')).toEqual([]);
    // added after the first read: held as none until forgotten (the commit's check finds it), then read
    await profile(tenant, 'z', 'Zainab Musa');
    expect(heads.held(tenant, 'y', 'z')).toEqual([]);
    heads.forget(tenant, 'y', 'z');
    expect(heads.held(tenant, 'y', 'z')).toBeNull();
    expect((await heads.read(tenant, 'y', 'z')).profiles.map((p) => p.full_name)).toEqual(['Zainab Musa']);
    expect(heads.held(tenant, 'y', 'z')?.map((p) => p.full_name)).toEqual(['Zainab Musa']);
    expect(heads.statements).toBe(2);
  });

  it('drops a held profile as soon as it changes anywhere, or is erased (a notice from the table)', async () => {
    const heads = new EvaluationHeads(pool);
    const tenant = { organizationId: randomUUID(), environment: 'live' };
    // written before listening: their own notices (which may arrive after the read) are not heard
    await Promise.all([profile(tenant, 'a', 'Before'), profile(tenant, 'c', 'Kept')]);
    const listening = await heads.listen(postgresChannels(url), createLogger('test', 'silent'));
    try {
      await heads.read(tenant, 'a', 'c');
      expect(heads.held(tenant, 'a', 'c')?.map((p) => p.full_name)).toEqual(['Before', 'Kept']);
      await profile(tenant, 'a', 'After');
      await eventually(async () => heads.held(tenant, 'a', 'c') === null);
      expect(heads.held(tenant, 'c', 'x')?.map((p) => p.full_name)).toEqual(['Kept']);
      await pool.query(`delete from risk.account_profiles where organization_id = $1 and account_id = 'c'`, [tenant.organizationId]);
      await eventually(async () => heads.held(tenant, 'c', 'x') === null);
    } finally {
      await listening.stop();
    }
  });

  it('fails every evaluation of a batch whose read failed, and the next batch reads again', async () => {
    const broken = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:9/none', connectionTimeoutMillis: 2_000 });
    try {
      const heads = new EvaluationHeads(broken);
      const tenant = { organizationId: randomUUID(), environment: 'live' };
      const reads = [heads.read(tenant, 'a', 'b'), heads.read(tenant, 'c', 'd')];
      await expect(Promise.all(reads)).rejects.toThrow();
      await expect(reads[1]).rejects.toThrow();
      expect(heads.statements).toBe(1);
      await expect(heads.read(tenant, 'a', 'b')).rejects.toThrow();
      expect(heads.statements).toBe(2);
    } finally {
      await broken.end();
    }
  });
});
