import { randomUUID } from 'node:crypto';
import type { Opt } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Geolocation } from './geolocation.js';
import type { RangeMatch } from './ip-feeds.store.js';
import type { IpNetwork, RiskLevel, ThreatType, Threats } from './ip-risk.js';

/** What an IP analysis finds (IpIntelligence.analyze); stored whole in IpCheck.result. */
export interface IpAnalysisResult {
  ip: string;
  version: 4 | 6;
  geolocation: Geolocation;
  network: IpNetwork;
  threats: Threats;
  riskScore: number;
  riskLevel: RiskLevel;
  /** The imported feed ranges that contain the address (explains threats and network). */
  matchedRanges: Array<Pick<RangeMatch, 'feed' | 'category' | 'network' | 'provider' | 'service' | 'region'>>;
}

/** One IP analysis (POST /intelligence/ip): kept for history and for the known-abuser check. */
@Entity({ schema: 'verification', tableName: 'ip_checks' })
export class IpCheck {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  environment!: string;

  @Property({ type: 'text', nullable: true })
  userId?: string | null;

  /** inet column; written and read as text */
  @Property({ type: 'text', columnType: 'inet' })
  ip!: string;

  @Property({ type: 'double' })
  riskScore!: number;

  @Property({ type: 'text' })
  riskLevel!: RiskLevel;

  @Property({ type: 'json' })
  threatTypes!: ThreatType[];

  @Property({ type: 'json' })
  result!: IpAnalysisResult;

  @Property({ type: 'datetime' })
  checkedAt: Date & Opt = new Date();

  /** Its creation time, for connections (not a column of its own). */
  get createdAt(): Date & Opt {
    return this.checkedAt;
  }
}
