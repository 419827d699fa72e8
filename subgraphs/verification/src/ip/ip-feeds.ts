import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { parse as parseCsv } from 'csv-parse/sync';

/**
 * IP reference feeds as data: the providers' own publications, parsed into CIDR ranges.
 * Pure functions (no database); `ip-feeds.store.ts` writes the result.
 */

/** Threat feeds (VPN…BOTNET, DATACENTER) and connection-type feeds (MOBILE, SATELLITE…). */
export const FEED_CATEGORIES = ['DATACENTER', 'TOR', 'VPN', 'PROXY', 'BOTNET', 'MOBILE', 'SATELLITE', 'BUSINESS', 'RESIDENTIAL'] as const;
export type FeedCategory = (typeof FEED_CATEGORIES)[number];

export const FEED_FORMATS = ['aws', 'gcp', 'azure', 'oracle', 'geofeed', 'list'] as const;
export type FeedFormat = (typeof FEED_FORMATS)[number];

export interface KnownFeed {
  category: FeedCategory;
  provider: string | null;
  format?: FeedFormat;
  /** Words that identify the feed in a file name. */
  match: RegExp;
  /** The name the provider publishes the file under (ip-ranges.json, ips-v4…), whole. */
  official?: RegExp;
}

/** Feeds recognised by name (or file name); any other name needs an explicit category. */
export const KNOWN_FEEDS: Record<string, KnownFeed> = {
  aws: {
    category: 'DATACENTER',
    provider: 'Amazon Web Services',
    format: 'aws',
    match: /\b(aws|amazon)\b/i,
    official: /^ip-ranges\.json$/i,
  },
  gcp: { category: 'DATACENTER', provider: 'Google Cloud', format: 'gcp', match: /\b(gcp|google)\b/i, official: /^cloud\.json$/i },
  azure: {
    category: 'DATACENTER',
    provider: 'Microsoft Azure',
    format: 'azure',
    match: /\b(azure|microsoft)\b/i,
    official: /^ServiceTags_(Public|AzureGovernment|China)(_\d{8})?\.json$/i,
  },
  oracle: {
    category: 'DATACENTER',
    provider: 'Oracle Cloud Infrastructure',
    format: 'oracle',
    match: /\b(oracle|oci)\b/i,
    official: /^public_ip_ranges\.json$/i,
  },
  digitalocean: { category: 'DATACENTER', provider: 'DigitalOcean', format: 'geofeed', match: /\bdigital-?ocean\b/i },
  linode: { category: 'DATACENTER', provider: 'Akamai Cloud (Linode)', format: 'geofeed', match: /\b(linode|akamai)\b/i },
  cloudflare: {
    category: 'DATACENTER',
    provider: 'Cloudflare',
    format: 'list',
    match: /\bcloudflare\b/i,
    official: /^ips-v[46](\.txt)?$/i,
  },
  tor: {
    category: 'TOR',
    provider: 'Tor Project',
    format: 'list',
    match: /\btor\b/i,
    official: /^(torbulkexitlist|exit-addresses)(\.txt)?$/i,
  },
  vpn: { category: 'VPN', provider: null, format: 'list', match: /\bvpn\b/i },
  proxy: { category: 'PROXY', provider: null, format: 'list', match: /\bprox(y|ies)\b/i },
  botnet: { category: 'BOTNET', provider: null, format: 'list', match: /\b(botnet|c2|feodo)\b/i },
};

export interface FeedRange {
  /** Normalised CIDR (network address + prefix length). */
  network: string;
  service?: string | null;
  region?: string | null;
  country?: string | null;
  city?: string | null;
}

type RawRange = Omit<FeedRange, 'network'> & { cidr: string };

export interface ParsedFeed {
  feed: string;
  category: FeedCategory;
  provider: string | null;
  format: FeedFormat;
  /** sha256 of the content: the same file imported twice is the same version. */
  version: string;
  ranges: FeedRange[];
  /** Lines or items that were not a valid IP or CIDR (reported, not fatal). */
  skipped: number;
}

export interface FeedOptions {
  /** Feed name (`aws`, `tor`, `my-vpn-list`…): a feed's previous ranges are replaced on import. */
  feed: string;
  category?: FeedCategory;
  provider?: string | null;
  format?: FeedFormat;
}

/** A feed that cannot be imported; `field` names the import option at fault, when one is. */
export class FeedError extends Error {
  constructor(
    message: string,
    readonly field?: 'feed' | 'category' | 'format' | 'content',
  ) {
    super(message);
  }
}

export const FEED_NAME = /^[a-z0-9][a-z0-9_.-]{0,63}$/;

/** Which known feed a file name designates (`aws-ip-ranges.json` → aws), if any. */
export function feedFromFileName(fileName: string): string | null {
  const file = fileName.replace(/^.*[\\/]/, '');
  for (const [name, known] of Object.entries(KNOWN_FEEDS)) if (known.official?.test(file)) return name;
  const base = file.replace(/[_.]/g, ' ').toLowerCase();
  for (const [name, known] of Object.entries(KNOWN_FEEDS)) if (known.match.test(base)) return name;
  return null;
}

