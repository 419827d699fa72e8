import type pg from 'pg';
import type { Tenant } from '../../../../platform/auth/tenant.js';
import type { Counter, FactsQuery, NeighbourhoodFacts } from './graph.facts.js';
import { pairKey } from './graph.store.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Counters are kept one hour longer than the longest window. */
const VELOCITY_KEPT_MS = DAY + HOUR;

interface Edge {
  transactionId: string;
  sender: string;
  receiver: string;
  at: number;
  /** Taken back out (undo) before it expired. */
  removed?: true;
}

/** One minute of one velocity subject: transfers counted, amounts summed per currency. */
interface Bucket {
  key: string;
  minute: number;
  count: number;
  sums: Map<string, number>;
}

/** First in, first out, without `shift()`'s copying: what is taken is dropped in chunks. */
class Queue<T> {
  private items: T[] = [];
  private head = 0;

  push(item: T): void {
    this.items.push(item);
  }

  peek(): T | undefined {
    return this.items[this.head];
  }

  take(): T | undefined {
    const item = this.items[this.head];
    if (item === undefined) return undefined;
    this.head += 1;
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}

export interface TransferFacts {
  transactionId: string;
  sender: string;
  receiver: string;
  amount: number;
  currency: string;
  deviceId: string | null;
  ip: string | null;
}

type NeighbourhoodQuery = Omit<FactsQuery, 'tenant' | 'now'>;

const ZERO: Counter = Object.freeze({ count1h: 0, sum1h: 0, count24h: 0, sum24h: 0 });

/**
 * One tenant's transaction graph as the evaluation engine needs it, in memory: the SENT edges of
 * the cycle window (and of the last 24 h), per-minute velocity counters (counted from the SENT
 * edges of the last 25 h: they are not stored), every account seen, and which accounts used each
 * device and IP address. It answers the same neighbourhood as the
 * database's tables would (same windows, caps and cycle search) without a round trip, and records
 * a transfer synchronously, so evaluations of one tenant in this process see each other exactly.
 * The database stays the durable copy (written by the group commit); a new owner loads from it.
 */
export class TenantGraph {
  private readonly out = new Map<string, Edge[]>();
  private readonly in = new Map<string, Edge[]>();
  private readonly velocity = new Map<string, Bucket[]>();
  private readonly accounts = new Set<string>();
  private readonly deviceUsers = new Map<string, Map<string, number>>();
  private readonly ipUsers = new Map<string, Map<string, number>>();
  /** Transaction ids of the edges held (a reused one is refused without a round trip). */
  private readonly transactionIds = new Set<string>();
  /**
   * Edges and counter buckets in the order they came, which is time order (`clock()`): what falls
   * out of its window is at the front, so expiring costs what expires, not the graph's size.
   */
  private readonly edgesByAge = new Queue<Edge>();
  private readonly bucketsByAge = new Queue<Bucket>();
  private lastAt = 0;

  /** @param edgesKeptMs how long SENT edges are kept: the longer of the cycle window and 24 h. */
  constructor(private readonly edgesKeptMs: number) {}

