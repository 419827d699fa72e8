import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { IsIn, IsNotEmpty, IsOptional, MaxLength } from 'class-validator';
import { ConnectionType } from '../../../../platform/graphql/connection.js';
import { CountryCode, IP } from '../../../../platform/graphql/scalars.js';
import { UserError } from '../../../../platform/graphql/user-errors.js';
import { CONNECTION_TYPES, RISK_LEVELS, THREAT_TYPES } from './ip-risk.js';
import { FEED_CATEGORIES, FEED_FORMATS, type FeedCategory, type FeedFormat } from './ip-feeds.js';

const enumOf = <T extends string>(values: readonly T[]) => Object.fromEntries(values.map((v) => [v, v])) as { [K in T]: K };

export const IntelligenceRiskLevelEnum = enumOf(RISK_LEVELS);
export const IpThreatTypeEnum = enumOf(THREAT_TYPES);
export const IpConnectionTypeEnum = enumOf(CONNECTION_TYPES);
export const IpFeedCategoryEnum = enumOf(FEED_CATEGORIES);
/** GraphQL names → the feed formats' own names (`AWS` is `aws`). */
export const IpFeedFormatEnum = Object.fromEntries(FEED_FORMATS.map((f) => [f.toUpperCase(), f])) as Record<string, FeedFormat>;
registerEnumType(IntelligenceRiskLevelEnum, {
  name: 'IntelligenceRiskLevel',
  description: 'The band of an IP or device risk score',
  valuesConfig: {
    LOW: { description: 'Score below 0.3' },
    MEDIUM: { description: 'Score from 0.3 to below 0.6' },
    HIGH: { description: 'Score 0.6 or more' },
  },
});
registerEnumType(IpThreatTypeEnum, {
  name: 'IpThreatType',
  description: 'A reason to distrust an IP address (each adds its documented weight to the score)',
  valuesConfig: {
    VPN: { description: 'A VPN exit (imported VPN feed)' },
    PROXY: { description: 'An open or commercial proxy (imported proxy feed)' },
    TOR: { description: 'A Tor exit node' },
    DATACENTER: { description: 'A cloud or hosting provider’s range, not a person’s connection' },
    KNOWN_ABUSER: { description: 'Seen on your records of a user with a rejected verification or a flagged AML screening' },
    BOTNET: { description: 'A botnet or command-and-control address (imported botnet feed)' },
  },
});
registerEnumType(IpConnectionTypeEnum, {
  name: 'IpConnectionType',
  description: 'The kind of network an IP address belongs to',
  valuesConfig: {
    MOBILE: { description: 'A mobile operator' },
    RESIDENTIAL: { description: 'A home connection' },
    BUSINESS: { description: 'A company network' },
    DATACENTER: { description: 'A cloud or hosting provider' },
    SATELLITE: { description: 'A satellite provider' },
  },
});
registerEnumType(IpFeedCategoryEnum, {
  name: 'IpFeedCategory',
  description: 'What the ranges of an IP feed are: a threat, or a kind of connection',
  valuesConfig: {
    DATACENTER: { description: 'Cloud and hosting ranges (threat DATACENTER, connection DATACENTER)' },
    TOR: { description: 'Tor exit nodes (threat TOR)' },
    VPN: { description: 'VPN exits (threat VPN)' },
    PROXY: { description: 'Proxies (threat PROXY)' },
    BOTNET: { description: 'Botnet and command-and-control addresses (threat BOTNET)' },
    MOBILE: { description: 'Mobile operators (connection MOBILE)' },
    SATELLITE: { description: 'Satellite providers (connection SATELLITE)' },
    BUSINESS: { description: 'Company networks (connection BUSINESS)' },
    RESIDENTIAL: { description: 'Home connections (connection RESIDENTIAL)' },
  },
});
registerEnumType(IpFeedFormatEnum, {
  name: 'IpFeedFormat',
  description: 'The file format of an IP feed',
  valuesConfig: {
    AWS: { description: 'Amazon Web Services’ ip-ranges.json' },
    GCP: { description: 'Google Cloud’s cloud.json' },
    AZURE: { description: 'Microsoft Azure’s service tags JSON' },
    ORACLE: { description: 'Oracle Cloud’s public_ip_ranges.json' },
    GEOFEED: { description: 'An RFC 8805 geofeed (CSV: prefix, country, region, city)' },
    LIST: { description: 'One IP address or CIDR range a line (# starts a comment)' },
  },
});

