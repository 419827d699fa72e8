import { isIP } from 'node:net';
import type { FeedCategory } from './ip-feeds.js';
import type { RangeMatch } from './ip-feeds.store.js';

/** IP analysis scoring as data (documented in docs/api/device-ip.md): a threat adds its weight; the sum is capped at 1. */
export const THREAT_TYPES = ['VPN', 'PROXY', 'TOR', 'DATACENTER', 'KNOWN_ABUSER', 'BOTNET'] as const;
export type ThreatType = (typeof THREAT_TYPES)[number];

export const CONNECTION_TYPES = ['MOBILE', 'RESIDENTIAL', 'BUSINESS', 'DATACENTER', 'SATELLITE'] as const;
export type ConnectionType = (typeof CONNECTION_TYPES)[number];

export const RISK_LEVELS = ['LOW', 'MEDIUM', 'HIGH'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

export const IP_THREAT_WEIGHTS: Record<ThreatType, number> = {
  TOR: 0.6,
  BOTNET: 0.6,
  KNOWN_ABUSER: 0.5,
  PROXY: 0.4,
  VPN: 0.35,
  DATACENTER: 0.3,
};

/** Score bands shared by IP and device assessments: LOW < 0.3 ≤ MEDIUM < 0.6 ≤ HIGH. */
export const RISK_BANDS = { MEDIUM: 0.3, HIGH: 0.6 } as const;

export function riskLevelOf(score: number): RiskLevel {
  if (score >= RISK_BANDS.HIGH) return 'HIGH';
  if (score >= RISK_BANDS.MEDIUM) return 'MEDIUM';
  return 'LOW';
}

/** Sum of weights, capped at 1, two decimals. */
export function capScore(parts: number[]): number {
  return (
    Math.round(
      Math.min(
        1,
        parts.reduce((a, b) => a + b, 0),
      ) * 100,
    ) / 100
  );
}

const THREAT_CATEGORIES: Partial<Record<FeedCategory, ThreatType>> = {
  DATACENTER: 'DATACENTER',
  TOR: 'TOR',
  VPN: 'VPN',
  PROXY: 'PROXY',
  BOTNET: 'BOTNET',
};
const CONNECTION_CATEGORIES: Partial<Record<FeedCategory, ConnectionType>> = {
  DATACENTER: 'DATACENTER',
  MOBILE: 'MOBILE',
  SATELLITE: 'SATELLITE',
  BUSINESS: 'BUSINESS',
  RESIDENTIAL: 'RESIDENTIAL',
};

export interface Threats {
  isVpn: boolean;
  isProxy: boolean;
  isTor: boolean;
  isDatacenter: boolean;
  isKnownAbuser: boolean;
  threatTypes: ThreatType[];
}

export interface IpNetwork {
  isp: string | null;
  organization: string | null;
  /** No offline ASN database ships with geoip-lite: always null unless a feed supplies it. */
  asn: string | null;
  connectionType: ConnectionType | null;
}

export interface IpAssessment {
  threats: Threats;
  network: IpNetwork;
  riskScore: number;
  riskLevel: RiskLevel;
}

/** Threats, network and score from the ranges containing the address and the known-abuser check. */
export function assessIp(matches: RangeMatch[], knownAbuser: boolean): IpAssessment {
  const types = new Set<ThreatType>();
  for (const m of matches) {
    const t = THREAT_CATEGORIES[m.category];
    if (t) types.add(t);
  }
  if (knownAbuser) types.add('KNOWN_ABUSER');
  const threatTypes = THREAT_TYPES.filter((t) => types.has(t));
  // most specific range first (the store sorts by prefix length)
  const connection = matches.map((m) => CONNECTION_CATEGORIES[m.category]).find(Boolean) ?? null;
  // the network owner comes from owner-published feeds (cloud ranges, carrier/satellite feeds), never from
  // threat lists, whose provider is the list's publisher (a Tor exit is not run by the Tor Project)
  const owner =
    matches.find((m) => m.category === 'DATACENTER' && m.provider) ?? matches.find((m) => CONNECTION_CATEGORIES[m.category] && m.provider);
  const riskScore = capScore(threatTypes.map((t) => IP_THREAT_WEIGHTS[t]));
  return {
    threats: {
      isVpn: types.has('VPN'),
      isProxy: types.has('PROXY'),
      isTor: types.has('TOR'),
      isDatacenter: types.has('DATACENTER'),
      isKnownAbuser: knownAbuser,
      threatTypes,
    },
    network: {
      isp: owner?.provider ?? null,
      organization: owner?.provider ?? null,
      asn: null,
      connectionType: connection,
    },
    riskScore,
    riskLevel: riskLevelOf(riskScore),
  };
}

/** `::ffff:1.2.3.4` → `1.2.3.4`; lower-case IPv6; null when not an IPv4/IPv6 address. */
export function normaliseIp(text: string): string | null {
  const value = text.trim();
  const family = isIP(value);
  // zone ids (fe80::1%eth0) name an interface of the sender: meaningless here
  if (!family || value.includes('%')) return null;
  if (family === 6) {
    const lower = value.toLowerCase();
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
    return mapped ? mapped[1] : lower;
  }
  return value;
}
