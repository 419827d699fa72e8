import type pg from 'pg';
import type { Tenant } from '../../../../platform/auth/tenant.js';
import { pairKey, RECORD_CTES } from './graph.store.js';

/**
 * Everything the rules and the graph detectors need about a transaction's neighbourhood, read in
 * ONE bounded statement before the transaction is written:
 * - velocity counters (per-minute buckets of `risk.velocity`) for the sender, the receiver, the
 *   sender as a receiver, the device and the pair;
 * - distinct counterparties (fan-in/fan-out), devices and IPs: the most recent `scanCap` edges;
 * - cycles of length 2–5 closed by sender → receiver within the cycle window: meet in the middle
 *   (2 hops forward from the receiver, 2 hops backward from the sender), each node expanding at
 *   most `degreeCap` of its most recent edges — at most 4·degreeCap² nodes, whatever the graph.
 */

export interface FactsQuery {
  tenant: Tenant;
  sender: string;
  receiver: string;
  currency: string;
  deviceId: string | null;
  ip: string | null;
  now: Date;
  cycleWindowHours: number;
  degreeCap: number;
  /** Edges read per node when counting distinct counterparties. */
  scanCap: number;
}

export interface Counter {
  count1h: number;
  sum1h: number;
  count24h: number;
  sum24h: number;
}

export interface Profile {
  account_id: string;
  full_name: string;
  date_of_birth: string | null;
  nationality: string | null;
}

export interface NeighbourhoodFacts {
  sender: Counter;
  senderAsReceiver: Counter;
  receiver: Counter;
  device: Counter;
  pair: Counter;
  senderKnown: boolean;
  receiverKnown: boolean;
  /** Distinct senders into the receiver in 24 h (before this transaction) and whether the sender is one. */
  fanInBefore: number;
  fanInHasSender: boolean;
  fanOutBefore: number;
  fanOutHasReceiver: boolean;
  deviceAccounts24h: number;
  deviceSenderActive24h: boolean;
  deviceUsedBySender: boolean;
  ipAccounts24h: number;
  ipSenderActive24h: boolean;
  /** Shortest cycle closed by this transfer: [sender, receiver, …, sender], or null. */
  cyclePath: string[] | null;
  nodesTraversed: number;
  profiles: Profile[];
}

const ZERO: Counter = { count1h: 0, sum1h: 0, count24h: 0, sum24h: 0 };