/**
 * A stored country that is no ISO 3166-1 alpha-2 code (a geofeed may say anything) is shown as
 * unknown: the CountryCode scalar would refuse the whole record.
 */
export function isoCountry(code: string | null | undefined): string | null {
  if (!code) return null;
  try {
    return CountryCode.serialize(code) as string;
  } catch {
    return null;
  }
}

@ObjectType('IpGeolocation', { description: 'Where an IP address is' })
export class IpGeolocationType {
  @Field(() => CountryCode, { nullable: true, description: 'Country (ISO 3166-1 alpha-2)' })
  country?: string | null;

  @Field(() => String, { nullable: true, description: 'Country name in English' })
  countryName?: string | null;

  @Field(() => String, { nullable: true, description: 'Region or state code' })
  region?: string | null;

  @Field(() => String, { nullable: true, description: 'City' })
  city?: string | null;

  @Field(() => Float, { nullable: true, description: 'Approximate latitude' })
  latitude?: number | null;

  @Field(() => Float, { nullable: true, description: 'Approximate longitude' })
  longitude?: number | null;

  @Field(() => String, { nullable: true, description: 'IANA time zone of the location' })
  timezone?: string | null;
}

@ObjectType('IpNetwork', { description: 'The network an IP address belongs to' })
export class IpNetworkType {
  @Field(() => String, { nullable: true, description: 'Provider, known for datacenter ranges (from the providers’ feeds); null otherwise' })
  isp?: string | null;

  @Field(() => String, { nullable: true, description: 'Organization owning the range, when a feed names it' })
  organization?: string | null;

  @Field(() => String, { nullable: true, description: 'Autonomous system; null (no ASN data is bundled)' })
  asn?: string | null;

  @Field(() => IpConnectionTypeEnum, {
    nullable: true,
    description: 'DATACENTER from the cloud feeds, MOBILE, SATELLITE… from imported connection-type feeds; null when unknown',
  })
  connectionType?: string | null;
}

@ObjectType('IpThreats', { description: 'What makes an IP address risky' })
export class IpThreatsType {
  @Field({ description: 'A VPN exit' })
  isVpn!: boolean;

  @Field({ description: 'A proxy' })
  isProxy!: boolean;

  @Field({ description: 'A Tor exit node' })
  isTor!: boolean;

  @Field({ description: 'A cloud or hosting provider’s range' })
  isDatacenter!: boolean;

  @Field({ description: 'Seen on your records of a flagged user' })
  isKnownAbuser!: boolean;

  @Field(() => [IpThreatTypeEnum], { description: 'Every threat found' })
  threatTypes!: string[];
}

@ObjectType('IpMatchedRange', { description: 'An imported feed range that contains the address' })
export class IpMatchedRangeType {
  @Field({ description: 'The feed' })
  feed!: string;

  @Field(() => IpFeedCategoryEnum, { description: 'What the feed’s ranges are' })
  category!: string;

  @Field({ description: 'The range (CIDR)' })
  network!: string;

  @Field(() => String, { nullable: true, description: 'The provider publishing it' })
  provider?: string | null;

  @Field(() => String, { nullable: true, description: 'The provider’s service using the range (e.g. EC2)' })
  service?: string | null;

  @Field(() => String, { nullable: true, description: 'The provider’s region of the range' })
  region?: string | null;
}

@ObjectType('IpAnalysis', { description: 'One analysis of an IP address: location, network, threats and a risk score, as they were then' })
export class IpAnalysisType {
  @Field(() => ID, { description: 'Identifier of the analysis' })
  id!: string;

  @Field(() => IP, { description: 'The address analysed (normalised: IPv4-mapped IPv6 as IPv4, IPv6 in lower case)' })
  ip!: string;

  @Field(() => String, { nullable: true, description: 'Your identifier of the user it was analysed for' })
  userId?: string | null;

  @Field(() => Int, { description: 'IP version: 4 or 6' })
  version!: number;

  @Field(() => Float, { description: '0 to 1: the sum of the threats’ weights, at most 1' })
  riskScore!: number;

  @Field(() => IntelligenceRiskLevelEnum, { description: 'The score’s band' })
  riskLevel!: string;

  @Field(() => IpGeolocationType, { description: 'Where the address is' })
  geolocation!: IpGeolocationType;

  @Field(() => IpNetworkType, { description: 'The network it belongs to' })
  network!: IpNetworkType;

  @Field(() => IpThreatsType, { description: 'What makes it risky' })
  threats!: IpThreatsType;

  @Field(() => [IpMatchedRangeType], { description: 'The imported feed ranges containing it (what explains threats and network)' })
  matchedRanges!: IpMatchedRangeType[];

