import type { EntityManager } from '@mikro-orm/postgresql';
import { findOneBy } from '../../../../platform/db/find-one-by.js';
import { invalid, notFound } from '../../../../platform/errors.js';
import { paginate, type Connection, type ConnectionArgs } from '../../../../platform/graphql/connection.js';
import { exported, type ErasedUser, type PersonalDataHolder } from '../../../../platform/privacy/personal-data.js';
import { isUuid } from '../../../../platform/ids.js';
import type { Tenant } from '../../../../platform/auth/tenant.js';
import { countryName, geolocate } from './geolocation.js';
import type { IpFeedStore } from './ip-feeds.store.js';
import { assessIp, normaliseIp } from './ip-risk.js';
import { isKnownAbuserIp, type Queryable } from './fraud-links.js';
import { IpCheck, type IpAnalysisResult } from './ip.entity.js';

export const INVALID_IP = (value: string) => `"${value}" is not a valid IPv4 or IPv6 address`;

/** What the IP capability builds at start (devices read the same intelligence). */
export interface IpDeps {
  ipFeeds: IpFeedStore;
  ipIntelligence: IpIntelligence;
}

/** IP analysis without storage: geolocation (geoip-lite), imported feeds, the tenant's known abusers. */
export class IpIntelligence {
  constructor(
    private readonly store: IpFeedStore,
    /** Reads across the tenant's records (known abusers, device history); not tied to a request's EntityManager. */
    readonly db: Queryable,
  ) {}

  async analyze(rawIp: string, tenant: Tenant): Promise<IpAnalysisResult> {
    const ip = normaliseIp(rawIp);
    // the spec's words (REST Form A calls the field `ip`, Form B `ipAddress`): no field path to name
    if (!ip) throw invalid(INVALID_IP(rawIp));
    const [geo, ranges, knownAbuser] = await Promise.all([geolocate(ip), this.store.lookup(ip), isKnownAbuserIp(this.db, tenant, ip)]);
    // a provider's self-published geofeed fills what the bundled database does not know
    const located = ranges.find((r) => r.country);
    if (!geo.country && located) {
      Object.assign(geo, { country: located.country, countryName: countryName(located.country), city: geo.city ?? located.city ?? null });
    }
    const assessment = assessIp(ranges, knownAbuser);
    return {
      ip,
      version: ip.includes(':') ? 6 : 4,
      geolocation: geo,
      ...assessment,
      matchedRanges: ranges.map(({ feed, category, network, provider, service, region }) => ({
        feed,
        category,
        network,
        provider,
        service,
        region,
      })),
    };
  }
}

/** POST /intelligence/ip (Form A) and /intelligence/ip/check (Form B): analyse and record. */
export class IpService implements PersonalDataHolder {
  constructor(
    private readonly em: EntityManager,
    private readonly tenant: Tenant,
    private readonly intelligence: IpIntelligence,
  ) {}

  async check(ip: string, userId: string | null): Promise<IpCheck> {
    const result = await this.intelligence.analyze(ip, this.tenant);
    const check = this.em.create(IpCheck, {
      ...this.tenant,
      userId,
      ip: result.ip,
      riskScore: result.riskScore,
      riskLevel: result.riskLevel,
      threatTypes: result.threats.threatTypes,
      result,
    });
    await this.em.flush();
    return check;
  }

  async exportUser(userId: string): Promise<unknown[]> {
    const all = await this.em.find(IpCheck, { userId, ...this.tenant }, { orderBy: { checkedAt: 'asc', id: 'asc' } });
    return all.map((c) => exported(c));
  }

  /** The IP analyses made for the user go (an address is tied to them; nothing in one is a decision to keep). */
  eraseUser({ userId }: ErasedUser): Promise<number> {
    return this.em.nativeDelete(IpCheck, { userId, ...this.tenant });
  }

  /** The caller's analysis with this id, or null. */
  find(id: string): Promise<IpCheck | null> {
    return isUuid(id) ? findOneBy(this.em, IpCheck, { id, ...this.tenant }) : Promise.resolve(null);
  }

  async get(id: string): Promise<IpCheck> {
    const check = await this.find(id);
    if (!check) throw notFound('IP analysis', id);
    return check;
  }

  /** The organization's analyses (of one user), newest first. */
  list<N>(filter: { userId?: string | null }, page: ConnectionArgs, toNode: (check: IpCheck) => N): Promise<Connection<N>> {
    // the tenant last: a session's user wins over the filter's
    const where = { ...(filter.userId != null && { userId: filter.userId }), ...this.tenant };
    // an analysis's creation time is its checked_at
    return paginate(this.em, IpCheck, where, page, toNode, 'checked_at');
  }
}
