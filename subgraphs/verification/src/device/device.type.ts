import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { IsNotEmpty, IsOptional, MaxLength, ValidateNested } from 'class-validator';
import { ConnectionType } from '../../../../platform/graphql/connection.js';
import { CountryCode, IP } from '../../../../platform/graphql/scalars.js';
import { UserError } from '../../../../platform/graphql/user-errors.js';
import { IntelligenceRiskLevelEnum } from '../ip/ip.type.js';
import type { DEVICE_WEIGHTS } from './fingerprint.js';

/** What user agents tell of the kind of device (ua-parser's types; an untyped browser is a desktop). */
export const DEVICE_TYPES = ['mobile', 'tablet', 'desktop', 'console', 'smarttv', 'wearable', 'xr', 'embedded'] as const;
export const DeviceTypeEnum = Object.fromEntries(DEVICE_TYPES.map((t) => [t.toUpperCase(), t])) as Record<string, string>;
registerEnumType(DeviceTypeEnum, {
  name: 'DeviceType',
  description: 'The kind of device, from its user agent',
  valuesConfig: {
    MOBILE: { description: 'A phone' },
    TABLET: { description: 'A tablet' },
    DESKTOP: { description: 'A desktop or laptop computer (a browser that names no device type)' },
    CONSOLE: { description: 'A game console' },
    SMARTTV: { description: 'A smart TV' },
    WEARABLE: { description: 'A watch or other wearable' },
    XR: { description: 'A virtual or augmented reality headset' },
    EMBEDDED: { description: 'An embedded device (a car, an appliance…)' },
  },
});

/** The signals a device risk score adds up (DEVICE_WEIGHTS); stored by their camelCase names. */
const RISK_SIGNALS = [
  'knownFraudDevice',
  'emulator',
  'rooted',
  'vpn',
  'geoMismatch',
  'multipleAccounts',
  'datacenterIp',
  'knownAbuserIp',
] as const satisfies ReadonlyArray<keyof typeof DEVICE_WEIGHTS>;
const screaming = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase();
export const DeviceRiskSignalEnum = Object.fromEntries(RISK_SIGNALS.map((s) => [screaming(s), s])) as Record<string, string>;
registerEnumType(DeviceRiskSignalEnum, {
  name: 'DeviceRiskSignal',
  description: 'A signal that adds to a device’s risk score (its weight is documented)',
  valuesConfig: {
    KNOWN_FRAUD_DEVICE: { description: 'The device was seen for a user with a rejected verification or a flagged AML screening' },
    EMULATOR: { description: 'An emulator, virtual machine or automated browser' },
    ROOTED: { description: 'A rooted or custom-ROM device' },
    VPN: { description: 'The IP is a VPN, proxy or Tor exit' },
    GEO_MISMATCH: { description: 'Time zone or language inconsistent with the IP’s location' },
    MULTIPLE_ACCOUNTS: { description: 'Several users were seen on the device' },
    DATACENTER_IP: { description: 'The IP is in a datacenter range' },
    KNOWN_ABUSER_IP: { description: 'The IP was seen on a flagged user’s records' },
  },
});

@ObjectType('DeviceSignals', { description: 'What was detected about a device' })
export class DeviceSignalsType {
  @Field({ description: 'Emulator, virtual machine or automated browser (user-agent, WebGL renderer and platform tells)' })
  emulator!: boolean;

  @Field({ description: 'Custom-ROM or root-tool markers (as far as a browser can show them)' })
  rooted!: boolean;

  @Field({ description: 'The IP is a VPN, proxy or Tor exit' })
  vpn!: boolean;

  @Field({ description: 'The device was seen for a user with a rejected identity verification or a flagged AML screening' })
  knownFraudDevice!: boolean;

  @Field({ description: 'Time zone or language inconsistent with the IP’s location' })
  geoMismatch!: boolean;

  @Field(() => Int, { description: 'How many users were seen on this device (this one included)' })
  multipleAccounts!: number;

  @Field({ description: 'Whole days since the device was first seen, e.g. "44 days"' })
  deviceAge!: string;
}

@ObjectType('DeviceLocation', { description: 'Where the device’s IP is' })
export class DeviceLocationType {
  @Field(() => CountryCode, { nullable: true, description: 'Country (ISO 3166-1 alpha-2)' })
  country?: string | null;

  @Field(() => String, { nullable: true, description: 'Country name in English' })
  countryName?: string | null;

  @Field(() => String, { nullable: true, description: 'City' })
  city?: string | null;

  @Field(() => String, { nullable: true, description: 'Network operator, when known' })
  isp?: string | null;
}

@ObjectType('DeviceRiskReason', { description: 'One signal’s part of the risk score' })
export class DeviceRiskReasonType {
  @Field(() => DeviceRiskSignalEnum, { description: 'The signal' })
  signal!: string;

  @Field(() => Float, { description: 'What it adds to the score' })
  weight!: number;