  @Field({ description: 'When it was analysed' })
  checkedAt!: Date;
}

export const IpAnalysisConnection = ConnectionType('IpAnalysis', IpAnalysisType, 'IP analysis', 'IP analyses');

@InputType({ description: 'An IP address to analyse' })
export class AnalyzeIpInput {
  @Field({ description: 'IPv4 or IPv6 address' })
  @MaxLength(64, { message: 'ip must be an IPv4 or IPv6 address' })
  ip!: string;

  @Field(() => String, { nullable: true, description: 'Your identifier of the user it is analysed for (kept with the analysis)' })
  @IsOptional()
  @IsNotEmpty({ message: 'userId must not be empty' })
  @MaxLength(255)
  userId?: string | null;
}

@InputType({ description: 'Which IP analyses to list (all of the organization’s when empty)' })
export class IpAnalysisFilter {
  @Field(() => String, { nullable: true, description: 'Only those analysed for this user' })
  userId?: string | null;
}

@ObjectType('AnalyzeIpPayload', { description: 'The result of analyzeIp' })
export class AnalyzeIpPayload {
  @Field(() => IpAnalysisType, { nullable: true, description: 'The analysis' })
  ipAnalysis?: IpAnalysisType | null;

  @Field(() => [UserError], { description: 'Mistakes in the input; empty on success' })
  userErrors!: UserError[];
}

@ObjectType('IpFeed', { description: 'An imported IP feed: reference ranges every organization’s analyses use' })
export class IpFeedType {
  @Field({ description: 'Its name (aws, tor, or your own)' })
  feed!: string;

  @Field(() => IpFeedCategoryEnum, { description: 'What its ranges are' })
  category!: string;

  @Field(() => String, { nullable: true, description: 'Who publishes the ranges' })
  provider?: string | null;

  @Field(() => IpFeedFormatEnum, { description: 'The format it was imported from' })
  format!: string;

  @Field({ description: 'Its version: a sha256 prefix of the imported content' })
  version!: string;

  @Field(() => Int, { description: 'How many ranges it holds' })
  entries!: number;

  @Field(() => String, { nullable: true, description: 'The file(s) it was imported from' })
  sourceName?: string | null;

  @Field({ description: 'When it was last imported' })
  importedAt!: Date;
}

export const IpFeedConnection = ConnectionType('IpFeed', IpFeedType, 'IP feed');

@InputType({ description: 'One IP feed file to import: it replaces the feed of that name' })
export class ImportIpFeedInput {
  @Field({
    description: 'The feed’s name; known: aws, gcp, azure, oracle, digitalocean, linode, cloudflare, tor, vpn, proxy, botnet',
  })
  @IsNotEmpty({ message: 'feed must not be empty' })
  @MaxLength(64)
  feed!: string;

  @Field({
    description:
      'The feed file as published (JSON, RFC 8805 CSV or one IP/CIDR a line); up to 2 MB here, larger feeds through `npm run ip:import`',
  })
  @IsNotEmpty({ message: 'content must not be empty' })
  content!: string;

  @Field(() => IpFeedCategoryEnum, { nullable: true, description: 'What its ranges are; required for a feed not known by name' })
  @IsOptional()
  @IsIn(FEED_CATEGORIES)
  category?: FeedCategory | null;

  @Field(() => IpFeedFormatEnum, { nullable: true, description: 'Its format; detected from the content when absent' })
  @IsOptional()
  @IsIn(FEED_FORMATS)
  format?: FeedFormat | null;

  @Field(() => String, { nullable: true, description: 'Organization owning the ranges (shown as network.organization)' })
  @IsOptional()
  @MaxLength(200)
  provider?: string | null;
}

@ObjectType('ImportIpFeedPayload', { description: 'The result of importIpFeed' })
export class ImportIpFeedPayload {
  @Field(() => IpFeedType, { nullable: true, description: 'The feed as imported' })
  ipFeed?: IpFeedType | null;

  @Field(() => Int, { nullable: true, description: 'How many ranges its previous version held (0 for a new feed)' })
  previousEntries?: number | null;

  @Field(() => Boolean, { nullable: true, description: 'false when this exact content was already the current version' })
  changed?: boolean | null;

  @Field(() => Int, { nullable: true, description: 'Lines or items that were not an IP address or CIDR range (left out)' })
  skipped?: number | null;

  @Field(() => [UserError], { description: 'Mistakes in the input or a file that is no feed; empty on success' })
  userErrors!: UserError[];
}
