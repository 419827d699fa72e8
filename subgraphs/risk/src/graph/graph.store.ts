import type { Tenant } from '../../../../platform/auth/tenant.js';
import type { Sql } from '../../../../platform/db/transaction.js';

/**
 * Erasure: the graph forgets the devices and IP addresses of these accounts (their USED and
 * FROM_IP edges, the device and IP of the transfers they sent, and the
 * device and IP nodes no other account uses); the SENT edges stay (amounts, times). Returns how
 * many rows changed.
 */
export async function forgetAccounts(db: Sql, tenant: Tenant, accountIds: readonly string[]): Promise<number> {
  if (!accountIds.length) return 0;
  const { rows } = await db.query<{ n: number }>(
    `with devices as (select distinct device_id from risk.account_devices where organization_id = $1 and environment = $2 and account_id = any($3::text[])),
     ips as (select distinct address from risk.account_ips where organization_id = $1 and environment = $2 and account_id = any($3::text[])),
     transfers as (
       update risk.transfers set device_id = null, ip = null
        where organization_id = $1 and environment = $2 and sender = any($3::text[]) and (device_id is not null or ip is not null) returning 1),
     used as (delete from risk.account_devices where organization_id = $1 and environment = $2 and account_id = any($3::text[]) returning 1),
     from_ip as (delete from risk.account_ips where organization_id = $1 and environment = $2 and account_id = any($3::text[]) returning 1),
     device_nodes as (
       delete from risk.devices d where d.organization_id = $1 and d.environment = $2 and d.id in (select device_id from devices)
          and not exists (select 1 from risk.account_devices o where o.organization_id = $1 and o.environment = $2 and o.device_id = d.id
                             and not (o.account_id = any($3::text[])))
       returning 1),
     ip_nodes as (
       delete from risk.ips i where i.organization_id = $1 and i.environment = $2 and i.address in (select address from ips)
          and not exists (select 1 from risk.account_ips o where o.organization_id = $1 and o.environment = $2 and o.address = i.address
                             and not (o.account_id = any($3::text[])))
       returning 1)
     select ((select count(*) from transfers) + (select count(*) from used) + (select count(*) from from_ip)
             + (select count(*) from device_nodes) + (select count(*) from ip_nodes))::int as n`,
    [tenant.organizationId, tenant.environment, [...accountIds]],
  );
  return rows[0]?.n ?? 0;
}

/** The devices and IP addresses the graph holds for these accounts (a subject access request). */
export async function accountsNeighbourhood(db: Sql, tenant: Tenant, accountIds: readonly string[]): Promise<unknown[]> {
  if (!accountIds.length) return [];
  const { rows } = await db.query(
    `select 'device' as kind, account_id as "accountId", device_id as value, first_seen_at as "firstSeenAt", last_seen_at as "lastSeenAt", uses
       from risk.account_devices where organization_id = $1 and environment = $2 and account_id = any($3::text[])
     union all
     select 'ip', account_id, address, first_seen_at, last_seen_at, uses
       from risk.account_ips where organization_id = $1 and environment = $2 and account_id = any($3::text[])
     order by 2, 1, 3`,
    [tenant.organizationId, tenant.environment, [...accountIds]],
  );
  return rows.map((r) => JSON.parse(JSON.stringify(r)) as unknown);
}
