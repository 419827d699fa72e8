import pg from 'pg';
import { ADMIN_SECRET, eventually, startTestStack, type TestStack } from './support/stack.js';

/**
 * `npm start` on an empty database: the official lists shipped in data/ (OFAC SDN of 2024-05-03,
 * UN Security Council of 2025-04-19) and the IP feeds are imported as version 1 in the background,
 * and screening works without any import by hand.
 */
describe('shipped screening data on first start', () => {
  let stack: TestStack;
  let pool: pg.Pool;
  let h: Record<string, string>;
  let started: number;
  const screen = (body: Record<string, unknown>) => stack.rest('POST', '/screening/aml', body, h);

  beforeAll(async () => {
    started = performance.now();
    stack = await startTestStack({ DEFAULT_SCREENING_DATA: 'true' });
    pool = new pg.Pool({ connectionString: stack.databaseUrl, max: 1 });
    h = { 'x-api-key': (await stack.createClient({ name: 'first start' })).apiKey };
  });
  afterAll(async () => {
    await pool?.end();
    await stack?.stop();
  });

  it('answers 503 with Retry-After while importing, never a CLEAR against part of the lists, then finds a listed name', async () => {
    const early = await screen({ userId: 'early', fullName: 'Nicolas Maduro Moros', dateOfBirth: '1962-11-23' });
    if (early.status === 503) {
      expect(early.body.code).toBe('UNAVAILABLE');
      expect(Number(early.headers.get('retry-after'))).toBeGreaterThan(0);
    } else {
      expect(early.body.listsChecked).toEqual(['OFAC_SDN', 'UN_SC']);
    }
    // the real SDN entry 22790 (MADURO MOROS, Nicolas; DOB 23 Nov 1962)
    const found = await eventually(async () => {
      const res = await screen({ userId: 'maduro', fullName: 'Nicolas Maduro Moros', dateOfBirth: '1962-11-23' });
      return res.status === 200 && res.body;
    }, 120_000);
    process.stdout.write(`first start with the shipped lists: screening ready after ${Math.round(performance.now() - started)} ms\n`);
    expect(found).toMatchObject({ status: 'POTENTIAL_MATCH', riskLevel: 'HIGH', listsChecked: ['OFAC_SDN', 'UN_SC'] });
    expect(found.matches[0]).toMatchObject({ source: 'OFAC_SDN', externalId: '22790', listVersion: 'v1' });
    // aliases come from the shipped alt.csv: SDN 20157 is KIM, Jong Un; a UN entity by its name
    const clear = await screen({ userId: 'kwame', fullName: 'Kwame Mensah Boateng', dateOfBirth: '1988-07-01' });
    expect(clear.body).toMatchObject({ status: 'CLEAR', listsChecked: ['OFAC_SDN', 'UN_SC'] });
  }, 180_000);

  it('lists the shipped versions as v1 with their publication dates', async () => {
    const res = await stack.gql(
      `{ screeningListVersions { nodes { source version current publishedOn total importedBy } } }`,
      {},
      { 'x-admin-secret': ADMIN_SECRET },
    );
    const nodes = res.body.data.screeningListVersions.nodes;
    expect(nodes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ source: 'OFAC_SDN', version: 'v1', current: true, publishedOn: '2024-05-03' }),
        expect.objectContaining({ source: 'UN_SC', version: 'v1', current: true, publishedOn: '2025-04-19' }),
      ]),
    );
    expect(nodes).toHaveLength(2);
    expect(nodes.find((n: { source: string }) => n.source === 'OFAC_SDN').total).toBeGreaterThan(10_000);
  });

  it('screens what is loaded when a requested kind has no list (PEP), saying which lists were checked', async () => {
    const pepOnly = await screen({ userId: 'pep', fullName: 'Nicolas Maduro Moros', lists: ['PEP'] });
    expect(pepOnly.status).toBe(200);
    expect(pepOnly.body).toMatchObject({ lists: ['PEP'], listsChecked: [], matchCount: 0 });
    const both = await screen({ userId: 'both', fullName: 'Nicolas Maduro Moros', lists: ['SANCTIONS', 'PEP'] });
    expect(both.body).toMatchObject({ listsChecked: ['OFAC_SDN', 'UN_SC'], status: 'POTENTIAL_MATCH' });
  });

  it('imports the shipped IP feeds (Tor exit nodes, cloud ranges)', async () => {
    const feeds = await eventually(async () => {
      const { rows } = await pool.query<{ feed: string }>('select feed from verification.ip_feeds order by feed');
      return rows.length === 8 && rows.map((r) => r.feed);
    }, 120_000);
    expect(feeds).toEqual(['aws', 'azure', 'cloudflare', 'digitalocean', 'gcp', 'linode', 'oracle', 'tor']);
  }, 180_000);
});
