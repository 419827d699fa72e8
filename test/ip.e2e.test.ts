import pg from 'pg';
import { importSnapshot } from '../screening/index.js';
import { ADMIN_SECRET, eventually, startTestStack, type TestStack } from './support/stack.js';

// Small fixtures in the providers' published shapes (never the real feed files).
const AWS_FIXTURE = JSON.stringify({
  syncToken: '1',
  createDate: '2026-11-01-00-00-00',
  prefixes: [
    { ip_prefix: '3.5.140.0/22', region: 'ap-northeast-2', service: 'AMAZON', network_border_group: 'ap-northeast-2' },
    { ip_prefix: '3.5.140.0/22', region: 'ap-northeast-2', service: 'S3', network_border_group: 'ap-northeast-2' },
  ],
  ipv6_prefixes: [{ ipv6_prefix: '2a05:d07a:a000::/40', region: 'eu-south-1', service: 'AMAZON', network_border_group: 'eu-south-1' }],
});
const TOR_FIXTURE = '# exit nodes\n102.130.113.9\n185.220.101.1\n';
const VPN_FIXTURE = '# a VPN provider list\n45.83.220.0/22\n2a0d:5600::/29\n';
const CLOUDFLARE_V6 = '2c0f:f248::/32\n2606:4700::/32\n';

const IP_FIELDS = `id ip userId version riskScore riskLevel checkedAt
  geolocation { country countryName region city latitude longitude timezone }
  network { isp organization asn connectionType }
  threats { isVpn isProxy isTor isDatacenter isKnownAbuser threatTypes }
  matchedRanges { feed category network provider service }`;

