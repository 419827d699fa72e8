import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Loopback, private, link-local, CGNAT, multicast and other non-public ranges, one list per family:
 * a BlockList checks an IPv4 address against IPv6 rules as `::ffff:a.b.c.d`, so one shared list
 * holding `::ffff:0:0/96` would refuse every public IPv4 address.
 */
const PRIVATE_V4 = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  PRIVATE_V4.addSubnet(net, bits, 'ipv4');

const PRIVATE_V6 = new BlockList();
for (const [net, bits] of [
  ['::', 96], // unspecified, loopback and IPv4-compatible
  ['64:ff9b::', 96], // NAT64: an IPv4 address inside
  ['2002::', 16], // 6to4: an IPv4 address inside
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10], // site-local (deprecated, still routed by some)
  ['ff00::', 8],
] as const)
  PRIVATE_V6.addSubnet(net, bits, 'ipv6');

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 4) return PRIVATE_V4.check(address, 'ipv4');
  // IPv4-mapped (::ffff:a.b.c.d): judged as the IPv4 address it is
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return isPrivateAddress(mapped);
  if (/^::ffff:/i.test(address)) return true;
  return PRIVATE_V6.check(address, 'ipv6');
}

export interface ResolvedTarget {
  url: URL;
  address: string;
  family: number;
}

/**
 * Resolves a callback URL and refuses private targets (SSRF) unless allowed. Deliveries connect to
 * the address checked here, so a DNS answer that changes afterwards cannot redirect them.
 */
export async function resolveTarget(callbackUrl: string, allowPrivate: boolean, what = 'callbackUrl'): Promise<ResolvedTarget> {
  const url = new URL(callbackUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const { address, family } = isIP(host) ? { address: host, family: isIP(host) } : await lookup(host);
  if (!allowPrivate && isPrivateAddress(address)) {
    // the address is not named: the answer must not become a way to map internal names
    throw new Error(`${what} resolves to a private or loopback address`);
  }
  return { url, address, family };
}

/**
 * A DNS lookup for `https.request` / an Agent that answers the checked address only. Node's connect
 * asks for every address (`{ all: true }`) since family auto-selection: answer in the form asked
 * for, or the socket gets `undefined` as its address.
 */
export function pinnedLookup(target: ResolvedTarget): LookupFunction {
  return ((_host, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as LookupFunction;
}
