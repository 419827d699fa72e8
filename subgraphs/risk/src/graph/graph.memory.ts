import type pg from 'pg';
import type { Tenant } from '../../../../platform/auth/tenant.js';
import type { FactsQuery, NeighbourhoodFacts } from './graph.facts.js';
import { NONE, VelocityCounters } from './graph.velocity.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Counters are kept one hour longer than the longest window. */
const VELOCITY_KEPT_MS = DAY + HOUR;

/** A SENT edge of the kept window, between the graph's own account nodes (followed without lookups). */
interface Edge {
  transactionId: string;
  sender: AccountNode;
  receiver: AccountNode;
  at: number;
  /** Taken back out (undo) before it expired. */
  removed?: true;
}

/** What a velocity subject counts, for its holder to forget it once it is empty. */
const SENT = 0;
const RECEIVED = 1;
const DEVICE = 2;
const PAIR = 3;

/**
 * An account as the graph holds it: whether it was seen (a transfer, or the accounts table), its
 * SENT edges of the kept window either way, and its velocity subjects as sender, as receiver and,
 * per receiver, the pair's. One lookup by id reaches all of them.
 */
interface AccountNode {
  id: string;
  known: boolean;
  out: Edge[] | null;
  in: Edge[] | null;
  sent: number;
  received: number;
  pairs: Map<string, number> | null;
}

/** A device: the accounts that used it (with when they last did) and its velocity subject. */
interface DeviceNode {
  users: Map<string, number>;
  velocity: number;
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

/** A velocity subject's holder forgets it once its last minute expired. */
function forget(owner: AccountNode | DeviceNode, role: number, receiver: string | undefined): void {
  if (role === SENT) (owner as AccountNode).sent = NONE;
  else if (role === RECEIVED) (owner as AccountNode).received = NONE;
  else if (role === DEVICE) (owner as DeviceNode).velocity = NONE;
  else {
    const pairs = (owner as AccountNode).pairs!;
    pairs.delete(receiver!);
    if (!pairs.size) (owner as AccountNode).pairs = null;
  }
}

/**
 * One tenant's transaction graph as the evaluation engine needs it, in memory: the SENT edges of
 * the cycle window (and of the last 24 h), per-minute velocity counters (counted from the SENT
 * edges of the last 25 h: they are not stored), every account seen, and which accounts used each
 * device and IP address. It answers the same neighbourhood as the
 * database's tables would (same windows, caps and cycle search) without a round trip, and records
 * a transfer synchronously, so evaluations of one tenant in this process see each other exactly.
 * The database stays the durable copy (written by the group commit); a new owner loads from it.
 * Everything about an account hangs off its node, and edges point at nodes: an evaluation looks
 * up its two accounts and its device once, and the cycle search follows edges without lookups.
 */
export class TenantGraph {
  private readonly accounts = new Map<string, AccountNode>();
  private readonly devices = new Map<string, DeviceNode>();
  private readonly ipUsers = new Map<string, Map<string, number>>();
  /** Transaction ids of the edges held (a reused one is refused without a round trip). */
  private readonly transactionIds = new Set<string>();
  /**
   * Edges in the order they came, which is time order (`clock()`): what falls out of its window is
   * at the front, so expiring costs what expires, not the graph's size (the counters likewise).
   */
  private readonly edgesByAge = new Queue<Edge>();
  private readonly velocity = new VelocityCounters<AccountNode | DeviceNode, string>(forget);
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
      db.query<{
        transaction_id: string;
        sender: string;
        receiver: string;
        at: number;
        amount: number;
        currency: string;
        device_id: string | null;
      }>(
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
      const sender = graph.account(e.sender);
      const receiver = graph.account(e.receiver);
      if (e.at >= now - graph.edgesKeptMs) graph.addEdge({ transactionId: e.transaction_id, sender, receiver, at: e.at });
      if (e.at >= now - VELOCITY_KEPT_MS)
        graph.countTransfer(sender, receiver, e.device_id === null ? null : graph.device(e.device_id), e.currency, e.amount, e.at, 1);
    }
    for (const a of accounts.rows) graph.account(a.id).known = true;
    for (const d of devices.rows) graph.device(d.node).users.set(d.account_id, d.last_seen);
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
    const sender = this.accounts.get(q.sender);
    const receiver = this.accounts.get(q.receiver);
    const deviceNode = q.deviceId === null ? undefined : this.devices.get(q.deviceId);
    const fanIn = distinctRecent(receiver?.in, day, q.scanCap, SENDERS, false);
    const fanOut = distinctRecent(sender?.out, day, q.scanCap, RECEIVERS, false);
    const device = q.deviceId ? activeUsers(deviceNode?.users, day, q.scanCap) : null;
    const ip = q.ip ? activeUsers(this.ipUsers.get(q.ip), day, q.scanCap) : null;
    const cycle = this.cycle(sender, receiver, since, q.degreeCap);
    const counter = (subject: number | undefined) => this.velocity.windows(subject ?? NONE, now, q.currency);
    return {
      sender: counter(sender?.sent),
      senderAsReceiver: counter(sender?.received),
      receiver: counter(receiver?.received),
      device: counter(deviceNode?.velocity),
      pair: counter(sender?.pairs?.get(q.receiver)),
      senderKnown: sender?.known === true,
      receiverKnown: receiver?.known === true,
      fanInBefore: fanIn.size,
      fanInHasSender: sender !== undefined && fanIn.has(sender),
      fanOutBefore: fanOut.size,
      fanOutHasReceiver: receiver !== undefined && fanOut.has(receiver),
      deviceAccounts24h: device?.length ?? 0,
      deviceSenderActive24h: device?.includes(q.sender) ?? false,
      deviceUsedBySender: deviceNode?.users.has(q.sender) === true,
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
    const sender = this.account(t.sender);
    const receiver = this.account(t.receiver);
    const device = t.deviceId === null ? null : this.device(t.deviceId);
    const edge: Edge = { transactionId: t.transactionId, sender, receiver, at };
    this.addEdge(edge);
    const undo: Array<() => void> = [() => this.removeEdge(edge)];
    for (const account of sender === receiver ? [sender] : [sender, receiver]) {
      if (account.known) continue;
      account.known = true;
      undo.push(() => (account.known = false));
    }
    this.countTransfer(sender, receiver, device, t.currency, t.amount, at, 1);
    undo.push(() => this.countTransfer(sender, receiver, device, t.currency, t.amount, at, -1));
    for (const seen of [device?.users, t.ip === null ? undefined : users(this.ipUsers, t.ip)]) {
      if (seen === undefined) continue;
      const before = seen.get(t.sender);
      seen.set(t.sender, Math.max(before ?? at, at));
      undo.push(() => (before === undefined ? seen.delete(t.sender) : seen.set(t.sender, before)));
    }
    this.expire(at);
    return () => undo.reverse().forEach((u) => u());
  }

