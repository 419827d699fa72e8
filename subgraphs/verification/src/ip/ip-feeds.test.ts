import { detectFormat, feedFromFileName, FeedError, normaliseCidr, parseFeed } from './ip-feeds.js';
import { assessIp, capScore, normaliseIp, riskLevelOf } from './ip-risk.js';
import type { RangeMatch } from './ip-feeds.store.js';

// Small fixtures in each provider's published shape (not copies of the real files).
const AWS = JSON.stringify({
  syncToken: '1',
  createDate: '2026-01-01-00-00-00',
  prefixes: [
    { ip_prefix: '3.5.140.0/22', region: 'ap-northeast-2', service: 'AMAZON', network_border_group: 'ap-northeast-2' },
    { ip_prefix: '3.5.140.0/22', region: 'ap-northeast-2', service: 'S3', network_border_group: 'ap-northeast-2' },
    { ip_prefix: '13.34.37.64/27', region: 'ap-southeast-4', service: 'AMAZON', network_border_group: 'ap-southeast-4' },
  ],
  ipv6_prefixes: [{ ipv6_prefix: '2a05:d07a:a000::/40', region: 'eu-south-1', service: 'AMAZON', network_border_group: 'eu-south-1' }],
});
const GCP = JSON.stringify({
  syncToken: '1',
  creationTime: '2026-01-01T00:00:00',
  prefixes: [
    { ipv4Prefix: '34.35.0.0/16', service: 'Google Cloud', scope: 'africa-south1' },
    { ipv6Prefix: '2600:1900:8000::/44', service: 'Google Cloud', scope: 'africa-south1' },
  ],
});
const AZURE = JSON.stringify({
  changeNumber: 1,
  cloud: 'Public',
  values: [
    {
      name: 'AzureCloud',
      id: 'AzureCloud',
      properties: { region: '', systemService: '', addressPrefixes: ['4.145.74.52/30', '20.87.0.0/17'] },
    },
    {
      name: 'AzureCloud.southafricanorth',
      id: 'AzureCloud.southafricanorth',
      properties: { region: 'southafricanorth', systemService: '', addressPrefixes: ['20.87.0.0/17', '2603:1000:100::/47'] },
    },
  ],
});
const ORACLE = JSON.stringify({
  last_updated_timestamp: '2026-01-01T00:00:00',
  regions: [
    {
      region: 'af-johannesburg-1',
      cidrs: [
        { cidr: '129.151.160.0/19', tags: ['OCI'] },
        { cidr: '2603:c020:1000::/36', tags: ['OSN'] },
      ],
    },
  ],
});
const GEOFEED = `# self-published geofeed (RFC 8805)
# ip_prefix, alpha2code, region, city, postal_code
5.101.96.0/21,NL,NL-NH,Amsterdam,1098 XH
2604:a880:4::/48,US,US-CA,Santa Clara,95054
`;
const TOR = '102.130.113.9\n103.109.101.105\n\n# comment\nnot-an-ip\n2001:67c:e60:c0c:192:42:116:16\n';
const DROP = '; Spamhaus DROP style\n1.10.16.0/20 ; SBL256894\n1.19.0.0/16 ; SBL434604\n';

