import type { EntityManager } from '@mikro-orm/postgresql';
import { findOneBy } from '../../../../platform/db/find-one-by.js';
import { invalid, notFound } from '../../../../platform/errors.js';
import { paginate, type Connection, type ConnectionArgs } from '../../../../platform/graphql/connection.js';
import { isUuid } from '../../../../platform/ids.js';
import type { Tenant } from '../../../../platform/auth/tenant.js';
import { isKnownFraudDevice, type Queryable } from '../ip/fraud-links.js';
import { normaliseIp } from '../ip/ip-risk.js';
import { INVALID_IP, type IpIntelligence } from '../ip/ip.service.js';
import { DeviceAssessment } from './device.entity.js';
import { sqlOf } from '../../../../platform/db/transaction.js';
import { exported, type ErasedUser, type PersonalDataHolder } from '../../../../platform/privacy/personal-data.js';
import {
  FINGERPRINT_MEMBERS,
  deviceIdOf,
  detectEmulator,
  detectGeoMismatch,
  detectRooted,
  formatDeviceAge,
  parseUserAgent,
  scoreDevice,
  validateFingerprint,
  type Fingerprint,
} from './fingerprint.js';

export interface AssessDeviceCommand {
  userId: string;
  sessionId: string;
  fingerprint: Fingerprint & { ip?: string | null };
  /** The request's client IP, used when the fingerprint has no `ip`. */
  detectedIp?: string | null;
}

/** POST /intelligence/device/fingerprint and GET /intelligence/device/{id}. */
export class DeviceService implements PersonalDataHolder {
  constructor(
    private readonly em: EntityManager,
    private readonly tenant: Tenant,
    private readonly intelligence: IpIntelligence,
    private readonly db: Queryable,
  ) {}

  async assess(cmd: AssessDeviceCommand): Promise<DeviceAssessment> {
    const fp: Fingerprint = Object.fromEntries(
      FINGERPRINT_MEMBERS.filter((m) => cmd.fingerprint[m]?.trim()).map((m) => [m, cmd.fingerprint[m]!.trim()]),
    );
    const errors = validateFingerprint(fp);
    const given = cmd.fingerprint.ip?.trim();
    const ip = given ? normaliseIp(given) : cmd.detectedIp ? normaliseIp(cmd.detectedIp) : null;
    if (given && !ip) errors.push(`fingerprint.ip: ${INVALID_IP(given)}`);
    if (errors.length) throw invalid(errors);

    const deviceId = deviceIdOf(this.tenant.organizationId, fp);
    const analysis = ip ? await this.intelligence.analyze(ip, this.tenant) : null;
    const [history, knownFraud] = await Promise.all([
      this.db.query<{ first_seen: Date | null; accounts: number }>(
        `select (select first_seen from verification.devices where organization_id = $1 and environment = $2 and device_id = $3) as first_seen,
                (select count(*)::int from (select user_id from verification.device_assessments where organization_id = $1 and environment = $2 and device_id = $3
                                            union select $4::text) u) as accounts`,
        [this.tenant.organizationId, this.tenant.environment, deviceId, cmd.userId],
      ),
      isKnownFraudDevice(this.db, this.tenant, deviceId, cmd.userId),
    ]);
    const now = new Date();
    const emulator = detectEmulator(fp);
    const rooted = detectRooted(fp);
    const geo = analysis ? detectGeoMismatch(fp, analysis.geolocation, now) : [];
    const threats = analysis?.threats;

    return this.em.transactional(async (em) => {
      // first sight of the device wins under concurrent assessments
      const [row] = await em.execute<Array<{ first_seen: Date }>>(
        `insert into verification.devices (organization_id, environment, device_id, first_seen, last_seen) values (?, ?, ?, ?, ?)
         on conflict (organization_id, environment, device_id) do update set last_seen = excluded.last_seen
         returning first_seen`,
        [this.tenant.organizationId, this.tenant.environment, deviceId, history.rows[0]?.first_seen ?? now, now],
      );
      const firstSeen = new Date(row.first_seen);
      const signals = {
        emulator: emulator.length > 0,
        rooted: rooted.length > 0,
        vpn: Boolean(threats && (threats.isVpn || threats.isProxy || threats.isTor)),
        knownFraudDevice: knownFraud,
        geoMismatch: geo.length > 0,
        multipleAccounts: history.rows[0]?.accounts ?? 1,
        deviceAge: formatDeviceAge(firstSeen, now),
      };
      const vpnKinds = threats
        ? [threats.isVpn && 'VPN', threats.isProxy && 'proxy', threats.isTor && 'Tor exit'].filter(Boolean).join(', ')
        : '';
      const { riskScore, riskLevel, reasons } = scoreDevice(signals, threats ?? null, {
        emulator: emulator.join('; ') || undefined,
        rooted: rooted.join('; ') || undefined,
        geoMismatch: geo.join('; ') || undefined,
        vpn: vpnKinds ? `IP is a ${vpnKinds}` : undefined,
      });
      return em.create(DeviceAssessment, {
        ...this.tenant,
        userId: cmd.userId,
        sessionId: cmd.sessionId,
        deviceId,
        fingerprint: { ...fp, parsed: parseUserAgent(fp.userAgent) },
        ip,
        ipDetected: Boolean(ip && !given),
        firstSeen,
        signals,
        location: analysis
          ? {
              country: analysis.geolocation.country,
              countryName: analysis.geolocation.countryName,
              city: analysis.geolocation.city,
              isp: analysis.network.isp,
            }
          : null,
        riskScore,
        riskLevel,
        reasons,
        createdAt: now,
      });
    });
  }

