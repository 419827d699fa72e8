import type pg from 'pg';
import type { Tenant } from '../../../../platform/auth/tenant.js';
import type { Sql } from '../../../../platform/db/transaction.js';

/** The velocity subject of a sender → receiver pair. */
export const pairKey = (sender: string, receiver: string) => `${sender}\u001f${receiver}`;

export interface TransferEdge {
  transactionId: string;
  sender: string;
  receiver: string;
  amount: number;
  currency: string;
  channel: string | null;
  deviceId: string | null;
  ip: string | null;
  at: Date;
}

/**
 * Writes one transfer into the graph in ONE statement (inside the evaluation's transaction):
 * the SENT edge, the account/device/IP nodes, the USED and FROM_IP edges and the velocity
 * counters of the sender, receiver, device and pair. Existing nodes are left untouched (no row
 * lock on hot accounts); counters are upserts on per-minute buckets.
 */
export const RECORD_CTES = /* SQL */ `
sent as (
  insert into risk.transfers (organization_id, environment, transaction_id, sender, receiver, amount, currency, channel, device_id, ip, at)
  select org, env, tid, snd, rcv, amount, cur, channel, dev, ip, at from p
),
accounts as (
  insert into risk.accounts (organization_id, environment, id, first_seen_at)
  select org, env, id, at from p cross join lateral (values (p.snd), (p.rcv)) a(id)
  on conflict do nothing
),
devices as (
  insert into risk.devices (organization_id, environment, id, first_seen_at)
  select org, env, dev, at from p where dev is not null
  on conflict do nothing
),
used as (
  insert into risk.account_devices (organization_id, environment, account_id, device_id, first_seen_at, last_seen_at)
  select org, env, snd, dev, at, at from p where dev is not null
  on conflict (organization_id, environment, account_id, device_id)
  do update set last_seen_at = greatest(risk.account_devices.last_seen_at, excluded.last_seen_at), uses = risk.account_devices.uses + 1
),
ips as (
  insert into risk.ips (organization_id, environment, address, first_seen_at)
  select org, env, ip, at from p where ip is not null
  on conflict do nothing
),
from_ip as (
  insert into risk.account_ips (organization_id, environment, account_id, address, first_seen_at, last_seen_at)
  select org, env, snd, ip, at, at from p where ip is not null
  on conflict (organization_id, environment, account_id, address)
  do update set last_seen_at = greatest(risk.account_ips.last_seen_at, excluded.last_seen_at), uses = risk.account_ips.uses + 1
),
counters as (
  insert into risk.velocity (organization_id, environment, kind, subject, minute, currency, count, sum)
  select org, env, k, subject, date_trunc('minute', at), cur, 1, amount
  from p cross join lateral (values ('s', p.snd), ('r', p.rcv), ('d', p.dev), ('p', p.pair)) c(k, subject)
  where subject is not null
  on conflict (organization_id, environment, kind, subject, minute, currency)
  do update set count = risk.velocity.count + 1, sum = risk.velocity.sum + excluded.sum
)`;

/** The write CTEs read the transfer from `p`. */
const RECORD_SQL = /* SQL */ `
with
p as (
  select $1::uuid as org, $2::text as env, $3::text as tid, $4::text as snd, $5::text as rcv,
         $6::float8 as amount, $7::text as cur, $8::text as channel, $9::text as dev, $10::text as ip,
         $11::timestamptz as at, $12::text as pair
),
${RECORD_CTES}
select 1`;

export async function recordTransfer(db: pg.ClientBase, tenant: Tenant, e: TransferEdge): Promise<void> {
  await db.query({
    name: 'risk_record_transfer',
    text: RECORD_SQL,
    values: [
      tenant.organizationId,
      tenant.environment,
      e.transactionId,
      e.sender,
      e.receiver,
      e.amount,
      e.currency,
      e.channel,
      e.deviceId,
      e.ip,
      e.at,
      pairKey(e.sender, e.receiver),
    ],
  });
}

/** Counters older than the longest window (24 h) plus a margin are dropped. */
export async function pruneVelocity(db: pg.Pool): Promise<number> {
  const { rowCount } = await db.query(`delete from risk.velocity where minute < now() - interval '25 hours'`);
  return rowCount ?? 0;
}

/**
 * Erasure: the graph forgets the devices and IP addresses of these accounts (their USED and
 * FROM_IP edges, the device and IP of the transfers they sent, their velocity counters, and the
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
     counters as (
       delete from risk.velocity where organization_id = $1 and environment = $2 and kind in ('s', 'r', 'd')
          and (subject = any($3::text[]) or subject in (select device_id from devices)) returning 1),
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
     select ((select count(*) from transfers) + (select count(*) from used) + (select count(*) from from_ip) + (select count(*) from counters)
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