  @Field({ description: 'What was seen, in words' })
  detail!: string;
}

@ObjectType('DeviceDescription', { description: 'The device as its user agent describes it' })
export class DeviceDescriptionType {
  @Field(() => String, { nullable: true, description: 'Browser name' })
  browser?: string | null;

  @Field(() => String, { nullable: true, description: 'Operating system name' })
  os?: string | null;

  @Field(() => DeviceTypeEnum, { nullable: true, description: 'The kind of device' })
  deviceType?: string | null;

  @Field(() => String, { nullable: true, description: 'Maker' })
  vendor?: string | null;

  @Field(() => String, { nullable: true, description: 'Model' })
  model?: string | null;
}

@ObjectType('DeviceAssessment', { description: 'One assessment of a user’s device from its browser fingerprint, as it was at that time' })
export class DeviceAssessmentType {
  @Field(() => ID, { description: 'Identifier of the assessment' })
  id!: string;

  @Field({ description: 'Your identifier of the user' })
  userId!: string;

  @Field({ description: 'Your identifier of the session' })
  sessionId!: string;

  @Field({ description: 'dfp_… stable identifier of the device within your organization' })
  deviceId!: string;

  @Field({ description: 'When the device was first seen' })
  firstSeen!: Date;

  @Field(() => Float, { description: '0 to 1: the sum of the reasons’ weights, at most 1' })
  riskScore!: number;

  @Field(() => IntelligenceRiskLevelEnum, { description: 'The score’s band' })
  riskLevel!: string;

  @Field(() => DeviceSignalsType, { description: 'What was detected' })
  signals!: DeviceSignalsType;

  @Field(() => DeviceLocationType, { nullable: true, description: 'Where the IP is; null when no IP was given or detected' })
  location?: DeviceLocationType | null;

  @Field(() => IP, { nullable: true, description: 'The device’s IP address, given or detected' })
  ip?: string | null;

  @Field({ description: 'true when the IP was taken from the request' })
  ipDetected!: boolean;

  @Field(() => DeviceDescriptionType, { description: 'The device its user agent describes' })
  device!: DeviceDescriptionType;

  @Field(() => [DeviceRiskReasonType], { description: 'Why the score is what it is, signal by signal' })
  reasons!: DeviceRiskReasonType[];

  @Field({ description: 'When it was assessed' })
  createdAt!: Date;
}

export const DeviceAssessmentConnection = ConnectionType('DeviceAssessment', DeviceAssessmentType, 'device assessment');

@InputType({ description: 'A browser fingerprint: at least one member' })
export class DeviceFingerprintInput {
  @Field(() => String, { nullable: true, description: 'navigator.userAgent' })
  userAgent?: string | null;

  @Field(() => String, { nullable: true, description: 'navigator.platform' })
  platform?: string | null;

  @Field(() => String, { nullable: true, description: 'Screen size, e.g. 1920x1080' })
  screenResolution?: string | null;

  @Field(() => String, { nullable: true, description: 'IANA time zone, e.g. Africa/Lagos' })
  timezone?: string | null;

  @Field(() => String, { nullable: true, description: 'BCP 47 tag or Accept-Language list' })
  language?: string | null;

  @Field(() => String, { nullable: true, description: 'WebGL renderer string or hash' })
  webgl?: string | null;

  @Field(() => String, { nullable: true, description: 'Canvas hash' })
  canvas?: string | null;

  @Field(() => String, { nullable: true, description: 'The device IP; detected from the request when omitted' })
  ip?: string | null;
}

@InputType({ description: 'A device to assess' })
export class AssessDeviceInput {
  @Field({ description: 'Your identifier of the user (any text up to 255 characters)' })
  @IsNotEmpty({ message: 'userId must not be empty' })
  @MaxLength(255)
  userId!: string;

  @Field({ description: 'Your identifier of the session' })
  @IsNotEmpty({ message: 'sessionId must not be empty' })
  @MaxLength(255)
  sessionId!: string;

  @Field(() => DeviceFingerprintInput, { description: 'The browser fingerprint' })
  @ValidateNested()
  fingerprint!: DeviceFingerprintInput;

  @Field(() => String, {
    nullable: true,
    description: 'The device IP (also accepted as fingerprint.ip); detected from the request when omitted',
  })
  @IsOptional()
  @MaxLength(64)
  ip?: string | null;
}

@InputType({ description: 'Which device assessments to list (all of the organization’s when empty)' })
export class DeviceAssessmentFilter {
  @Field(() => String, { nullable: true, description: 'Only this user’s' })
  userId?: string | null;
}

@ObjectType('AssessDevicePayload', { description: 'The result of assessDevice' })
export class AssessDevicePayload {
  @Field(() => DeviceAssessmentType, { nullable: true, description: 'The assessment' })
  deviceAssessment?: DeviceAssessmentType | null;

  @Field(() => [UserError], { description: 'Mistakes in the input; empty on success' })
  userErrors!: UserError[];
}
