import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { IsIn, IsNotEmpty, IsOptional, MaxLength } from 'class-validator';
import { CONNECTION_TYPES, RISK_LEVELS, THREAT_TYPES } from './ip-risk.js';
import { FEED_CATEGORIES, FEED_FORMATS } from './ip-feeds.js';

const enumOf = <T extends string>(values: readonly T[]) => Object.fromEntries(values.map((v) => [v, v])) as { [K in T]: K };

export const IntelligenceRiskLevelEnum = enumOf(RISK_LEVELS);
export const IpThreatTypeEnum = enumOf(THREAT_TYPES);
export const IpConnectionTypeEnum = enumOf(CONNECTION_TYPES);
export const IpFeedCategoryEnum = enumOf(FEED_CATEGORIES);
export const IpFeedFormatEnum = enumOf(FEED_FORMATS);
registerEnumType(IntelligenceRiskLevelEnum, {
  name: 'IntelligenceRiskLevel',
  description: 'From riskScore: LOW < 0.3 ≤ MEDIUM < 0.6 ≤ HIGH',
});
registerEnumType(IpThreatTypeEnum, { name: 'IpThreatType' });
registerEnumType(IpConnectionTypeEnum, { name: 'IpConnectionType' });
registerEnumType(IpFeedCategoryEnum, {
  name: 'IpFeedCategory',
  description: 'Threat feeds (DATACENTER, TOR, VPN, PROXY, BOTNET) and connection-type feeds',
});
registerEnumType(IpFeedFormatEnum, {
  name: 'IpFeedFormat',
  description: 'aws, gcp, azure, oracle (providers’ JSON), geofeed (RFC 8805 CSV), list (one IP/CIDR a line)',
});

@ObjectType('IpGeolocation')
export class IpGeolocationType {
  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-2' }) country?: string | null;
  @Field(() => String, { nullable: true }) countryName?: string | null;
  @Field(() => String, { nullable: true }) region?: string | null;
  @Field(() => String, { nullable: true }) city?: string | null;
  @Field(() => Float, { nullable: true }) latitude?: number | null;
  @Field(() => Float, { nullable: true }) longitude?: number | null;
  @Field(() => String, { nullable: true, description: 'IANA time zone of the location' }) timezone?: string | null;
}

@ObjectType('IpNetwork')
export class IpNetworkType {
  @Field(() => String, { nullable: true, description: 'Known for datacenter ranges (from the provider feeds); null otherwise' }) isp?:
    string | null;
  @Field(() => String, { nullable: true }) organization?: string | null;
  @Field(() => String, { nullable: true, description: 'No offline ASN data: null' }) asn?: string | null;
  @Field(() => IpConnectionTypeEnum, {
    nullable: true,
    description: 'DATACENTER from the cloud feeds, MOBILE/SATELLITE/… from imported connection-type feeds; null when unknown',
  })
  connectionType?: string | null;
}

@ObjectType('IpThreats')
export class IpThreatsType {
  @Field() isVpn!: boolean;
  @Field() isProxy!: boolean;
  @Field() isTor!: boolean;
  @Field() isDatacenter!: boolean;
  @Field() isKnownAbuser!: boolean;
  @Field(() => [IpThreatTypeEnum]) threatTypes!: string[];
}

@ObjectType('IpMatchedRange')
export class IpMatchedRangeType {
  @Field() feed!: string;
  @Field(() => IpFeedCategoryEnum) category!: string;
  @Field({ description: 'CIDR' }) network!: string;
  @Field(() => String, { nullable: true }) provider?: string | null;
  @Field(() => String, { nullable: true }) service?: string | null;
  @Field(() => String, { nullable: true }) region?: string | null;
}

@ObjectType('IpAnalysis')
export class IpAnalysisType {
  @Field(() => ID) id!: string;
  @Field() ip!: string;
  @Field(() => String, { nullable: true }) userId?: string | null;
  @Field(() => Int, { description: '4 or 6' }) version!: number;
  @Field(() => Float, { description: '0–1' }) riskScore!: number;
  @Field(() => IntelligenceRiskLevelEnum) riskLevel!: string;
  @Field(() => IpGeolocationType) geolocation!: IpGeolocationType;
  @Field(() => IpNetworkType) network!: IpNetworkType;
  @Field(() => IpThreatsType) threats!: IpThreatsType;
  @Field(() => [IpMatchedRangeType]) matchedRanges!: IpMatchedRangeType[];
  @Field() checkedAt!: Date;
}

@ObjectType('IpAnalysisPage')
export class IpAnalysisPage {
  @Field(() => [IpAnalysisType]) data!: IpAnalysisType[];
  @Field(() => Int) total!: number;
  @Field(() => Int) page!: number;
  @Field(() => Int) limit!: number;
}

@InputType()
export class AnalyzeIpInput {
  @Field({ description: 'IPv4 or IPv6 address (Form B: ipAddress)' })
  @MaxLength(64, { message: 'ip must be an IPv4 or IPv6 address' })
  ip!: string;

  @Field(() => String, { nullable: true, description: 'Required in Form B' })
  @IsOptional()
  @IsNotEmpty({ message: 'userId must not be empty' })
  @MaxLength(255)
  userId?: string | null;
}

@ObjectType('IpFeed')
export class IpFeedType {
  @Field() feed!: string;
  @Field(() => IpFeedCategoryEnum) category!: string;
  @Field(() => String, { nullable: true }) provider?: string | null;
  @Field(() => IpFeedFormatEnum) format!: string;
  @Field({ description: 'sha256 prefix of the imported content' }) version!: string;
  @Field(() => Int) entries!: number;
  @Field(() => String, { nullable: true }) sourceName?: string | null;
  @Field() importedAt!: Date;
}

@ObjectType('ImportedIpFeed')
export class ImportedIpFeedType extends IpFeedType {
  @Field(() => Int) previousEntries!: number;
  @Field({ description: 'false when this exact content was already the current version' }) changed!: boolean;
  @Field(() => Int, { description: 'Lines that were not an IP or CIDR' }) skipped!: number;
}

@InputType()
export class ImportIpFeedInput {
  @Field({
    description:
      'Feed name; known: aws, gcp, azure, oracle, digitalocean, linode, cloudflare, tor, vpn, proxy, botnet. Replaces that feed.',
  })
  @IsNotEmpty({ message: 'feed must not be empty' })
  @MaxLength(64)
  feed!: string;

  @Field({
    description:
      'The feed file as published (JSON, RFC 8805 CSV or one IP/CIDR a line); bodies are limited to 2 MB: larger feeds go through `npm run ip:import`',
  })
  @IsNotEmpty({ message: 'content must not be empty' })
  content!: string;

  @Field(() => IpFeedCategoryEnum, { nullable: true, description: 'Required for feeds that are not known by name' })
  @IsOptional()
  @IsIn(FEED_CATEGORIES)
  category?: (typeof FEED_CATEGORIES)[number] | null;

  @Field(() => IpFeedFormatEnum, { nullable: true, description: 'Detected from the content when absent' })
  @IsOptional()
  @IsIn(FEED_FORMATS)
  format?: (typeof FEED_FORMATS)[number] | null;

  @Field(() => String, { nullable: true, description: 'Organization owning the ranges (shown as network.organization)' })
  @IsOptional()
  @MaxLength(200)
  provider?: string | null;
}