  /** Loads a tenant's graph from the database (what a new owner does first). */
  static async load(db: pg.Pool | pg.ClientBase, tenant: Tenant, cycleWindowHours: number, now = Date.now()): Promise<TenantGraph> {
    const graph = new TenantGraph(Math.max(DAY, cycleWindowHours * HOUR));
    const t = [tenant.organizationId, tenant.environment];
    const ms = (column: string) => `(extract(epoch from ${column}) * 1000)::float8`;
    const [transfers, accounts, devices, ips] = await Promise.all([
      // the counters' windows too: they are not stored, but counted from the transfers
      db.query<Omit<Edge, 'transactionId'> & { transaction_id: string; amount: number; currency: string; device_id: string | null }>(
        `select transaction_id, sender, receiver, ${ms('at')} as at, amount, currency, device_id from risk.transfers
          where organization_id = $1 and environment = $2 and at >= to_timestamp($3 / 1000.0) order by at`,
        [...t, now - Math.max(graph.edgesKeptMs, VELOCITY_KEPT_MS)],
      ),
      db.query<{ id: string }>(`select id from risk.accounts where organization_id = $1 and environment = $2`, t),
      db.query<{ account_id: string; node: string; last_seen: number }>(
        `select account_id, device_id as node, ${ms('last_seen_at')} as last_seen from risk.account_devices where organization_id = $1 and environment = $2`,
        t,
      ),
      db.query<{ account_id: string; node: string; last_seen: number }>(
        `select account_id, address as node, ${ms('last_seen_at')} as last_seen from risk.account_ips where organization_id = $1 and environment = $2`,
        t,
      ),
    ]);
    for (const e of transfers.rows) {
      if (e.at >= now - graph.edgesKeptMs)
        graph.addEdge({ transactionId: e.transaction_id, sender: e.sender, receiver: e.receiver, at: e.at });
      if (e.at >= now - VELOCITY_KEPT_MS) graph.countTransfer(e.sender, e.receiver, e.device_id, e.currency, e.amount, e.at, 1);
    }
    for (const a of accounts.rows) graph.accounts.add(a.id);
    for (const d of devices.rows) users(graph.deviceUsers, d.node).set(d.account_id, d.last_seen);
    for (const i of ips.rows) users(graph.ipUsers, i.node).set(i.account_id, i.last_seen);
    return graph;
  }

  /** Whether a transfer with this id is held (within the kept window). */
  has(transactionId: string): boolean {
    return this.transactionIds.has(transactionId);
  }

  /** A time for a new transfer: now, never before the last one recorded (edges stay in time order). */
  clock(now = Date.now()): number {
    return Math.max(now, this.lastAt);
  }

  /** The neighbourhood of sender → receiver at `now`, before the transfer (profiles are the caller's). */
  neighbourhood(q: NeighbourhoodQuery, now: number): Omit<NeighbourhoodFacts, 'profiles'> {
    const day = now - DAY;
    const since = now - q.cycleWindowHours * HOUR;
    const fanIn = distinctRecent(this.in.get(q.receiver), day, q.scanCap, (e) => e.sender, false);
    const fanOut = distinctRecent(this.out.get(q.sender), day, q.scanCap, (e) => e.receiver, false);
    const device = q.deviceId ? activeUsers(this.deviceUsers.get(q.deviceId), day, q.scanCap) : null;
    const ip = q.ip ? activeUsers(this.ipUsers.get(q.ip), day, q.scanCap) : null;
    const cycle = this.cycle(q.sender, q.receiver, since, q.degreeCap);
    const counter = (kind: string, subject: string | null) =>
      subject === null ? ZERO : this.counter(`${kind}\u0000${subject}`, now, q.currency);
    return {
      sender: counter('s', q.sender),
      senderAsReceiver: counter('r', q.sender),
      receiver: counter('r', q.receiver),
      device: counter('d', q.deviceId),
      pair: counter('p', pairKey(q.sender, q.receiver)),
      senderKnown: this.accounts.has(q.sender),
      receiverKnown: this.accounts.has(q.receiver),
      fanInBefore: fanIn.size,
      fanInHasSender: fanIn.has(q.sender),
      fanOutBefore: fanOut.size,
      fanOutHasReceiver: fanOut.has(q.receiver),
      deviceAccounts24h: device?.length ?? 0,
      deviceSenderActive24h: device?.includes(q.sender) ?? false,
      deviceUsedBySender: q.deviceId !== null && this.deviceUsers.get(q.deviceId)?.has(q.sender) === true,
      ipAccounts24h: ip?.length ?? 0,
      ipSenderActive24h: ip?.includes(q.sender) ?? false,
      cyclePath: cycle.path,
      nodesTraversed: 2 + cycle.nodes + fanIn.size + fanOut.size + (device ? 1 + device.length : 0) + (ip ? 1 + ip.length : 0),
    };
  }

