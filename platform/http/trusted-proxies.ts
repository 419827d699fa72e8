import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';

export type Trust = (address: string, hop: number) => boolean;

/**
 * Which peers may say who the client is (X-Forwarded-For): `proxy-addr` names (`loopback`,
 * `uniquelocal`…), addresses or CIDRs. Anyone else is the client itself, whatever it claims.
 */
export function trustedProxies(list: string[]): Trust {
  return proxyaddr.compile(list);
}

/** The client's address: the socket's, or what the trusted proxies in front of it forwarded. */
export function clientIpOf(req: IncomingMessage, trust: Trust): string | undefined {
  return proxyaddr(req, trust).replace(/^::ffff:/, '') || undefined;
}
