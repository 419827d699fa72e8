import type pg from 'pg';
import type { Tenant } from '../../../../platform/auth/tenant.js';

export type Queryable = Pick<pg.Pool, 'query'>;

/**
 * A "flagged" user of the tenant: one with a REJECTED identity verification, or an AML screening
 * that is still flagged (POTENTIAL_MATCH or CONFIRMED_MATCH; a screening whose hits were all
 * resolved as false positives is CLEAR again). `$1` organization, `$2` environment, `u.user_id` the user.
 */
const FLAGGED_USER = `(
  exists (select 1 from verification.identity_verifications iv
           where iv.organization_id = $1 and iv.environment = $2 and iv.user_id = u.user_id and iv.overall_status = 'REJECTED')
  or exists (select 1 from verification.aml_screenings s
           where s.organization_id = $1 and s.environment = $2 and s.user_id = u.user_id and s.status in ('POTENTIAL_MATCH', 'CONFIRMED_MATCH')))`;

/** Known abuser: the address was seen (IP checks, device assessments) for a flagged user of the tenant. */
export async function isKnownAbuserIp(db: Queryable, tenant: Tenant, ip: string): Promise<boolean> {
  const { rows } = await db.query<{ found: boolean }>(
    `select exists (
       select 1 from (
         select user_id from verification.ip_checks where organization_id = $1 and environment = $2 and ip = $3::inet and user_id is not null
         union
         select user_id from verification.device_assessments where organization_id = $1 and environment = $2 and ip = $3::inet
       ) u where ${FLAGGED_USER}) as found`,
    [tenant.organizationId, tenant.environment, ip],
  );
  return rows[0]?.found ?? false;
}

/** Known fraud device: the device was seen for a flagged user of the tenant. */
export async function isKnownFraudDevice(db: Queryable, tenant: Tenant, deviceId: string, currentUserId: string): Promise<boolean> {
  const { rows } = await db.query<{ found: boolean }>(
    `select exists (
       select 1 from (
         select distinct user_id from verification.device_assessments where organization_id = $1 and environment = $2 and device_id = $3
         union select $4::text
       ) u where ${FLAGGED_USER}) as found`,
    [tenant.organizationId, tenant.environment, deviceId, currentUserId],
  );
  return rows[0]?.found ?? false;
}