  /**
   * Records a transfer at `at` (from `clock()`): its SENT edge, its accounts, the device and IP
   * the sender used, the velocity counters. Returns what undoes it, should the durable write
   * refuse it (a transaction id reused from before the kept window).
   */
  record(t: TransferFacts, at: number): () => void {
    this.lastAt = Math.max(this.lastAt, at);
    const edge: Edge = { transactionId: t.transactionId, sender: t.sender, receiver: t.receiver, at };
    this.addEdge(edge);
    const undo: Array<() => void> = [() => this.removeEdge(edge)];
    for (const account of new Set([t.sender, t.receiver])) {
      if (this.accounts.has(account)) continue;
      this.accounts.add(account);
      undo.push(() => this.accounts.delete(account));
    }
    this.countTransfer(t.sender, t.receiver, t.deviceId, t.currency, t.amount, at, 1);
    undo.push(() => this.countTransfer(t.sender, t.receiver, t.deviceId, t.currency, t.amount, at, -1));
    for (const [byNode, node] of [
      [this.deviceUsers, t.deviceId],
      [this.ipUsers, t.ip],
    ] as const) {
      if (node === null) continue;
      const seen = users(byNode, node);
      const before = seen.get(t.sender);
      seen.set(t.sender, Math.max(before ?? at, at));
      undo.push(() => (before === undefined ? seen.delete(t.sender) : seen.set(t.sender, before)));
    }
    this.expire(at);
    return () => undo.reverse().forEach((u) => u());
  }

  private addEdge(edge: Edge): void {
    push(this.out, edge.sender, edge);
    push(this.in, edge.receiver, edge);
    this.edgesByAge.push(edge);
    this.transactionIds.add(edge.transactionId);
    this.lastAt = Math.max(this.lastAt, edge.at);
  }

  private removeEdge(edge: Edge): void {
    for (const [byNode, node] of [
      [this.out, edge.sender],
      [this.in, edge.receiver],
    ] as const) {
      const list = byNode.get(node);
      const i = list?.lastIndexOf(edge) ?? -1;
      if (i >= 0) list!.splice(i, 1);
      if (list?.length === 0) byNode.delete(node);
    }
    this.transactionIds.delete(edge.transactionId);
    edge.removed = true;
  }

  /** A transfer in (`sign` 1) or out of (-1) the velocity counters of its sender, receiver, device and pair. */
  private countTransfer(
    sender: string,
    receiver: string,
    deviceId: string | null,
    currency: string,
    amount: number,
    at: number,
    sign: 1 | -1,
  ): void {
    const minute = Math.floor(at / MINUTE) * MINUTE;
    this.count(`s\u0000${sender}`, minute, currency, sign, sign * amount);
    this.count(`r\u0000${receiver}`, minute, currency, sign, sign * amount);
    if (deviceId !== null) this.count(`d\u0000${deviceId}`, minute, currency, sign, sign * amount);
    this.count(`p\u0000${pairKey(sender, receiver)}`, minute, currency, sign, sign * amount);
  }

  private count(key: string, minute: number, currency: string, count: number, sum: number): void {
    let buckets = this.velocity.get(key);
    if (!buckets) this.velocity.set(key, (buckets = []));
    // buckets are in minute order; a new one is almost always the last
    let i = buckets.length - 1;
    while (i >= 0 && buckets[i].minute > minute) i--;
    let bucket = buckets[i];
    if (!bucket || bucket.minute !== minute) {
      bucket = { key, minute, count: 0, sums: new Map() };
      buckets.splice(i + 1, 0, bucket);
      this.bucketsByAge.push(bucket);
    }
    bucket.count += count;
    bucket.sums.set(currency, (bucket.sums.get(currency) ?? 0) + sum);
  }

  /** The database's windows: the last 60 and 1,440 minute buckets, this minute included. */
  private counter(key: string, now: number, currency: string): Counter {
    const buckets = this.velocity.get(key);
    if (!buckets) return ZERO;
    const thisMinute = Math.floor(now / MINUTE) * MINUTE;
    const h1 = thisMinute - 59 * MINUTE;
    const d1 = thisMinute - 1439 * MINUTE;
    const c = { count1h: 0, sum1h: 0, count24h: 0, sum24h: 0 };
    for (let i = buckets.length - 1; i >= 0 && buckets[i].minute >= d1; i--) {
      const b = buckets[i];
      const sum = b.sums.get(currency) ?? 0;
      c.count24h += b.count;
      c.sum24h += sum;
      if (b.minute >= h1) {
        c.count1h += b.count;
        c.sum1h += sum;
      }
    }
    return c;
  }

