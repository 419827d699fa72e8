import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { createLogger } from '../platform/logger.js';
import { createTestDatabase, eventually } from '../test/support/database.js';
import {
  acquireScreeningEngine,
  importSnapshot,
  listSnapshots,
  snapshotChanges,
  parseList,
  ScreeningEngine,
  LISTS_CHANNEL,
  type ListEntry,
} from './index.js';

/** Snapshots in PostgreSQL and the engine that indexes them, against a database of its own. */

const FIXTURES = path.join(__dirname, 'fixtures');
const file = (rel: string) => ({ name: path.basename(rel), content: readFileSync(path.join(FIXTURES, rel)) });
const sdnV1 = () => parseList([file('ofac/sdn.csv'), file('ofac/alt.csv'), file('ofac/add.csv')])[0].entries;
const sdnV2 = () => parseList([file('ofac/sdn-v2.csv'), file('ofac/alt.csv'), file('ofac/add.csv')])[0].entries;

/** Each test has a database of its own, so none depends on what another left behind. */
describe('list snapshots and the screening engine', () => {
  let pool: pg.Pool;
  const engines: ScreeningEngine[] = [];
  const logger = createLogger('screening-test', 'silent');

  beforeEach(async () => {
    const url = await createTestDatabase();
    pool = new pg.Pool({ connectionString: url, max: 6 });
  });

  afterEach(async () => {
    for (const e of engines.splice(0)) await e.stop();
    await pool.end();
  });

  /** OFAC_SDN v1 then v2. */
  async function twoVersions() {
    await importSnapshot(pool, 'OFAC_SDN', sdnV1());
    return importSnapshot(pool, 'OFAC_SDN', sdnV2());
  }

  it('imports a first snapshot (everything added), then diffs the next by external id', async () => {
    const first = await importSnapshot(pool, 'OFAC_SDN', sdnV1(), { format: 'OFAC_CSV', importedBy: 'test' });
    expect(first).toMatchObject({ source: 'OFAC_SDN', version: 'v1', total: 5, added: 5, removed: 0, changed: 0 });

    const second = await importSnapshot(pool, 'OFAC_SDN', sdnV2(), { format: 'OFAC_CSV' });
    expect(second).toMatchObject({ version: 'v2', total: 5, added: 1, removed: 1, changed: 1 });
    const changes = await snapshotChanges(pool, second.snapshotId);
    expect(changes.total).toBe(3);
    expect(changes.data).toEqual([
      { externalId: '90006', change: 'ADDED', primaryName: 'BENSALEM, Rachid' },
      { externalId: '90002', change: 'CHANGED', primaryName: 'KOUYATE, Mamadou Lamine' },
      { externalId: '90005', change: 'REMOVED', primaryName: 'OKONKWO, Chinedu Emmanuel' },
    ]);
    expect((await snapshotChanges(pool, second.snapshotId, 'REMOVED')).data.map((c) => c.externalId)).toEqual(['90005']);
  });

  it('does not create a version for identical content (in any entry order)', async () => {
    await twoVersions();
    const again = await importSnapshot(pool, 'OFAC_SDN', sdnV2().reverse());
    expect(again).toMatchObject({ version: 'v2', added: 0, removed: 0, changed: 0, unchanged: true });
    const snaps = await listSnapshots(pool, 'OFAC_SDN');
    expect(snaps.map((s) => [s.version, s.current])).toEqual([
      ['v2', true],
      ['v1', false],
    ]);
  });

  it('refuses empty lists, duplicate ids, foreign entries and invalid sources', async () => {
    const entries = sdnV1();
    await expect(importSnapshot(pool, 'OFAC_SDN', [])).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
    await expect(importSnapshot(pool, 'OFAC_SDN', [entries[0], entries[0]])).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
    await expect(importSnapshot(pool, 'UN_SC', entries)).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
    await expect(importSnapshot(pool, 'ofac', entries)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('loads the newest snapshots, and every engine reloads when a snapshot lands (NOTIFY)', async () => {
    const a = new ScreeningEngine({ pool, logger, pollMs: 0 });
    const b = new ScreeningEngine({ pool, logger, pollMs: 0 });
    engines.push(a, b);
    await twoVersions();
    await a.start();
    await b.start();
    expect(a.versions()).toEqual({ OFAC_SDN: 'v2' });
    expect(a.search({ fullName: 'Rachid Bensalem' })[0]).toMatchObject({ externalId: '90006', listVersion: 'v2' });
    expect(a.search({ fullName: 'Chinedu Okonkwo' })).toEqual([]);

    const seen: Record<string, string>[] = [];
    const off = b.onReload((v) => seen.push(v));
    const un = parseList([file('un/consolidated.xml')])[0].entries;
    await importSnapshot(pool, 'UN_SC', un);
    await eventually(async () => a.versions().UN_SC && b.versions().UN_SC);
    expect(b.versions()).toEqual({ OFAC_SDN: 'v2', UN_SC: 'v1' });
    expect(seen).toEqual([{ OFAC_SDN: 'v2', UN_SC: 'v1' }]);
    expect(b.search({ fullName: 'Abd al-Rahman Ould Sidi Mohamed' })[0]).toMatchObject({
      source: 'UN_SC',
      externalId: 'QDi.901',
      listVersion: 'v1',
    });
    off();

    // a changed OFAC snapshot replaces only that source
    const v3: ListEntry[] = sdnV2().map((e) =>
      e.externalId === '90006' ? { ...e, names: [{ full: 'BENSALEM, Rachid Karim', type: 'PRIMARY' }] } : e,
    );
    const r = await importSnapshot(pool, 'OFAC_SDN', v3);
    expect(r).toMatchObject({ version: 'v3', changed: 1 });
    await eventually(async () => a.versions().OFAC_SDN === 'v3');
    expect(a.search({ fullName: 'Rachid Karim Bensalem' })[0]).toMatchObject({ externalId: '90006', listVersion: 'v3', score: 1 });
    expect(a.size).toBe(5 + 3);
    expect(seen).toHaveLength(1);
  });

  it('keeps entries of the newest snapshots only (metadata and diffs stay)', async () => {
    await twoVersions();
    for (let i = 0; i < 4; i++) {
      const entries = sdnV2().map((e) => (e.externalId === '90003' ? { ...e, remarks: `round ${i}` } : e));
      await importSnapshot(pool, 'OFAC_SDN', entries);
    }
    const { rows } = await pool.query<{ version: string; n: string }>(
      `select s.version, count(e.external_id) as n from screening.list_snapshots s left join screening.list_entries e on e.snapshot_id = s.id
       where s.source = 'OFAC_SDN' group by s.version, s.seq order by s.seq`,
    );
    expect(rows.map((r) => [r.version, Number(r.n)])).toEqual([
      ['v1', 0],
      ['v2', 0],
      ['v3', 0],
      ['v4', 5],
      ['v5', 5],
      ['v6', 5],
    ]);
    const v1 = (await listSnapshots(pool, 'OFAC_SDN')).find((s) => s.version === 'v1')!;
    expect((await snapshotChanges(pool, v1.id)).total).toBe(5);
  });

  it('shares one started engine per pool between the services of a process', async () => {
    await importSnapshot(pool, 'OFAC_SDN', sdnV1());
    const a = await acquireScreeningEngine({ pool, logger });
    const b = await acquireScreeningEngine({ pool, logger });
    expect(a.engine).toBe(b.engine);
    expect(a.engine.versions()).toEqual({ OFAC_SDN: 'v1' });
    await a.release();
    await a.release(); // idempotent
    const c = await acquireScreeningEngine({ pool, logger });
    expect(c.engine).toBe(b.engine);
    await b.release();
    await c.release();
    const d = await acquireScreeningEngine({ pool, logger });
    expect(d.engine).not.toBe(b.engine);
    await d.release();
  });

  it('announces snapshots on the screening_lists channel', async () => {
    const client = new pg.Client({ connectionString: (pool as any).options.connectionString });
    await client.connect();
    const notices: string[] = [];
    client.on('notification', (m) => notices.push(m.payload ?? ''));
    await client.query(`LISTEN ${LISTS_CHANNEL}`);
    const custom = parseList([file('custom/pep-ng.csv')])[0];
    const r = await importSnapshot(pool, custom.source, custom.entries);
    await eventually(async () => notices.length > 0);
    expect(JSON.parse(notices[0])).toEqual({ source: 'CUSTOM_PEP_NG', version: 'v1', snapshotId: r.snapshotId });
    await client.end();
  });
});