  private account(id: string): AccountNode {
    let node = this.accounts.get(id);
    if (!node) this.accounts.set(id, (node = { id, known: false, out: null, in: null, sent: NONE, received: NONE, pairs: null }));
    return node;
  }

  private device(id: string): DeviceNode {
    let node = this.devices.get(id);
    if (!node) this.devices.set(id, (node = { users: new Map(), velocity: NONE }));
    return node;
  }

  private addEdge(edge: Edge): void {
    (edge.sender.out ??= []).push(edge);
    (edge.receiver.in ??= []).push(edge);
    this.edgesByAge.push(edge);
    this.transactionIds.add(edge.transactionId);
    this.lastAt = Math.max(this.lastAt, edge.at);
  }

  private removeEdge(edge: Edge): void {
    edge.sender.out = without(edge.sender.out, edge, false);
    edge.receiver.in = without(edge.receiver.in, edge, false);
    this.transactionIds.delete(edge.transactionId);
    edge.removed = true;
  }

  /** A transfer in (`sign` 1) or out of (-1) the velocity counters of its sender, receiver, device and pair. */
  private countTransfer(
    sender: AccountNode,
    receiver: AccountNode,
    device: DeviceNode | null,
    currency: string,
    amount: number,
    at: number,
    sign: 1 | -1,
  ): void {
    const sum = sign * amount;
    const v = this.velocity;
    if (sender.sent === NONE) sender.sent = v.open(sender, SENT);
    if (receiver.received === NONE) receiver.received = v.open(receiver, RECEIVED);
    v.add(sender.sent, at, currency, sign, sum);
    v.add(receiver.received, at, currency, sign, sum);
    if (device !== null) {
      if (device.velocity === NONE) device.velocity = v.open(device, DEVICE);
      v.add(device.velocity, at, currency, sign, sum);
    }
    const pairs = (sender.pairs ??= new Map());
    let pair = pairs.get(receiver.id);
    if (pair === undefined) pairs.set(receiver.id, (pair = v.open(sender, PAIR, receiver.id)));
    v.add(pair, at, currency, sign, sum);
  }