  /**
   * The shortest cycle of 2–5 transfers closed by sender → receiver within the window: meet in the
   * middle (two hops forward from the receiver, two back from the sender), each node expanding at
   * most `cap` of its most recent edges.
   */
  private cycle(s: string, r: string, since: number, cap: number): { path: string[] | null; nodes: number } {
    const f1 = distinctRecent(this.out.get(r), since, cap, (e) => e.receiver, true);
    const b1 = distinctRecent(this.in.get(s), since, cap, (e) => e.sender, true);
    const f2 = new Map<string, string>();
    for (const via of f1) {
      if (via === s || via === r) continue;
      for (const node of distinctRecent(this.out.get(via), since, cap, (e) => e.receiver, true))
        if (node !== r && node !== via && !f2.has(node)) f2.set(node, via);
    }
    const b2 = new Map<string, string>();
    for (const via of b1) {
      if (via === s || via === r) continue;
      for (const node of distinctRecent(this.in.get(via), since, cap, (e) => e.sender, true))
        if (node !== s && node !== via && !b2.has(node)) b2.set(node, via);
    }
    const nodes = f1.size + b1.size + f2.size + b2.size;
    const found = (path: string[]) => ({ path, nodes });
    if (f1.has(s)) return found([s, r, s]);
    for (const n of f1) if (n !== s && n !== r && b1.has(n)) return found([s, r, n, s]);
    for (const [n, via] of f2) if (n !== s && b1.has(n)) return found([s, r, via, n, s]);
    for (const n of f1) if (n !== s && n !== r && b2.has(n)) return found([s, r, n, b2.get(n)!, s]);
    for (const [n, via] of f2) {
      const back = b2.get(n);
      if (n !== s && back !== undefined && back !== via && back !== n && back !== r) return found([s, r, via, n, back, s]);
    }
    return { path: null, nodes };
  }

  /** Drops the edges and counter buckets older than their windows, and the nodes left without them. */
  private expire(now: number): void {
    for (let edge = this.edgesByAge.peek(); edge && edge.at < now - this.edgesKeptMs; edge = this.edgesByAge.peek()) {
      this.edgesByAge.take();
      if (edge.removed) continue; // already out, and its id free for another transfer
      dropOldest(this.out, edge.sender, edge);
      dropOldest(this.in, edge.receiver, edge);
      this.transactionIds.delete(edge.transactionId);
    }
    for (let bucket = this.bucketsByAge.peek(); bucket && bucket.minute < now - VELOCITY_KEPT_MS; bucket = this.bucketsByAge.peek()) {
      this.bucketsByAge.take();
      dropOldest(this.velocity, bucket.key, bucket);
    }
  }
}

/** Takes `item` out of `key`'s list, where it is (almost always) the oldest; a list left empty goes. */
function dropOldest<T>(map: Map<string, T[]>, key: string, item: T): void {
  const list = map.get(key);
  if (!list) return;
  if (list[0] === item) list.shift();
  else {
    const i = list.indexOf(item);
    if (i >= 0) list.splice(i, 1);
  }
  if (list.length === 0) map.delete(key);
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function users(map: Map<string, Map<string, number>>, node: string): Map<string, number> {
  let seen = map.get(node);
  if (!seen) map.set(node, (seen = new Map()));
  return seen;
}

/** The distinct ends of a node's most recent `cap` edges after `after` (inclusive when `inclusive`), most recent first. */
function distinctRecent(edges: Edge[] | undefined, after: number, cap: number, end: (e: Edge) => string, inclusive: boolean): Set<string> {
  const found = new Set<string>();
  if (!edges) return found;
  for (let i = edges.length - 1, n = 0; i >= 0 && n < cap; i--, n++) {
    const e = edges[i];
    if (inclusive ? e.at < after : e.at <= after) break;
    found.add(end(e));
  }
  return found;
}

/** The accounts that used a device (or IP) after `after`: its `cap` most recent users. */
function activeUsers(seen: Map<string, number> | undefined, after: number, cap: number): string[] {
  if (!seen) return [];
  const active: Array<[string, number]> = [];
  for (const [account, lastSeen] of seen) if (lastSeen > after) active.push([account, lastSeen]);
  if (active.length > cap) active.sort((a, b) => b[1] - a[1]).length = cap;
  return active.map(([account]) => account);
}
