import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Loopback, private, link-local, CGNAT, multicast and other non-public ranges. */
const PRIVATE = new BlockList();
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
  PRIVATE.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['::ffff:0:0', 96],
] as const) {
  PRIVATE.addSubnet(net, bits, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 6 && address.toLowerCase().startsWith('::ffff:')) return isPrivateAddress(address.slice(7));
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
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
export async function resolveTarget(callbackUrl: string, allowPrivate: boolean): Promise<ResolvedTarget> {
  const url = new URL(callbackUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const { address, family } = isIP(host) ? { address: host, family: isIP(host) } : await lookup(host);
  if (!allowPrivate && isPrivateAddress(address)) {
    throw new Error(`callbackUrl resolves to a private or loopback address (${address})`);
  }
  return { url, address, family };
}
