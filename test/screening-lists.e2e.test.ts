import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { ADMIN_SECRET, eventually, startTestStack, type TestStack } from './support/stack.js';

/** Screening list imports through the gateway (admin GraphQL) and the lists:import CLI. */

const FIXTURES = path.resolve(__dirname, '..', 'screening', 'fixtures');
const text = (rel: string) => readFileSync(path.join(FIXTURES, rel), 'utf8');
const admin = { 'x-admin-secret': ADMIN_SECRET };

const IMPORT = `mutation Import($input: ImportScreeningListInput!) {
  importScreeningList(input: $input) {
    imports {
      unchanged files
      snapshot { id source version kind format total added removed changed importedBy current createdAt }
    }
    userErrors { field code message }
  }
}`;
const VERSIONS = `query Versions($source: String) { screeningListVersions(filter: { source: $source }) { nodes { id source version total added removed changed current } } }`;
const CHANGES = `query Changes($id: ID!, $change: ScreeningListChangeKind, $first: Int, $after: String) {
  screeningListChanges(snapshotId: $id, filter: { change: $change }, first: $first, after: $after) {
    totalCount nodes { externalId change primaryName } pageInfo { hasNextPage hasPreviousPage endCursor }
  }
}`;
/** The import's variables: everything goes in its input. */
const importing = (input: Record<string, unknown>) => ({ input });

