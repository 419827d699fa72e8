import { Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import { IsNotEmpty, IsOptional, MaxLength, ValidateNested } from 'class-validator';
import { IntelligenceRiskLevelEnum } from '../ip/ip.type.js';

@ObjectType('DeviceSignals')
export class DeviceSignalsType {
  @Field({ description: 'Emulator, virtual machine or automated browser (user-agent, WebGL renderer and platform tells)' })
  emulator!: boolean;
  @Field({ description: 'Custom-ROM or root-tool markers; a browser cannot show more (see README)' }) rooted!: boolean;
  @Field({ description: 'The IP is a VPN, proxy or Tor exit (IP analysis)' }) vpn!: boolean;
  @Field({ description: 'Device seen for a user with a REJECTED identity verification or a flagged AML screening' })
  knownFraudDevice!: boolean;
  @Field({ description: 'Time zone or language inconsistent with the IP location' }) geoMismatch!: boolean;
  @Field(() => Int, { description: 'Distinct userIds seen on this device (this one included)' }) multipleAccounts!: number;
  @Field({ description: 'Whole days since first seen, e.g. "44 days"' }) deviceAge!: string;
}

@ObjectType('DeviceLocation')
export class DeviceLocationType {
  @Field(() => String, { nullable: true }) country?: string | null;
  @Field(() => String, { nullable: true }) countryName?: string | null;
  @Field(() => String, { nullable: true }) city?: string | null;
  @Field(() => String, { nullable: true }) isp?: string | null;
}

@ObjectType('DeviceRiskReason')
export class DeviceRiskReasonType {
  @Field() signal!: string;
  @Field(() => Float) weight!: number;
  @Field() detail!: string;
}

@ObjectType('DeviceDescription')
export class DeviceDescriptionType {
  @Field(() => String, { nullable: true }) browser?: string | null;
  @Field(() => String, { nullable: true }) os?: string | null;
  @Field(() => String, { nullable: true, description: 'mobile, tablet, desktop, …' }) deviceType?: string | null;
  @Field(() => String, { nullable: true }) vendor?: string | null;
  @Field(() => String, { nullable: true }) model?: string | null;
}

@ObjectType('DeviceAssessment')
export class DeviceAssessmentType {
  @Field(() => ID) id!: string;
  @Field() userId!: string;
  @Field() sessionId!: string;
  @Field({ description: 'dfp_… stable id of the device within your organization' }) deviceId!: string;
  @Field() firstSeen!: Date;
  @Field(() => Float, { description: '0–1, sum of the reasons’ weights (capped at 1)' }) riskScore!: number;
  @Field(() => IntelligenceRiskLevelEnum) riskLevel!: string;
  @Field(() => DeviceSignalsType) signals!: DeviceSignalsType;
  @Field(() => DeviceLocationType, { nullable: true, description: 'From the IP; null when no IP was given or detected' })
  location?: DeviceLocationType | null;
  @Field(() => String, { nullable: true }) ip?: string | null;
  @Field({ description: 'true when the IP was taken from the request' }) ipDetected!: boolean;
  @Field(() => DeviceDescriptionType) device!: DeviceDescriptionType;
  @Field(() => [DeviceRiskReasonType]) reasons!: DeviceRiskReasonType[];
  @Field() createdAt!: Date;
}

@ObjectType('DeviceAssessmentPage')
export class DeviceAssessmentPage {
  @Field(() => [DeviceAssessmentType]) data!: DeviceAssessmentType[];
  @Field(() => Int) total!: number;
  @Field(() => Int) page!: number;
  @Field(() => Int) limit!: number;
}

@InputType()
export class DeviceFingerprintInput {
  @Field(() => String, { nullable: true }) userAgent?: string | null;
  @Field(() => String, { nullable: true }) platform?: string | null;
  @Field(() => String, { nullable: true, description: 'e.g. 1920x1080' }) screenResolution?: string | null;
  @Field(() => String, { nullable: true, description: 'IANA time zone' }) timezone?: string | null;
  @Field(() => String, { nullable: true, description: 'BCP 47 tag or Accept-Language list' }) language?: string | null;
  @Field(() => String, { nullable: true, description: 'WebGL renderer string or hash' }) webgl?: string | null;
  @Field(() => String, { nullable: true, description: 'Canvas hash' }) canvas?: string | null;
  @Field(() => String, { nullable: true, description: 'Detected from the request when omitted' }) ip?: string | null;
}

@InputType()
export class AssessDeviceInput {
  @Field()
  @IsNotEmpty({ message: 'userId must not be empty' })
  @MaxLength(255)
  userId!: string;

  @Field()
  @IsNotEmpty({ message: 'sessionId must not be empty' })
  @MaxLength(255)
  sessionId!: string;

  @Field(() => DeviceFingerprintInput)
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