  /**
   * The shortest cycle of 2–5 transfers closed by sender → receiver within the window: meet in the
   * middle (two hops forward from the receiver, two back from the sender), each node expanding at
   * most `cap` of its most recent edges.
   */
  private cycle(
    s: AccountNode | undefined,
    r: AccountNode | undefined,
    since: number,
    cap: number,
  ): { path: string[] | null; nodes: number } {
    const f1 = distinctRecent(r?.out, since, cap, RECEIVERS, true);
    const b1 = distinctRecent(s?.in, since, cap, SENDERS, true);
    const f2 = new Map<AccountNode, AccountNode>();
    for (const via of f1) {
      if (via === s || via === r) continue;
      for (const node of distinctRecent(via.out, since, cap, RECEIVERS, true))
        if (node !== r && node !== via && !f2.has(node)) f2.set(node, via);
    }
    const b2 = new Map<AccountNode, AccountNode>();
    for (const via of b1) {
      if (via === s || via === r) continue;
      for (const node of distinctRecent(via.in, since, cap, SENDERS, true))
        if (node !== s && node !== via && !b2.has(node)) b2.set(node, via);
    }
    const nodes = f1.size + b1.size + f2.size + b2.size;
    if (!s || !r) return { path: null, nodes };
    const found = (path: AccountNode[]) => ({ path: path.map((n) => n.id), nodes });
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

  /** Drops the edges and counter buckets older than their windows, and the subjects left without them. */
  private expire(now: number): void {
    for (let edge = this.edgesByAge.peek(); edge && edge.at < now - this.edgesKeptMs; edge = this.edgesByAge.peek()) {
      this.edgesByAge.take();
      if (edge.removed) continue; // already out, and its id free for another transfer
      edge.sender.out = without(edge.sender.out, edge, true);
      edge.receiver.in = without(edge.receiver.in, edge, true);
      this.transactionIds.delete(edge.transactionId);
    }
    this.velocity.expire(now - VELOCITY_KEPT_MS);
  }
}

const SENDERS = true;
const RECEIVERS = false;

/**
 * `list` without `item` (the oldest when `oldest`, almost always; else the newest, almost always),
 * or null once nothing is left: an account's lists go with their last edge.
 */
function without<T>(list: T[] | null, item: T, oldest: boolean): T[] | null {
  if (!list) return null;
  if (oldest && list[0] === item) list.shift();
  else {
    const i = oldest ? list.indexOf(item) : list.lastIndexOf(item);
    if (i >= 0) list.splice(i, 1);
  }
  return list.length ? list : null;
}

function users(map: Map<string, Map<string, number>>, node: string): Map<string, number> {
  let seen = map.get(node);
  if (!seen) map.set(node, (seen = new Map()));
  return seen;
}

/**
 * The distinct senders (`senders`) or receivers of a node's most recent `cap` edges after `after`
 * (inclusive when `inclusive`), most recent first.
 */
function distinctRecent(
  edges: Edge[] | null | undefined,
  after: number,
  cap: number,
  senders: boolean,
  inclusive: boolean,
): Set<AccountNode> {
  const found = new Set<AccountNode>();
  if (!edges) return found;
  for (let i = edges.length - 1, n = 0; i >= 0 && n < cap; i--, n++) {
    const e = edges[i];
    if (inclusive ? e.at < after : e.at <= after) break;
    found.add(senders ? e.sender : e.receiver);
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