describe('IP intelligence end to end (feeds, GraphQL, REST Form A and B)', () => {
  let stack: TestStack;
  let h: Record<string, string>;
  const admin = { 'x-admin-secret': ADMIN_SECRET };

  async function importFeed(feed: string, content: string, extra: Record<string, unknown> = {}) {
    const res = await stack.gql(
      `mutation($input: ImportIpFeedInput!) {
        importIpFeed(input: $input) {
          ipFeed { feed category provider format entries version importedAt } previousEntries changed skipped userErrors { message }
        }
      }`,
      { input: { feed, content, ...extra } },
      admin,
    );
    expect(res.body.errors).toBeUndefined();
    const { ipFeed, userErrors, ...outcome } = res.body.data.importIpFeed;
    expect(userErrors).toEqual([]);
    return { ...ipFeed, ...outcome };
  }

  beforeAll(async () => {
    stack = await startTestStack();
    h = { 'x-api-key': (await stack.createClient({ name: 'intel' })).apiKey };
    await importFeed('aws', AWS_FIXTURE);
    await importFeed('tor', TOR_FIXTURE);
    await importFeed('vpn', VPN_FIXTURE);
    await importFeed('cloudflare', CLOUDFLARE_V6);
  });
  afterAll(() => stack?.stop());

  describe('feeds', () => {
    it('imports feeds as versions (admin only) and lists them', async () => {
      const again = await importFeed('tor', TOR_FIXTURE);
      expect(again).toMatchObject({ feed: 'tor', category: 'TOR', format: 'LIST', entries: 2, previousEntries: 2, changed: false });
      const custom = await importFeed('spamhaus-drop', '; DROP\n1.10.16.0/20 ; SBL256894\nnonsense\n', { category: 'BOTNET' });
      expect(custom).toMatchObject({
        feed: 'spamhaus-drop',
        category: 'BOTNET',
        entries: 1,
        skipped: 1,
        changed: true,
        previousEntries: 0,
      });
      const list = await stack.gql('{ ipFeeds { totalCount nodes { feed category provider entries } } }', {}, h);
      expect(list.body.data.ipFeeds.nodes).toEqual(
        expect.arrayContaining([
          { feed: 'aws', category: 'DATACENTER', provider: 'Amazon Web Services', entries: 2 },
          { feed: 'tor', category: 'TOR', provider: 'Tor Project', entries: 2 },
          { feed: 'spamhaus-drop', category: 'BOTNET', provider: null, entries: 1 },
        ]),
      );
      // last imported first, a page at a time
      expect(list.body.data.ipFeeds.nodes[0].feed).toBe('spamhaus-drop');
      const pages = `query($after: String) { ipFeeds(first: 2, after: $after) { nodes { feed } pageInfo { hasNextPage endCursor } } }`;
      const seen: string[] = [];
      let after: string | null = null;
      for (;;) {
        const page: { nodes: Array<{ feed: string }>; pageInfo: { hasNextPage: boolean; endCursor: string } } = (
          await stack.gql(pages, { after }, admin)
        ).body.data.ipFeeds;
        seen.push(...page.nodes.map((f) => f.feed));
        if (!page.pageInfo.hasNextPage) break;
        after = page.pageInfo.endCursor;
      }
      expect(seen).toEqual(list.body.data.ipFeeds.nodes.map((f: { feed: string }) => f.feed));
      expect(seen).toHaveLength(list.body.data.ipFeeds.totalCount);
    });

    it('refuses imports without the admin secret, unknown feeds without a category, and bad content', async () => {
      const importing = (input: string) =>
        `mutation { importIpFeed(input: { ${input} }) { ipFeed { feed } userErrors { field code message } } }`;
      const denied = await stack.gql(importing('feed: "tor", content: "1.2.3.4"'), {}, h);
      expect(denied.body.errors![0].extensions.code).toBe('FORBIDDEN');
      const unknown = await stack.gql(importing('feed: "mylist", content: "1.2.3.4"'), {}, admin);
      expect(unknown.body.data.importIpFeed).toEqual({
        ipFeed: null,
        userErrors: [{ field: ['input', 'category'], code: 'VALIDATION_FAILED', message: expect.stringMatching(/give its category/) }],
      });
      const empty = await stack.gql(importing('feed: "tor", content: "# nothing"'), {}, admin);
      expect(empty.body.data.importIpFeed.userErrors).toEqual([
        { field: ['input', 'content'], code: 'VALIDATION_FAILED', message: expect.stringMatching(/^content: No IP address/) },
      ]);
      const badName = await stack.gql(importing('feed: "Bad Name!", content: "1.2.3.4", category: VPN'), {}, admin);
      expect(badName.body.data.importIpFeed.userErrors[0].field).toEqual(['input', 'feed']);
      const badCategory = await stack.gql(
        `mutation { importIpFeed(input: { feed: "x", content: "1.2.3.4", category: SPACESHIP }) { ipFeed { feed } userErrors { message } } }`,
        {},
        admin,
      );
      expect(badCategory.body.data ?? null).toBeNull();
      expect(badCategory.body.errors![0].message).toMatch(/SPACESHIP/);
    });
  });

  describe('analysis', () => {
    it('geolocates an African residential address (Form A), LOW with no threats', async () => {
      const res = await stack.rest('POST', '/v1/intelligence/ip', { ip: '41.202.207.1' }, h);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        ip: '41.202.207.1',
        userId: null,
        version: 4,
        riskScore: 0,
        riskLevel: 'LOW',
        geolocation: { country: 'CM', countryName: 'Cameroon', city: expect.any(String), timezone: 'Africa/Douala' },
        network: { isp: null, organization: null, asn: null, connectionType: null },
        threats: { isVpn: false, isProxy: false, isTor: false, isDatacenter: false, isKnownAbuser: false, threatTypes: [] },
        matchedRanges: [],
      });
      expect(typeof res.body.geolocation.latitude).toBe('number');
      expect(new Date(res.body.checkedAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    });

    it('finds datacenter ranges with their provider and service', async () => {
      const res = await stack.rest('POST', '/intelligence/ip', { ip: '3.5.141.20', userId: 'u-dc' }, h);
      expect(res.body).toMatchObject({
        userId: 'u-dc',
        riskScore: 0.3,
        riskLevel: 'MEDIUM',
        network: { isp: 'Amazon Web Services', organization: 'Amazon Web Services', connectionType: 'DATACENTER' },
        threats: { isDatacenter: true, threatTypes: ['DATACENTER'] },
        matchedRanges: [{ feed: 'aws', category: 'DATACENTER', network: '3.5.140.0/22', provider: 'Amazon Web Services', service: 'S3' }],
      });
    });

    it('handles IPv6, IPv4-mapped addresses, Tor exits and VPN ranges (Form B)', async () => {
      const v6 = await stack.rest('POST', '/intelligence/ip/check', { ipAddress: '2a0d:5600:0:1::7', userId: 'u-6' }, h);
      expect(v6.status).toBe(200);
      expect(v6.body).toMatchObject({
        ip: '2a0d:5600:0:1::7',
        version: 6,
        userId: 'u-6',
        threats: { isVpn: true, threatTypes: ['VPN'] },
        riskLevel: 'MEDIUM',
        riskScore: 0.35,
      });
      const cf = await stack.rest('POST', '/intelligence/ip/check', { ipAddress: '2C0F:F248::1', userId: 'u-6' }, h);
      expect(cf.body).toMatchObject({ ip: '2c0f:f248::1', network: { organization: 'Cloudflare', connectionType: 'DATACENTER' } });
      const mapped = await stack.rest('POST', '/intelligence/ip/check', { ipAddress: '::ffff:102.130.113.9', userId: 'u-tor' }, h);
      expect(mapped.body).toMatchObject({
        ip: '102.130.113.9',
        version: 4,
        threats: { isTor: true, threatTypes: ['TOR'] },
        riskScore: 0.6,
        riskLevel: 'HIGH',
      });
    });

    it('flags addresses seen on a rejected user as known abusers, per organization', async () => {
      const ip = '197.210.54.33';
      expect((await stack.rest('POST', '/intelligence/ip/check', { ipAddress: ip, userId: 'mallory' }, h)).body.threats.isKnownAbuser).toBe(
        false,
      );
      const identity = await stack.rest('POST', '/verifications/identity', { userId: 'mallory' }, h);
      const review = await stack.rest(
        'POST',
        `/verifications/identity/${identity.body.id}/review`,
        { decision: 'REJECTED', reviewedBy: 'officer', reviewNotes: 'forged document' },
        h,
      );
      expect(review.body.overallStatus).toBe('REJECTED');
      const later = await stack.rest('POST', '/intelligence/ip/check', { ipAddress: ip, userId: 'someone-else' }, h);
      expect(later.body.threats).toMatchObject({ isKnownAbuser: true, threatTypes: ['KNOWN_ABUSER'] });
      expect(later.body).toMatchObject({ riskScore: 0.5, riskLevel: 'MEDIUM' });
      const otherOrg = { 'x-api-key': (await stack.createClient({ name: 'other' })).apiKey };
      expect(
        (await stack.rest('POST', '/intelligence/ip/check', { ipAddress: ip, userId: 'x' }, otherOrg)).body.threats.isKnownAbuser,
      ).toBe(false);
    });

    it('flags addresses seen on a user with a flagged AML screening', async () => {
      const pool = new pg.Pool({ connectionString: stack.databaseUrl, max: 1 });
      await importSnapshot(pool, 'UN_SC', [
        {
          source: 'UN_SC',
          kind: 'SANCTIONS',
          externalId: 'QDi.901',
          entityType: 'INDIVIDUAL',
          names: [{ full: 'Ahmed Musa Bello', type: 'PRIMARY' }],
          datesOfBirth: [],
          nationalities: [],
          documents: [],
          programs: [],
        },
      ]);
      await pool.end();
      const ip = '105.112.20.4';
      await stack.rest('POST', '/intelligence/ip/check', { ipAddress: ip, userId: 'listed-user' }, h);
      const screening = await eventually(async () => {
        const res = await stack.rest('POST', '/screening/aml', { userId: 'listed-user', fullName: 'Ahmed Musa Bello' }, h);
        return res.status === 200 && res.body.status === 'POTENTIAL_MATCH' ? res.body : null;
      });
      expect(screening.matchCount).toBe(1);
      expect((await stack.rest('POST', '/intelligence/ip', { ip }, h)).body.threats).toMatchObject({
        isKnownAbuser: true,
        threatTypes: ['KNOWN_ABUSER'],
      });
      // once the match is resolved as a false positive the user is no longer flagged
      await stack.rest(
        'POST',
        `/screening/aml/${screening.id}/matches/${screening.matches[0].id}/resolve`,
        { resolution: 'FALSE_POSITIVE', resolvedBy: 'officer', reason: 'namesake' },
        h,
      );
      expect((await stack.rest('POST', '/intelligence/ip', { ip }, h)).body.threats.isKnownAbuser).toBe(false);
    });

    it('reflects a feed refresh at once', async () => {
      expect((await stack.rest('POST', '/intelligence/ip', { ip: '185.220.101.1' }, h)).body.threats.isTor).toBe(true);
      const refreshed = await importFeed('tor', '102.130.113.9\n');
      expect(refreshed).toMatchObject({ entries: 1, previousEntries: 2, changed: true });
      expect((await stack.rest('POST', '/intelligence/ip', { ip: '185.220.101.1' }, h)).body.threats.isTor).toBe(false);
    });

    it('is queryable by id in GraphQL, and by user as a connection; other organizations see nothing', async () => {
      const analyze = (ip: string) =>
        stack.gql(
          `mutation { analyzeIp(input: { ip: "${ip}", userId: "gq-user" }) { ipAnalysis { ${IP_FIELDS} } userErrors { field code } } }`,
          {},
          h,
        );
      const created = (await analyze('3.5.140.9')).body.data.analyzeIp;
      expect(created.userErrors).toEqual([]);
      const analysis = created.ipAnalysis;
      expect(analysis.threats.isDatacenter).toBe(true);
      const read = await stack.gql(`query($id: ID!) { ipAnalysis(id: $id) { ${IP_FIELDS} } }`, { id: analysis.id }, h);
      expect(read.body.data.ipAnalysis).toEqual(analysis);
      const second = (await analyze('41.202.207.1')).body.data.analyzeIp.ipAnalysis;
      const byUser = await stack.gql(
        `{ ipAnalyses(filter: { userId: "gq-user" }, first: 1) { totalCount nodes { id } pageInfo { endCursor } } }`,
        {},
        h,
      );
      expect(byUser.body.data.ipAnalyses).toMatchObject({ totalCount: 2, nodes: [{ id: second.id }] });
      const next = await stack.gql(
        `query($after: String) { ipAnalyses(filter: { userId: "gq-user" }, first: 1, after: $after) { nodes { id } pageInfo { hasNextPage } } }`,
        { after: byUser.body.data.ipAnalyses.pageInfo.endCursor },
        h,
      );
      expect(next.body.data.ipAnalyses).toEqual({ nodes: [{ id: analysis.id }], pageInfo: { hasNextPage: false } });
      // the spec's message names no field (its two forms call it ip and ipAddress): a user error of no field
      expect((await analyze('999.1.1.1')).body.data.analyzeIp).toEqual({
        ipAnalysis: null,
        userErrors: [{ field: null, code: 'VALIDATION_FAILED' }],
      });
      const other = { 'x-api-key': (await stack.createClient({ name: 'other2' })).apiKey };
      expect(
        (await stack.gql(`query($id: ID!) { ipAnalysis(id: $id) { id } }`, { id: analysis.id }, other)).body.data.ipAnalysis,
      ).toBeNull();
    });
  });

  describe('validation and permissions', () => {
    it('answers 400 for missing fields and 422 for invalid addresses', async () => {
      const missingA = await stack.rest('POST', '/intelligence/ip', {}, h);
      expect(missingA.status).toBe(400);
      expect(missingA.body.message).toEqual(['ip is required']);
      const missingB = await stack.rest('POST', '/intelligence/ip/check', { ipAddress: '8.8.8.8' }, h);
      expect(missingB.status).toBe(400);
      expect(missingB.body.message).toEqual(['userId is required']);
      const missingIp = await stack.rest('POST', '/intelligence/ip/check', { userId: 'u' }, h);
      expect(missingIp.status).toBe(400);
      expect(missingIp.body.message).toEqual(['ipAddress is required']);
      expect((await stack.rest('POST', '/intelligence/ip', { ip: 42 }, h)).status).toBe(400);
      for (const bad of ['999.1.1.1', 'not-an-ip', '1.2.3.4/24', 'fe80::1%eth0', '']) {
        const res = await stack.rest('POST', '/intelligence/ip/check', { ipAddress: bad, userId: 'u' }, h);
        expect([bad, res.status]).toEqual([bad, 422]);
        expect(res.body.code).toBe('VALIDATION_FAILED');
      }
    });

    it('needs the intelligence permission', async () => {
      const identityOnly = { 'x-api-key': (await stack.createClient({ name: 'id only', permissions: ['identity'] })).apiKey };
      expect((await stack.rest('POST', '/intelligence/ip', { ip: '8.8.8.8' }, identityOnly)).status).toBe(403);
      const reader = { 'x-api-key': (await stack.createClient({ name: 'reader', permissions: ['intelligence:read'] })).apiKey };
      expect((await stack.rest('POST', '/intelligence/ip', { ip: '8.8.8.8' }, reader)).status).toBe(403);
    });
  });
});
