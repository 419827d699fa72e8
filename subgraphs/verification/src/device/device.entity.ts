import { randomUUID } from 'node:crypto';
import type { Opt } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { RiskLevel } from '../ip/ip-risk.js';
import type { DeviceSignals, Fingerprint, ParsedDevice, RiskReason } from './fingerprint.js';

export interface DeviceLocation {
  country: string | null;
  countryName: string | null;
  city: string | null;
  isp: string | null;
}

/** One POST /intelligence/device/fingerprint: the signals and score as they were at that time. */
@Entity({ schema: 'verification', tableName: 'device_assessments' })
export class DeviceAssessment {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  environment!: string;

  @Property({ type: 'text' })
  userId!: string;

  @Property({ type: 'text' })
  sessionId!: string;

  @Property({ type: 'text' })
  deviceId!: string;

  @Property({ type: 'json' })
  fingerprint!: Fingerprint & { parsed?: ParsedDevice };

  /** inet column; written and read as text */
  @Property({ type: 'text', columnType: 'inet', nullable: true })
  ip?: string | null;

  /** true when `ip` was taken from the request rather than given */
  @Property({ type: 'boolean' })
  ipDetected: boolean & Opt = false;

  @Property({ type: 'datetime' })
  firstSeen!: Date;

  @Property({ type: 'json' })
  signals!: DeviceSignals;

  @Property({ type: 'json', nullable: true })
  location?: DeviceLocation | null;

  @Property({ type: 'double' })
  riskScore!: number;

  @Property({ type: 'text' })
  riskLevel!: RiskLevel;

  @Property({ type: 'json' })
  reasons!: RiskReason[];

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();
}