  /** By assessment id, or by `dfp_…` device id (its latest assessment); null when the caller has none. */
  find(id: string): Promise<DeviceAssessment | null> {
    if (isUuid(id)) return findOneBy(this.em, DeviceAssessment, { id, ...this.tenant });
    if (/^dfp_[0-9a-f]{32}$/.test(id)) {
      return this.em.findOne(DeviceAssessment, { deviceId: id, ...this.tenant }, { orderBy: { createdAt: 'desc', id: 'desc' } });
    }
    return Promise.resolve(null);
  }

  async get(id: string): Promise<DeviceAssessment> {
    const found = await this.find(id);
    if (!found) throw notFound('Device assessment', id);
    return found;
  }

  async exportUser(userId: string): Promise<unknown[]> {
    const all = await this.em.find(DeviceAssessment, { userId, ...this.tenant }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    return all.map((a) => exported(a));
  }

  /**
   * Device records tied to the user go: their assessments (fingerprint, IP, location), and the
   * devices no other user's assessment names any more.
   */
  async eraseUser({ userId }: ErasedUser): Promise<number> {
    const { rows } = await sqlOf(this.em).query<{ n: number }>(
      `with gone as (
         delete from verification.device_assessments where organization_id = $1 and environment = $2 and user_id = $3 returning device_id),
       devices as (
         delete from verification.devices d where d.organization_id = $1 and d.environment = $2 and d.device_id in (select device_id from gone)
            and not exists (select 1 from verification.device_assessments a
                             where a.organization_id = $1 and a.environment = $2 and a.device_id = d.device_id and a.user_id <> $3)
         returning 1)
       select ((select count(*) from gone) + (select count(*) from devices))::int as n`,
      [this.tenant.organizationId, this.tenant.environment, userId],
    );
    return rows[0]?.n ?? 0;
  }

  /** The organization's assessments (of one user), newest first. */
  list<N>(filter: { userId?: string | null }, page: ConnectionArgs, toNode: (a: DeviceAssessment) => N): Promise<Connection<N>> {
    // the tenant last: a session's user wins over the filter's
    return paginate(this.em, DeviceAssessment, { ...(filter.userId != null && { userId: filter.userId }), ...this.tenant }, page, toNode);
  }
}
