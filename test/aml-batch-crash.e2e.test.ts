import pg from 'pg';
import { listIndividuals } from './support/lists.js';
import { createTestDatabase, eventually, startTestStack, type TestStack } from './support/stack.js';
import { serviceProcess, type ServiceProcess } from './support/service-process.js';

const TOTAL = 100;
const SANCTIONED = ['Ahmed Musa Bello', 'Ibrahim Kabiru Sani', 'Oluwaseun Adewale Okafor'];

/** Every 10th subject bears a listed name (10 flagged), the others names on no list (90 clear). */
const subjects = Array.from({ length: TOTAL }, (_, i) => ({
  userId: `subject-${i}`,
  fullName: i % 10 === 3 ? SANCTIONED[i % SANCTIONED.length] : `Grace Wanjiru ${String.fromCharCode(65 + (i % 26))}${i}`,
}));

describe('an AML batch survives the verification process being killed mid-batch', () => {
  let stack: TestStack | undefined;
  let service: ServiceProcess | undefined;
  let db: pg.Pool | undefined;
  afterAll(async () => {
    await service?.dispose();
    await stack?.stop();
    await db?.end();
  });

  it('completes with one result for every subject after SIGKILL and restart', async () => {
    const databaseUrl = await createTestDatabase();
    db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    await listIndividuals(databaseUrl, SANCTIONED, 'QDi.90');
    service = await serviceProcess('verification', databaseUrl);
    await service.start();
    stack = await startTestStack({ VERIFICATION_URL: service.url }, { databaseUrl, services: ['gateway', 'rest'] });
    const h = { 'x-api-key': (await stack.createClient({ name: 'aml batch crash' })).apiKey };

    const accepted = await stack.rest('POST', '/screening/aml/batch', { subjects }, h);
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({ total: TOTAL });
    const batchId: string = accepted.body.id;
    const state = async () =>
      (
        await db!.query<{ status: string; processed: number }>('select status, processed from verification.aml_batches where id = $1', [
          batchId,
        ])
      ).rows[0];

    // kill as soon as some (not all) subjects are screened
    await eventually(async () => (await state()).processed > 0, 20_000, 10);
    await service.kill();
    const atKill = await state();
    expect(atKill.status).toBe('PROCESSING');
    expect(atKill.processed).toBeGreaterThan(0);
    expect(atKill.processed).toBeLessThan(TOTAL);
    // the batch's job was running in the killed process
    const { rows: jobs } = await db.query<{ state: string }>(
      `select state from pgboss.job where name = 'aml-batch' and data->>'batchId' = $1`,
      [batchId],
    );
    expect(jobs.map((j) => j.state)).toEqual(['active']);

    await service.start();
    const done = await eventually(
      async () => {
        const b = (await stack!.rest('GET', `/screening/aml/batch/${batchId}`, undefined, h)).body;
        return b.status === 'COMPLETED' ? b : null;
      },
      45_000,
      250,
    );
    expect(done).toMatchObject({ total: TOTAL, processed: TOTAL, clearCount: 90, flaggedCount: 10, failedCount: 0 });
    expect(done.results).toHaveLength(TOTAL);
    expect(done.results.map((r: { userId: string }) => r.userId)).toEqual(subjects.map((s) => s.userId));
    done.results.forEach((r: { userId: string; status: string; screeningId: string }, i: number) => {
      expect(r.status).toBe(i % 10 === 3 ? 'POTENTIAL_MATCH' : 'CLEAR');
      expect(r.screeningId).toMatch(/^[0-9a-f-]{36}$/);
    });

    // exactly one screening per subject: none repeated by the restart, none missing
    const { rows } = await db.query<{ screenings: number; users: number }>(
      'select count(*)::int as screenings, count(distinct user_id)::int as users from verification.aml_screenings where batch_id = $1',
      [batchId],
    );
    expect(rows[0]).toEqual({ screenings: TOTAL, users: TOTAL });
    const flagged = (await stack.rest('GET', `/screening/aml/${done.results[3].screeningId}`, undefined, h)).body;
    expect(flagged).toMatchObject({ batchId, userId: 'subject-3', status: 'POTENTIAL_MATCH' });
  }, 90_000);
});
