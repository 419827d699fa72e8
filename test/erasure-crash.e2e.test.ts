import pg from 'pg';
import { createTestDatabase, eventually, startTestStack, type TestStack } from './support/stack.js';
import { serviceProcess, type ServiceProcess } from './support/service-process.js';

/**
 * An erasure survives a service being down (issue 16): the request is a row and an outbox event,
 * so the services that are up erase their part at once and the one that is down erases its part
 * when it starts again; only then is the user erased (user.erased).
 */
describe('an erasure while the risk service is down', () => {
  let stack: TestStack | undefined;
  let risk: ServiceProcess | undefined;
  let db: pg.Pool | undefined;
  afterAll(async () => {
    await risk?.dispose();
    await stack?.stop();
    await db?.end();
  });

  it('completes once risk is back, with risk’s part done by the restarted process', async () => {
    const databaseUrl = await createTestDatabase();
    // risk in its own process; a long sweep interval: its part is done by the sweep a process runs when it starts
    risk = await serviceProcess('risk', databaseUrl, { env: { PRIVACY_SWEEP_MS: '60000' } });
    await risk.start();
    stack = await startTestStack({ RISK_URL: risk.url }, { databaseUrl, services: ['verification', 'notify', 'gateway', 'rest'] });
    db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    const client = await stack.createClient({ name: 'privacy officer', service: 'all' });
    const h = { authorization: `Bearer ${client.apiKey}` };

    // the user's data in every service
    await stack.rest('POST', '/verifications/identity', { userId: 'kofi' }, h);
    await stack.rest('PUT', '/recipients/kofi', { email: 'kofi.boateng@example.com' }, h);
    const profile = await stack.gql(
      `mutation { setRiskAccountProfile(input: { accountId: "kofi-wallet", userId: "kofi", fullName: "Kofi Boateng" }) { userErrors { message } } }`,
      {},
      h,
    );
    expect(profile.body.data.setRiskAccountProfile.userErrors).toEqual([]);

    await risk.kill();
    const events = stack.subscribe(`subscription($id: String!) { userErasureUpdatedForUser(userId: $id) { type } }`, { id: 'kofi' }, h);
    await events.ready;
    const requested = await stack.rest('POST', '/privacy/erasures', { userId: 'kofi' }, h);
    expect(requested.status).toBe(202);
    const id = requested.body.id;
    const erasure = async () => (await stack!.rest('GET', `/privacy/erasures/${id}`, undefined, h)).body;
    const partsOf = (e: any) => Object.fromEntries(e.services.map((s: any) => [s.service, s.status]));

    // verification and notify do their part; the request waits for risk
    await events.next(3, 20_000);
    expect(events.events.map((e) => e.data.userErasureUpdatedForUser.type)).toEqual([
      'USER_ERASURE_REQUESTED',
      'USER_ERASURE_PROGRESSED',
      'USER_ERASURE_PROGRESSED',
    ]);
    expect(partsOf(await erasure())).toEqual({ VERIFICATION: 'COMPLETED', NOTIFY: 'COMPLETED', RISK: 'PENDING' });
    expect((await erasure()).status).toBe('PENDING');
    const { rows: held } = await db.query(`select full_name from risk.account_profiles where user_id = 'kofi'`);
    expect(held).toEqual([{ full_name: 'Kofi Boateng' }]);

    await risk.start();
    await events.next(4, 30_000);
    expect(events.events[3].data.userErasureUpdatedForUser.type).toBe('USER_ERASED');
    const done = await erasure();
    expect(done.status).toBe('COMPLETED');
    expect(partsOf(done)).toEqual({ VERIFICATION: 'COMPLETED', NOTIFY: 'COMPLETED', RISK: 'COMPLETED' });
    const riskPart = done.services.find((s: any) => s.service === 'RISK');
    expect(riskPart.erased).toContainEqual({ kind: 'accountProfiles', count: 1 });
    expect((await db.query(`select 1 from risk.account_profiles where user_id = 'kofi'`)).rows).toEqual([]);
    // what a completed request kept of how to find the user is gone
    const { rows } = await db.query(`select subject, pseudonym from platform.user_erasures where id = $1`, [id]);
    expect(rows).toEqual([{ subject: null, pseudonym: null }]);
    await events.close();
  });

  it('answers a repeated request for a pending erasure with that erasure, and a new one after it completed', async () => {
    const client = await stack!.createClient({ name: 'repeat', service: 'verification' });
    const h = { 'x-api-key': client.apiKey };
    const first = await stack!.rest('POST', '/privacy/erasures', { userId: 'ama' }, h);
    const second = await stack!.rest('POST', '/privacy/erasures', { userId: 'ama' }, h);
    expect(second.body.id).toBe(first.body.id);
    await eventually(
      async () => (await stack!.rest('GET', `/privacy/erasures/${first.body.id}`, undefined, h)).body.status === 'COMPLETED',
      20_000,
    );
    const third = await stack!.rest('POST', '/privacy/erasures', { userId: 'ama' }, h);
    expect(third.body.id).not.toBe(first.body.id);
    const listed = await stack!.rest('GET', '/privacy/erasures?userId=ama', undefined, h);
    expect(listed.body).toMatchObject({ total: 2, data: [{ id: third.body.id }, { id: first.body.id }] });
    expect((await stack!.rest('POST', '/privacy/erasures', { userId: ' ' }, h)).status).toBe(422);
  });
});