describe('screening lists: admin import, versions and diffs', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack?.stop());

  it('is for the admin only', async () => {
    const anonymous = await stack.gql(VERSIONS, {});
    expect(anonymous.body.errors?.[0].extensions.code).toMatch(/UNAUTHENTICATED|FORBIDDEN/);
    const { apiKey } = await stack.createClient({ name: 'client' });
    const client = await stack.gql(IMPORT, importing({ content: text('un/consolidated.xml') }), { 'x-api-key': apiKey });
    expect(client.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
  });

  it('imports the OFAC CSV set as version v1, then diffs v2 against it', async () => {
    const files = [
      { name: 'alt.csv', content: text('ofac/alt.csv') },
      { name: 'add.csv', content: text('ofac/add.csv') },
    ];
    const v1 = await stack.gql(IMPORT, importing({ content: text('ofac/sdn.csv'), fileName: 'sdn.csv', files, format: 'OFAC_CSV' }), admin);
    expect(v1.body.errors).toBeUndefined();
    expect(v1.body.data.importScreeningList.imports).toEqual([
      {
        unchanged: false,
        files: ['sdn.csv', 'alt.csv', 'add.csv'],
        snapshot: expect.objectContaining({
          source: 'OFAC_SDN',
          version: 'v1',
          kind: 'SANCTIONS',
          format: 'OFAC_CSV',
          total: 5,
          added: 5,
          removed: 0,
          changed: 0,
          importedBy: 'admin (GraphQL)',
          current: true,
        }),
      },
    ]);

    const v2 = await stack.gql(IMPORT, importing({ content: text('ofac/sdn-v2.csv'), fileName: 'sdn.csv', files }), admin);
    const snap = v2.body.data.importScreeningList.imports[0].snapshot;
    expect(snap).toMatchObject({ version: 'v2', total: 5, added: 1, removed: 1, changed: 1 });

    const changes = await stack.gql(CHANGES, { id: snap.id }, admin);
    expect(changes.body.data.screeningListChanges).toEqual({
      totalCount: 3,
      nodes: [
        { externalId: '90006', change: 'ADDED', primaryName: 'BENSALEM, Rachid' },
        { externalId: '90002', change: 'CHANGED', primaryName: 'KOUYATE, Mamadou Lamine' },
        { externalId: '90005', change: 'REMOVED', primaryName: 'OKONKWO, Chinedu Emmanuel' },
      ],
      pageInfo: { hasNextPage: false, hasPreviousPage: false, endCursor: expect.any(String) },
    });
    const removed = await stack.gql(CHANGES, { id: snap.id, change: 'REMOVED' }, admin);
    expect(removed.body.data.screeningListChanges).toMatchObject({ totalCount: 1, nodes: [{ externalId: '90005' }] });
    // a page at a time: the same changes in the same order
    const paged: string[] = [];
    for (let after: string | null = null; ;) {
      const page: any = (await stack.gql(CHANGES, { id: snap.id, first: 2, after }, admin)).body.data.screeningListChanges;
      expect(page.totalCount).toBe(3);
      paged.push(...page.nodes.map((c: any) => c.externalId));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(paged).toEqual(['90006', '90002', '90005']);

    const again = await stack.gql(IMPORT, importing({ content: text('ofac/sdn-v2.csv'), fileName: 'sdn.csv', files }), admin);
    expect(again.body.data.importScreeningList.imports[0]).toMatchObject({ unchanged: true, snapshot: { version: 'v2', id: snap.id } });

    const versions = await stack.gql(VERSIONS, { source: 'OFAC_SDN' }, admin);
    expect(versions.body.data.screeningListVersions.nodes.map((v: any) => [v.version, v.current])).toEqual([
      ['v2', true],
      ['v1', false],
    ]);
  });

  it('imports every official format and the custom formats', async () => {
    for (const [rel, source] of [
      ['ofac/consolidated.xml', 'OFAC_CONSOLIDATED'],
      ['un/consolidated.xml', 'UN_SC'],
      ['eu/fsf.xml', 'EU_FSF'],
      ['uk/ConList.csv', 'UK_OFSI'],
    ] as const) {
      const res = await stack.gql(IMPORT, importing({ content: text(rel), fileName: path.basename(rel) }), admin);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.importScreeningList.imports[0].snapshot).toMatchObject({ source, version: 'v1', removed: 0 });
    }
    const pep = await stack.gql(IMPORT, importing({ content: text('custom/pep-ng.csv'), source: 'CUSTOM_NIGERIA_PEP' }), admin);
    expect(pep.body.data.importScreeningList.imports[0].snapshot).toMatchObject({
      source: 'CUSTOM_NIGERIA_PEP',
      kind: 'PEP',
      total: 3,
      format: 'CUSTOM_CSV',
    });
    const media = await stack.gql(IMPORT, importing({ content: text('custom/adverse-media.json') }), admin);
    expect(media.body.data.importScreeningList.imports[0].snapshot).toMatchObject({
      source: 'CUSTOM_ADVERSE_MEDIA_WEST_AFRICA',
      kind: 'ADVERSE_MEDIA',
      total: 2,
    });
  });

  it('lists the versions a page at a time, newest first, each once', async () => {
    const PAGE = `query($after: String) { screeningListVersions(first: 3, after: $after) {
      totalCount nodes { id createdAt } pageInfo { hasNextPage endCursor } } }`;
    const seen: Array<{ id: string; createdAt: string }> = [];
    let totalCount = 0;
    for (let after: string | null = null; ;) {
      const page: any = (await stack.gql(PAGE, { after }, admin)).body.data.screeningListVersions;
      totalCount = page.totalCount;
      seen.push(...page.nodes);
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(totalCount).toBeGreaterThan(3);
    expect(new Set(seen.map((v) => v.id)).size).toBe(totalCount);
    const times = seen.map((v) => Date.parse(v.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('rejects unrecognised content, mismatched format or source, and custom lists without a kind', async () => {
    const userErrors = (res: { body: { data?: any } }) => res.body.data.importScreeningList.userErrors;
    const junk = await stack.gql(IMPORT, importing({ content: 'just some text' }), admin);
    expect(junk.body.data.importScreeningList.imports).toBeNull();
    expect(userErrors(junk)).toEqual([expect.objectContaining({ code: 'BAD_USER_INPUT' })]);
    const empty = await stack.gql(IMPORT, importing({ content: '  ' }), admin);
    expect(userErrors(empty)).toEqual([{ field: ['input', 'content'], code: 'BAD_USER_INPUT', message: 'content must not be empty' }]);
    const wrongFormat = await stack.gql(IMPORT, importing({ content: text('un/consolidated.xml'), format: 'EU_XML' }), admin);
    expect(userErrors(wrongFormat)).toEqual([
      { field: ['input', 'format'], code: 'VALIDATION_FAILED', message: expect.stringMatching(/^format EU_XML does not match/) },
    ]);
    const wrongSource = await stack.gql(IMPORT, importing({ content: text('un/consolidated.xml'), source: 'OFAC_SDN' }), admin);
    expect(userErrors(wrongSource)).toEqual([
      { field: ['input', 'source'], code: 'VALIDATION_FAILED', message: expect.stringMatching(/^source OFAC_SDN does not match/) },
    ]);
    const noKind = await stack.gql(IMPORT, importing({ content: 'id,name\nW-1,Some Person\n', source: 'CUSTOM_WATCH' }), admin);
    expect(userErrors(noKind)[0].code).toBe('VALIDATION_FAILED');
    const withKind = await stack.gql(
      IMPORT,
      importing({ content: 'id,name\nW-1,Some Person\n', source: 'CUSTOM_WATCH', kind: 'LAW_ENFORCEMENT' }),
      admin,
    );
    expect(withKind.body.data.importScreeningList.imports[0].snapshot).toMatchObject({ source: 'CUSTOM_WATCH', kind: 'LAW_ENFORCEMENT' });
    const unknown = await stack.gql(CHANGES, { id: '00000000-0000-0000-0000-000000000000' }, admin);
    expect(unknown.body).toEqual({ data: { screeningListChanges: null } });
  });

  it('imports with the lists:import CLI into the same database; the running stack sees the version', async () => {
    const cli = path.resolve(__dirname, '..', 'dist', 'cli', 'import-lists.js');
    const { stdout } = await promisify(execFile)(process.execPath, [cli, path.join(FIXTURES, 'ofac/sdn.xml')], {
      env: { ...process.env, DATABASE_URL: stack.databaseUrl, LOG_LEVEL: 'silent' },
    });
    expect(stdout).toMatch(/OFAC_SDN: v3 — 3 entries, 0 added, 2 removed, 3 changed/);
    const versions = await eventually(async () => {
      const res = await stack.gql(VERSIONS, { source: 'OFAC_SDN' }, admin);
      return res.body.data.screeningListVersions.nodes[0].version === 'v3' && res.body.data.screeningListVersions.nodes;
    });
    expect(versions[0]).toMatchObject({ total: 3, current: true });

    const failed = await promisify(execFile)(process.execPath, [cli, path.join(FIXTURES, 'ofac/alt.csv')], {
      env: { ...process.env, DATABASE_URL: stack.databaseUrl },
    }).catch((e) => e);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/BAD_USER_INPUT: .*primary file/);
  });
});
