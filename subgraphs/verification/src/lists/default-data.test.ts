import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import { createLogger } from '../../../../platform/logger.js';
import { currentVersions } from '../../../../screening/index.js';
import { createTestDatabase } from '../../../../test/support/database.js';
import { IpFeedStore } from '../ip/ip-feeds.store.js';
import { importDefaultData, type DataManifest } from './default-data.js';

const FIXTURES = path.resolve(__dirname, '../../../../screening/fixtures');

/** A data/ folder of the fixture lists (two sources) and one IP feed, with its manifest. */
function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'shipped-data-'));
  for (const file of ['ofac/sdn.csv', 'ofac/alt.csv', 'ofac/add.csv', 'un/consolidated.xml']) {
    copyFileSync(path.join(FIXTURES, file), path.join(dir, file.replace('/', '-')));
  }
  writeFileSync(path.join(dir, 'tor.lst'), '185.220.101.1\n185.220.100.0/24\n');
  const manifest: DataManifest = {
    lists: [
      { source: 'OFAC_SDN', publishedOn: '2024-05-03', files: ['ofac-sdn.csv', 'ofac-alt.csv', 'ofac-add.csv'] },
      { source: 'UN_SC', publishedOn: '2025-04-19', files: ['un-consolidated.xml'] },
    ],
    ipFeeds: [{ feed: 'tor', files: ['tor.lst'] }],
  };
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
  return dir;
}

describe('the shipped data imported on first start', () => {
  let pool: pg.Pool;
  let dir: string;

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: await createTestDatabase(), max: 2 });
    dir = dataDir();
  });
  afterAll(async () => {
    await pool?.end();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a shutdown stops it after the list being written; that one stays, the next start imports the rest', async () => {
    const messages: string[] = [];
    // the process is told to stop as soon as the first list is in
    const lines = new Writable({
      write(chunk: Buffer, _encoding, done) {
        const { msg } = JSON.parse(chunk.toString()) as { msg: string };
        messages.push(msg);
        if (msg === 'shipped list imported') void first.stop();
        done();
      },
    });
    const engine = { reload: async () => undefined, versions: () => ({}) };
    const first = importDefaultData({ pool, engine, logger: createLogger('shipped-data', 'info', lines), dir });
    await first.done;
    expect(first.importing()).toBe(false);
    expect(Object.keys(await currentVersions(pool))).toEqual(['OFAC_SDN']);
    expect(await new IpFeedStore(pool).list()).toEqual([]);
    expect(messages).toContain('shipped screening data: the import stops with the process; the next start resumes it');

    const next = importDefaultData({ pool, engine, logger: createLogger('shipped-data', 'silent'), dir });
    await next.done;
    const versions = await currentVersions(pool);
    expect(Object.fromEntries(Object.entries(versions).map(([source, v]) => [source, v.version]))).toEqual({
      OFAC_SDN: 'v1',
      UN_SC: 'v1',
    });
    expect((await new IpFeedStore(pool).list()).map((f) => [f.feed, f.entries])).toEqual([['tor', 2]]);
  });
});