describe('IP feed parsers', () => {
  it('normalises addresses and CIDRs (host bits cleared, IPv6 compressed)', () => {
    expect(normaliseCidr('10.1.2.3/8')).toBe('10.0.0.0/8');
    expect(normaliseCidr('1.2.3.4')).toBe('1.2.3.4/32');
    expect(normaliseCidr('2001:DB8:0:0:1::1/64')).toBe('2001:db8::/64');
    expect(normaliseCidr('2001:db8::1')).toBe('2001:db8::1/128');
    expect(normaliseCidr('0.0.0.0/0')).toBe('0.0.0.0/0');
    expect(normaliseCidr('1.2.3.4/33')).toBeNull();
    expect(normaliseCidr('1.2.3/24')).toBeNull();
    expect(normaliseCidr('fe80::1%eth0')).toBeNull();
    expect(normaliseCidr('abc')).toBeNull();
  });

  it('detects each provider format from the content', () => {
    expect(detectFormat(AWS)).toBe('aws');
    expect(detectFormat(GCP)).toBe('gcp');
    expect(detectFormat(AZURE)).toBe('azure');
    expect(detectFormat(ORACLE)).toBe('oracle');
    expect(detectFormat(GEOFEED)).toBe('geofeed');
    expect(detectFormat(TOR)).toBe('list');
    expect(() => detectFormat('{"something": []}')).toThrow(FeedError);
  });

  it('names known feeds from file names', () => {
    expect(feedFromFileName('/data/aws-ip-ranges.json')).toBe('aws');
    expect(feedFromFileName('google-cloud-ip-ranges.json')).toBe('gcp');
    expect(feedFromFileName('microsoft-azure-ip-ranges.json')).toBe('azure');
    expect(feedFromFileName('oracle-cloud-ip-ranges.json')).toBe('oracle');
    expect(feedFromFileName('digitalocean.csv')).toBe('digitalocean');
    expect(feedFromFileName('linode.txt')).toBe('linode');
    expect(feedFromFileName('cloudflare-v6-ip-ranges.txt')).toBe('cloudflare');
    expect(feedFromFileName('tor-exit-nodes_2023-11-06.lst')).toBe('tor');
    expect(feedFromFileName('monitoring.txt')).toBeNull();
    // the names the providers publish their files under
    const official = {
      'ip-ranges.json': 'aws',
      'cloud.json': 'gcp',
      'ServiceTags_Public.json': 'azure',
      'ServiceTags_Public_20231106.json': 'azure',
      'public_ip_ranges.json': 'oracle',
      'ips-v4': 'cloudflare',
      'ips-v6': 'cloudflare',
      torbulkexitlist: 'tor',
      'tor-exit-nodes.lst': 'tor',
    };
    for (const [file, feed] of Object.entries(official)) expect([file, feedFromFileName(`/downloads/${file}`)]).toEqual([file, feed]);
  });

  it('parses AWS: v4 and v6, one row per range with the specific service label', () => {
    const feed = parseFeed(AWS, { feed: 'aws' });
    expect(feed).toMatchObject({ feed: 'aws', category: 'DATACENTER', provider: 'Amazon Web Services', format: 'aws', skipped: 0 });
    expect(feed.ranges).toEqual([
      { network: '3.5.140.0/22', service: 'S3', region: 'ap-northeast-2' },
      { network: '13.34.37.64/27', service: 'AMAZON', region: 'ap-southeast-4' },
      { network: '2a05:d07a:a000::/40', service: 'AMAZON', region: 'eu-south-1' },
    ]);
  });

  it('parses Google Cloud, Azure service tags and Oracle', () => {
    expect(parseFeed(GCP, { feed: 'gcp' }).ranges.map((r) => r.network)).toEqual(['34.35.0.0/16', '2600:1900:8000::/44']);
    const azure = parseFeed(AZURE, { feed: 'azure' });
    expect(azure.ranges).toHaveLength(3);
    expect(azure.ranges.find((r) => r.network === '20.87.0.0/17')).toMatchObject({ region: 'southafricanorth' });
    const oracle = parseFeed(ORACLE, { feed: 'oracle' });
    expect(oracle.ranges).toEqual([
      { network: '129.151.160.0/19', service: 'OCI', region: 'af-johannesburg-1' },
      { network: '2603:c020:1000::/36', service: 'OSN', region: 'af-johannesburg-1' },
    ]);
  });

  it('parses RFC 8805 geofeeds with their location', () => {
    const feed = parseFeed(GEOFEED, { feed: 'digitalocean' });
    expect(feed.provider).toBe('DigitalOcean');
    expect(feed.ranges).toEqual([
      { network: '5.101.96.0/21', country: 'NL', region: 'NL-NH', city: 'Amsterdam' },
      { network: '2604:a880:4::/48', country: 'US', region: 'US-CA', city: 'Santa Clara' },
    ]);
  });

  it('parses one-per-line lists, skipping comments and counting bad lines', () => {
    const tor = parseFeed(TOR, { feed: 'tor' });
    expect(tor).toMatchObject({ category: 'TOR', format: 'list', skipped: 1 });
    expect(tor.ranges.map((r) => r.network)).toEqual(['102.130.113.9/32', '103.109.101.105/32', '2001:67c:e60:c0c:192:42:116:16/128']);
    const drop = parseFeed(DROP, { feed: 'spamhaus-drop', category: 'BOTNET' });
    expect(drop.ranges.map((r) => r.network)).toEqual(['1.10.16.0/20', '1.19.0.0/16']);
  });

  it('gives the same version to the same content, a different one otherwise', () => {
    expect(parseFeed(TOR, { feed: 'tor' }).version).toBe(parseFeed(TOR, { feed: 'tor' }).version);
    expect(parseFeed(TOR, { feed: 'tor' }).version).not.toBe(parseFeed(TOR + '1.1.1.1\n', { feed: 'tor' }).version);
  });

  it('refuses unknown feeds without a category, bad names and empty feeds', () => {
    expect(() => parseFeed('1.2.3.4', { feed: 'mylist' })).toThrow(/give its category/);
    expect(() => parseFeed('1.2.3.4', { feed: 'Bad Name!' })).toThrow(/Feed name/);
    expect(() => parseFeed('# nothing\n', { feed: 'tor' })).toThrow(/No IP address/);
    expect(() => parseFeed('{not json', { feed: 'aws' })).toThrow(FeedError);
  });
});