/** `1.2.3.4` → `1.2.3.4/32`; `10.1.2.3/8` → `10.0.0.0/8`; null when not an IP or CIDR. */
export function normaliseCidr(text: string): string | null {
  const [addr, bitsText, ...rest] = text.trim().split('/');
  if (rest.length || !addr) return null;
  const family = isIP(addr);
  if (!family) return null;
  const max = family === 4 ? 32 : 128;
  if (bitsText !== undefined && !/^\d{1,3}$/.test(bitsText)) return null;
  const bits = bitsText === undefined ? max : Number(bitsText);
  if (bits > max) return null;
  if (family === 4) {
    const value = addr.split('.').reduce((n, o) => n * 256 + Number(o), 0);
    const masked = bits === 0 ? 0 : Number(BigInt(value) & (((1n << BigInt(bits)) - 1n) << BigInt(32 - bits)));
    return `${[24, 16, 8, 0].map((s) => (masked >>> s) & 255).join('.')}/${bits}`;
  }
  const value = ipv6ToBigInt(addr);
  if (value === null) return null;
  const mask = bits === 0 ? 0n : ((1n << BigInt(bits)) - 1n) << BigInt(128 - bits);
  return `${bigIntToIpv6(value & mask)}/${bits}`;
}

export function ipv6ToBigInt(addr: string): bigint | null {
  let text = addr.toLowerCase();
  if (text.includes('%')) return null;
  // embedded IPv4 tail (::ffff:1.2.3.4)
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const o = v4[1].split('.').map(Number);
    text = text.slice(0, -v4[1].length) + `${((o[0] << 8) | o[1]).toString(16)}:${((o[2] << 8) | o[3]).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const h = head ? head.split(':') : [];
  const t = tail !== undefined && tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  if (groups.length !== 8) return null;
  return groups.reduce((n, g) => (n << 16n) | BigInt(parseInt(g || '0', 16)), 0n);
}

export function bigIntToIpv6(value: bigint): string {
  const groups = Array.from({ length: 8 }, (_, i) => Number((value >> BigInt((7 - i) * 16)) & 0xffffn).toString(16));
  // compress the longest run of zero groups (RFC 5952)
  let best = { start: -1, len: 0 };
  for (let i = 0; i < 8;) {
    if (groups[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > best.len && j - i > 1) best = { start: i, len: j - i };
    i = j;
  }
  if (best.start < 0) return groups.join(':');
  return `${groups.slice(0, best.start).join(':')}::${groups.slice(best.start + best.len).join(':')}`;
}

/** Guesses the format from the content (JSON shapes of the cloud providers, RFC 8805 CSV, plain list). */
export function detectFormat(content: string): FeedFormat {
  const text = content.trimStart();
  if (text.startsWith('{')) {
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw new FeedError('The file looks like JSON but does not parse', 'content');
    }
    const prefixes = json.prefixes as Array<Record<string, unknown>> | undefined;
    if (Array.isArray(prefixes) && ('ip_prefix' in (prefixes[0] ?? {}) || Array.isArray(json.ipv6_prefixes))) return 'aws';
    if (Array.isArray(prefixes) && prefixes.some((p) => 'ipv4Prefix' in p || 'ipv6Prefix' in p)) return 'gcp';
    if (Array.isArray(json.values) && (json.values as Array<Record<string, unknown>>).some((v) => typeof v.properties === 'object'))
      return 'azure';
    if (Array.isArray(json.regions)) return 'oracle';
    throw new FeedError('Unknown JSON feed: expected the AWS, Google Cloud, Azure service tags or Oracle format', 'content');
  }
  const lines = dataLines(content);
  if (lines.length && lines.slice(0, 20).every((l) => /^[^,\s]+\s*,\s*[A-Za-z]{0,2}\s*,/.test(l))) return 'geofeed';
  return 'list';
}

function dataLines(content: string): string[] {
  return content
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#') && !l.startsWith(';') && !l.startsWith('//'));
}

/** Parses one feed file. Throws FeedError when the content is not the format named or detected. */
export function parseFeed(content: string, opts: FeedOptions): ParsedFeed {
  const feed = opts.feed.toLowerCase();
  if (!FEED_NAME.test(feed)) throw new FeedError(`Feed name must match ${FEED_NAME} (got "${opts.feed}")`, 'feed');
  const known = KNOWN_FEEDS[feed];
  const category = opts.category ?? known?.category;
  if (!category) throw new FeedError(`Feed "${feed}" is not a known feed: give its category (${FEED_CATEGORIES.join(', ')})`, 'category');
  if (!FEED_CATEGORIES.includes(category)) throw new FeedError(`category must be one of: ${FEED_CATEGORIES.join(', ')}`, 'category');
  const format = opts.format ?? detectFormat(content);
  if (!FEED_FORMATS.includes(format)) throw new FeedError(`format must be one of: ${FEED_FORMATS.join(', ')}`, 'format');

  let raw: RawRange[];
  switch (format) {
    case 'aws':
      raw = parseAws(content);
      break;
    case 'gcp':
      raw = parseGcp(content);
      break;
    case 'azure':
      raw = parseAzure(content);
      break;
    case 'oracle':
      raw = parseOracle(content);
      break;
    case 'geofeed':
      raw = parseGeofeed(content);
      break;
    default:
      raw = parseList(content);
  }
  const seen = new Set<string>();
  const ranges: FeedRange[] = [];
  let skipped = 0;
  for (const r of raw) {
    const network = normaliseCidr(r.cidr);
    if (!network) {
      skipped++;
      continue;
    }
    if (seen.has(network)) continue;
    seen.add(network);
    const { cidr: _c, ...rest } = r;
    ranges.push({ ...rest, network });
  }
  if (!ranges.length) throw new FeedError(`No IP address or CIDR range found in the ${format} feed "${feed}"`, 'content');
  return {
    feed,
    category,
    provider: opts.provider !== undefined ? opts.provider : (known?.provider ?? null),
    format,
    version: createHash('sha256').update(content).digest('hex').slice(0, 16),
    ranges,
    skipped,
  };
}

function json(content: string): any {
  try {
    return JSON.parse(content);
  } catch {
    throw new FeedError('The feed is not valid JSON', 'content');
  }
}

function parseAws(content: string) {
  const doc = json(content);
  const v4 = (doc.prefixes ?? []).map((p: any) => ({
    cidr: String(p.ip_prefix ?? ''),
    service: p.service ?? null,
    region: p.region ?? null,
  }));
  const v6 = (doc.ipv6_prefixes ?? []).map((p: any) => ({
    cidr: String(p.ipv6_prefix ?? ''),
    service: p.service ?? null,
    region: p.region ?? null,
  }));
  // "AMAZON" is the superset of every service: prefer the specific service label for a range
  return [...v4, ...v6].sort((a, b) => Number(a.service === 'AMAZON') - Number(b.service === 'AMAZON'));
}

function parseGcp(content: string) {
  const doc = json(content);
  return (doc.prefixes ?? []).map((p: any) => ({
    cidr: String(p.ipv4Prefix ?? p.ipv6Prefix ?? ''),
    service: p.service ?? null,
    region: p.scope ?? null,
  }));
}

function parseAzure(content: string) {
  const doc = json(content);
  const out: RawRange[] = [];
  // regional tags first (AzureCloud.westeurope) so a range keeps its most specific label
  const values = [...(doc.values ?? [])].sort((a: any, b: any) => Number(!a.properties?.region) - Number(!b.properties?.region));
  for (const v of values) {
    for (const cidr of v.properties?.addressPrefixes ?? []) {
      out.push({ cidr: String(cidr), service: v.properties?.systemService || v.name || null, region: v.properties?.region || null });
    }
  }
  return out;
}

function parseOracle(content: string) {
  const doc = json(content);
  return (doc.regions ?? []).flatMap((r: any) =>
    (r.cidrs ?? []).map((c: any) => ({
      cidr: String(c.cidr ?? ''),
      service: Array.isArray(c.tags) ? c.tags.join(',') : null,
      region: r.region ?? null,
    })),
  );
}

/** RFC 8805: `prefix,country,region,city,postal` (comments start with #). */
function parseGeofeed(content: string) {
  const rows = parseCsv(dataLines(content).join('\n'), { relax_column_count: true, trim: true, skip_empty_lines: true }) as string[][];
  return rows.map(([cidr, country, region, city]) => ({
    cidr: cidr ?? '',
    country: country ? country.toUpperCase() : null,
    region: region || null,
    city: city || null,
  }));
}

/** One IP or CIDR per line; `#`/`;` comments; anything after the first blank or comma is ignored (Spamhaus DROP style). */
function parseList(content: string) {
  return dataLines(content).map((line) => ({ cidr: line.split(/[\s,;#]/)[0] }));
}

/** Several files of one feed (Cloudflare publishes v4 and v6 apart) imported as one version. */
export function mergeFeeds(parts: ParsedFeed[]): ParsedFeed {
  if (!parts.length) throw new FeedError('Nothing to merge');
  const [first] = parts;
  if (parts.some((p) => p.feed !== first.feed)) throw new FeedError('Only files of the same feed can be merged');
  if (parts.length === 1) return first;
  const seen = new Set<string>();
  const ranges = parts.flatMap((p) => p.ranges).filter((r) => !seen.has(r.network) && seen.add(r.network));
  return {
    ...first,
    version: createHash('sha256')
      .update(parts.map((p) => p.version).join(','))
      .digest('hex')
      .slice(0, 16),
    ranges,
    skipped: parts.reduce((n, p) => n + p.skipped, 0),
  };
}
