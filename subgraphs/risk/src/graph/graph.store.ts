import type pg from 'pg';
import type { Tenant } from '../../../../platform/auth/tenant.js';
import { pairKey } from './graph.facts.js';

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
const RECORD_SQL = /* SQL */ `
with
p as (
  select $1::uuid as org, $2::text as env, $3::text as tid, $4::text as snd, $5::text as rcv,
         $6::float8 as amount, $7::text as cur, $8::text as channel, $9::text as dev, $10::text as ip,
         $11::timestamptz as at, $12::text as pair
),
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
)
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