describe('IP risk', () => {
  const range = (category: RangeMatch['category'], provider: string | null = null): RangeMatch => ({
    feed: category.toLowerCase(),
    category,
    network: '1.2.3.0/24',
    provider,
    service: null,
    region: null,
    country: null,
    city: null,
  });

  it('is LOW and empty for an address in no feed', () => {
    expect(assessIp([], false)).toEqual({
      threats: { isVpn: false, isProxy: false, isTor: false, isDatacenter: false, isKnownAbuser: false, threatTypes: [] },
      network: { isp: null, organization: null, asn: null, connectionType: null },
      riskScore: 0,
      riskLevel: 'LOW',
    });
  });

  it('marks datacenter ranges with their provider (MEDIUM)', () => {
    const a = assessIp([range('DATACENTER', 'Amazon Web Services')], false);
    expect(a.threats).toMatchObject({ isDatacenter: true, threatTypes: ['DATACENTER'] });
    expect(a.network).toEqual({ isp: 'Amazon Web Services', organization: 'Amazon Web Services', asn: null, connectionType: 'DATACENTER' });
    expect(a).toMatchObject({ riskScore: 0.3, riskLevel: 'MEDIUM' });
  });

  it('adds up threats, capped at 1 (Tor + known abuser + datacenter = HIGH)', () => {
    const a = assessIp([range('TOR'), range('DATACENTER', 'Hetzner')], true);
    expect(a.threats.threatTypes).toEqual(['TOR', 'DATACENTER', 'KNOWN_ABUSER']);
    expect(a.network.organization).toBe('Hetzner');
    expect(assessIp([range('TOR', 'Tor Project')], false).network).toEqual({
      isp: null,
      organization: null,
      asn: null,
      connectionType: null,
    });
    expect(a).toMatchObject({ riskScore: 1, riskLevel: 'HIGH' });
    expect(assessIp([range('VPN')], false)).toMatchObject({ riskScore: 0.35, riskLevel: 'MEDIUM', threats: { isVpn: true } });
    expect(assessIp([range('PROXY'), range('BOTNET')], false)).toMatchObject({
      riskScore: 1,
      threats: { isProxy: true, threatTypes: ['PROXY', 'BOTNET'] },
    });
  });

  it('takes the connection type from connection-type feeds', () => {
    expect(assessIp([range('SATELLITE', 'Starlink')], false).network.connectionType).toBe('SATELLITE');
    expect(assessIp([range('MOBILE')], false)).toMatchObject({ riskScore: 0, network: { connectionType: 'MOBILE' } });
  });

  it('bands scores and validates addresses', () => {
    expect([0, 0.29, 0.3, 0.59, 0.6, 1].map(riskLevelOf)).toEqual(['LOW', 'LOW', 'MEDIUM', 'MEDIUM', 'HIGH', 'HIGH']);
    expect(capScore([0.35, 0.3])).toBe(0.65);
    expect(normaliseIp('::ffff:41.202.207.1')).toBe('41.202.207.1');
    expect(normaliseIp('2C0F:F248::1')).toBe('2c0f:f248::1');
    expect(normaliseIp('256.1.1.1')).toBeNull();
    expect(normaliseIp('1.2.3.4/24')).toBeNull();
    expect(normaliseIp('')).toBeNull();
    expect(normaliseIp('fe80::1%eth0')).toBeNull();
  });
});