/** The neighbourhood's CTEs (params: $1–$12). */
const FACTS_CTES = /* SQL */ `
params as (
  select $1::uuid as org, $2::text as env, $3::text as snd, $4::text as rcv, $5::text as cur,
         $6::text as dev, $7::text as ip, $8::timestamptz as now, $9::timestamptz as since,
         $10::int as cap, $11::text as pair, $12::int as scan,
         date_trunc('minute', $8::timestamptz) - interval '59 minutes' as h1,
         date_trunc('minute', $8::timestamptz) - interval '1439 minutes' as d1
),
vel as (
  select q.k, x.c1, x.s1, x.c24, x.s24
  from params p
  cross join lateral (values ('s', p.snd), ('x', p.snd), ('r', p.rcv), ('d', p.dev), ('p', p.pair)) q(k, subject)
  cross join lateral (
    select coalesce(sum(v.count) filter (where v.minute >= p.h1), 0)::int as c1,
           coalesce(sum(v.sum) filter (where v.minute >= p.h1 and v.currency = p.cur), 0)::float8 as s1,
           coalesce(sum(v.count), 0)::int as c24,
           coalesce(sum(v.sum) filter (where v.currency = p.cur), 0)::float8 as s24
    from risk.velocity v
    where v.organization_id = p.org and v.environment = p.env
      and v.kind = (case q.k when 'x' then 'r' else q.k end)::char(1) and v.subject = q.subject and v.minute >= p.d1
  ) x
  where q.subject is not null
),
fan_in as (
  select count(distinct t.sender)::int as n, coalesce(bool_or(t.sender = p.snd), false) as has_sender
  from params p cross join lateral (
    select sender from risk.transfers
    where organization_id = p.org and environment = p.env and receiver = p.rcv and at > p.now - interval '24 hours'
    order by at desc limit p.scan) t
  group by p.org
),
fan_out as (
  select count(distinct t.receiver)::int as n, coalesce(bool_or(t.receiver = p.rcv), false) as has_receiver
  from params p cross join lateral (
    select receiver from risk.transfers
    where organization_id = p.org and environment = p.env and sender = p.snd and at > p.now - interval '24 hours'
    order by at desc limit p.scan) t
  group by p.org
),
dev as (
  select count(*)::int as n, coalesce(bool_or(d.account_id = p.snd), false) as sender_active
  from params p cross join lateral (
    select account_id from risk.account_devices
    where organization_id = p.org and environment = p.env and device_id = p.dev and last_seen_at > p.now - interval '24 hours'
    order by last_seen_at desc limit p.scan) d
  group by p.org
),
ipa as (
  select count(*)::int as n, coalesce(bool_or(d.account_id = p.snd), false) as sender_active
  from params p cross join lateral (
    select account_id from risk.account_ips
    where organization_id = p.org and environment = p.env and address = p.ip and last_seen_at > p.now - interval '24 hours'
    order by last_seen_at desc limit p.scan) d
  group by p.org
),
-- cycles: R = receiver, S = sender; forward from R, backward from S, within the window
f1 as (
  select distinct t.node from params p cross join lateral (
    select receiver as node from risk.transfers
    where organization_id = p.org and environment = p.env and sender = p.rcv and at >= p.since
    order by at desc limit p.cap) t
),
b1 as (
  select distinct t.node from params p cross join lateral (
    select sender as node from risk.transfers
    where organization_id = p.org and environment = p.env and receiver = p.snd and at >= p.since
    order by at desc limit p.cap) t
),
f2 as (
  select distinct on (x.node) x.node, f1.node as via
  from params p cross join f1 cross join lateral (
    select receiver as node from risk.transfers
    where organization_id = p.org and environment = p.env and sender = f1.node and at >= p.since
    order by at desc limit p.cap) x
  where f1.node <> p.snd and f1.node <> p.rcv and x.node <> p.rcv and x.node <> f1.node
  order by x.node
),
b2 as (
  select distinct on (y.node) y.node, b1.node as via
  from params p cross join b1 cross join lateral (
    select sender as node from risk.transfers
    where organization_id = p.org and environment = p.env and receiver = b1.node and at >= p.since
    order by at desc limit p.cap) y
  where b1.node <> p.snd and b1.node <> p.rcv and y.node <> p.snd and y.node <> b1.node
  order by y.node
),
cycle as (
  select c.len, c.path from params p cross join lateral (
    select 2 as len, array[p.snd, p.rcv, p.snd] as path from f1 where f1.node = p.snd
    union all
    select 3, array[p.snd, p.rcv, f1.node, p.snd] from f1 join b1 using (node) where f1.node <> p.snd and f1.node <> p.rcv
    union all
    select 4, array[p.snd, p.rcv, f2.via, f2.node, p.snd] from f2 join b1 on b1.node = f2.node where f2.node <> p.snd
    union all
    select 4, array[p.snd, p.rcv, f1.node, b2.via, p.snd] from f1 join b2 on b2.node = f1.node
      where f1.node <> p.snd and f1.node <> p.rcv and b2.via <> f1.node
    union all
    select 5, array[p.snd, p.rcv, f2.via, f2.node, b2.via, p.snd] from f2 join b2 on b2.node = f2.node
      where f2.node <> p.snd and b2.via <> f2.via and b2.via <> f2.node and b2.via <> p.rcv
  ) c
  order by c.len limit 1
)`;

const FACTS_SELECT = /* SQL */ `
select
  (select coalesce(json_agg(json_build_object('k', k, 'c1', c1, 's1', s1, 'c24', c24, 's24', s24)), '[]') from vel) as velocity,
  exists (select 1 from params p join risk.accounts a on a.organization_id = p.org and a.environment = p.env and a.id = p.snd) as sender_known,
  exists (select 1 from params p join risk.accounts a on a.organization_id = p.org and a.environment = p.env and a.id = p.rcv) as receiver_known,
  coalesce((select n from fan_in), 0) as fan_in, coalesce((select has_sender from fan_in), false) as fan_in_has_sender,
  coalesce((select n from fan_out), 0) as fan_out, coalesce((select has_receiver from fan_out), false) as fan_out_has_receiver,
  coalesce((select n from dev), 0) as device_accounts, coalesce((select sender_active from dev), false) as device_sender_active,
  exists (select 1 from params p join risk.account_devices d on d.organization_id = p.org and d.environment = p.env
          and d.account_id = p.snd and d.device_id = p.dev) as device_used_by_sender,
  coalesce((select n from ipa), 0) as ip_accounts, coalesce((select sender_active from ipa), false) as ip_sender_active,
  (select path from cycle) as cycle_path,
  (select count(*) from f1)::int + (select count(*) from b1)::int + (select count(*) from f2)::int + (select count(*) from b2)::int as cycle_nodes,
  (select coalesce(json_agg(json_build_object('account_id', a.account_id, 'full_name', a.full_name,
           'date_of_birth', a.date_of_birth, 'nationality', a.nationality)), '[]')
     from params p join risk.account_profiles a on a.organization_id = p.org and a.environment = p.env
     and a.account_id in (p.snd, p.rcv)) as profiles
`;

export const FACTS_SQL = `with ${FACTS_CTES} ${FACTS_SELECT}`;

/**
 * The neighbourhood read and the transfer written in ONE statement: every part of a statement
 * reads the same snapshot, taken before its own writes, so the facts are those before this
 * transfer, as with two statements, in one round trip ($13 transaction id, $14 amount, $15 channel).
 */
const FACTS_AND_RECORD_SQL = /* SQL */ `
with ${FACTS_CTES},
p as (select org, env, $13::text as tid, snd, rcv, $14::float8 as amount, cur, $15::text as channel, dev, ip, now as at, pair from params),
${RECORD_CTES}
${FACTS_SELECT}`;

interface FactsRow {
  velocity: Array<{ k: string; c1: number; s1: number; c24: number; s24: number }>;
  sender_known: boolean;
  receiver_known: boolean;
  fan_in: number;
  fan_in_has_sender: boolean;
  fan_out: number;
  fan_out_has_receiver: boolean;
  device_accounts: number;
  device_sender_active: boolean;
  device_used_by_sender: boolean;
  ip_accounts: number;
  ip_sender_active: boolean;
  cycle_path: string[] | null;
  cycle_nodes: number;
  profiles: Profile[];
}

function factsValues(q: FactsQuery): unknown[] {
  const since = new Date(q.now.getTime() - q.cycleWindowHours * 3_600_000);
  return [
    q.tenant.organizationId,
    q.tenant.environment,
    q.sender,
    q.receiver,
    q.currency,
    q.deviceId,
    q.ip,
    q.now,
    since,
    q.degreeCap,
    pairKey(q.sender, q.receiver),
    q.scanCap,
  ];
}

export async function readNeighbourhood(db: pg.ClientBase, q: FactsQuery): Promise<NeighbourhoodFacts> {
  // a named statement: parsed and planned once per connection (planning is as long as running it)
  const { rows } = await db.query<FactsRow>({ name: 'risk_facts', text: FACTS_SQL, values: factsValues(q) });
  return neighbourhoodOf(rows[0], q);
}

/**
 * The neighbourhood before this transfer, and the transfer written (SENT edge, nodes, USED and
 * FROM_IP edges, counters; at `q.now`), in one round trip.
 */
export async function readNeighbourhoodAndRecord(
  db: pg.ClientBase,
  q: FactsQuery,
  transfer: { transactionId: string; amount: number; channel: string | null },
): Promise<NeighbourhoodFacts> {
  const { rows } = await db.query<FactsRow>({
    name: 'risk_facts_and_record',
    text: FACTS_AND_RECORD_SQL,
    values: [...factsValues(q), transfer.transactionId, transfer.amount, transfer.channel],
  });
  return neighbourhoodOf(rows[0], q);
}

function neighbourhoodOf(r: FactsRow, q: FactsQuery): NeighbourhoodFacts {
  const counter = (k: string): Counter => {
    const v = r.velocity.find((x) => x.k === k);
    return v ? { count1h: v.c1, sum1h: v.s1, count24h: v.c24, sum24h: v.s24 } : ZERO;
  };
  const nodes = 2 + r.cycle_nodes + r.fan_in + r.fan_out + (q.deviceId ? 1 + r.device_accounts : 0) + (q.ip ? 1 + r.ip_accounts : 0);
  return {
    sender: counter('s'),
    senderAsReceiver: counter('x'),
    receiver: counter('r'),
    device: counter('d'),
    pair: counter('p'),
    senderKnown: r.sender_known,
    receiverKnown: r.receiver_known,
    fanInBefore: r.fan_in,
    fanInHasSender: r.fan_in_has_sender,
    fanOutBefore: r.fan_out,
    fanOutHasReceiver: r.fan_out_has_receiver,
    deviceAccounts24h: r.device_accounts,
    deviceSenderActive24h: r.device_sender_active,
    deviceUsedBySender: r.device_used_by_sender,
    ipAccounts24h: r.ip_accounts,
    ipSenderActive24h: r.ip_sender_active,
    cyclePath: r.cycle_path,
    nodesTraversed: nodes,
    profiles: r.profiles,
  };
}
