import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createTestDatabase } from '../../../../test/support/database.js';
import type { FactsQuery } from './graph.facts.js';
import { TenantGraph } from './graph.memory.js';
import { GroupCommit, type Written } from '../evaluation/evaluation.commit.js';
import { createLogger } from '../../../../platform/logger.js';
import { evaluationOf } from '../../../../test/support/risk-evaluations.js';
import { DEFAULT_THRESHOLDS, detectPatterns, PATTERN_WEIGHTS, type RawGraphFacts } from './graph.patterns.js';

const HOUR = 3_600_000;

/** A neighbourhood query: sender → receiver in KES, no device or IP, a 72 h cycle window, generous caps. */
const queryOf = (sender: string, receiver: string, over: Partial<FactsQuery> = {}) => ({
  sender,
  receiver,
  currency: 'KES',
  deviceId: null,
  ip: null,
  cycleWindowHours: 72,
  degreeCap: 50,
  scanCap: 1000,
  ...over,
});

describe('graph detectors', () => {
  describe('patterns from facts (pure)', () => {
    const raw = (over: Partial<RawGraphFacts> = {}): RawGraphFacts => ({
      sender: 's',
      receiver: 'r',
      deviceId: null,
      cyclePath: null,
      fanIn: 1,
      fanOut: 1,
      deviceAccounts: 0,
      receivedCount1h: 0,
      receivedSum1h: 0,
      sentSum1h: 0,
      amount: 100,
      ...over,
    });

    it('finds nothing in a quiet neighbourhood', () => {
      expect(detectPatterns(raw())).toEqual({ patterns: [], passThrough: false, passThroughRatio: 0 });
    });

    it('reports each pattern at its threshold, not below', () => {
      const t = DEFAULT_THRESHOLDS;
      expect(detectPatterns(raw({ fanIn: t.fanIn - 1 })).patterns).toEqual([]);
      expect(detectPatterns(raw({ fanIn: t.fanIn })).patterns).toEqual([
        { type: 'fan_in', weight: PATTERN_WEIGHTS.fan_in, accounts: ['r'], count: t.fanIn },
      ]);
      expect(detectPatterns(raw({ fanOut: t.fanOut })).patterns[0]).toMatchObject({ type: 'fan_out', accounts: ['s'], count: t.fanOut });
      expect(detectPatterns(raw({ deviceId: 'd', deviceAccounts: t.sharedDevice })).patterns[0]).toMatchObject({
        type: 'shared_device',
        device: 'd',
        count: t.sharedDevice,
      });
      expect(detectPatterns(raw({ deviceId: null, deviceAccounts: 99 })).patterns).toEqual([]);
      expect(detectPatterns(raw({ cyclePath: ['s', 'r', 'x', 's'] })).patterns[0]).toMatchObject({
        type: 'cycle',
        length: 3,
        accounts: ['s', 'r', 'x', 's'],
      });
    });

    it('rapid pass-through: forwarding 80–125% of what came in within the hour', () => {
      expect(detectPatterns(raw({ receivedCount1h: 1, receivedSum1h: 1000, sentSum1h: 0, amount: 900 })).patterns[0]).toMatchObject({
        type: 'rapid_pass_through',
        ratio: 0.9,
      });
      expect(detectPatterns(raw({ receivedCount1h: 1, receivedSum1h: 1000, sentSum1h: 0, amount: 500 })).passThrough).toBe(false);
      // sending far more than was received is the account's own money
      expect(detectPatterns(raw({ receivedCount1h: 1, receivedSum1h: 1000, sentSum1h: 0, amount: 5000 })).passThrough).toBe(false);
      expect(detectPatterns(raw({ receivedCount1h: 0, receivedSum1h: 0, amount: 5000 })).passThrough).toBe(false);
    });
  });

  describe('expiry in memory', () => {
    const transfer = (transactionId: string, sender = 'a', receiver = 'b') => ({
      transactionId,
      sender,
      receiver,
      amount: 10,
      currency: 'KES',
      deviceId: null,
      ip: null,
    });
    const query = queryOf('a', 'b');
    const t0 = Date.UTC(2026, 10, 1);

    it('an edge leaves memory as soon as it falls out of the window, however recently the last one did', () => {
      const graph = new TenantGraph(72 * HOUR);
      graph.record(transfer('old'), t0);
      graph.record(transfer('recent'), t0 + 72 * HOUR - 10_000);
      graph.record(transfer('now'), t0 + 72 * HOUR + 20_000);
      expect(graph.has('old')).toBe(false);
      expect(graph.has('recent')).toBe(true);
    });

    it('an id taken back out and recorded again stays while its new edge is in the window', () => {
      const graph = new TenantGraph(72 * HOUR);
      graph.record(transfer('x'), t0)();
      graph.record(transfer('x', 'c', 'd'), t0 + HOUR);
      graph.record(transfer('later'), t0 + 72 * HOUR + 60_000);
      expect(graph.has('x')).toBe(true);
      graph.record(transfer('last'), t0 + 73 * HOUR + 60_000);
      expect(graph.has('x')).toBe(false);
    });

    it('a week of transfers: the counters and edges answer for their windows only', () => {
      const graph = new TenantGraph(72 * HOUR);
      let at = t0;
      for (let i = 0; i < 7 * 24 * 6; i++, at += 10 * 60_000) graph.record(transfer(`t${i}`, i % 2 ? 'a' : 'b', i % 2 ? 'b' : 'a'), at);
      const n = graph.neighbourhood(query, at);
      expect(n.sender.count24h).toBe(72); // one a → b transfer every 20 minutes
      expect(n.senderAsReceiver.count24h).toBe(71); // b → a, the last one 20 minutes ago
      expect(n.pair.count24h).toBe(72);
      expect(graph.has('t0')).toBe(false);
      expect(graph.has(`t${7 * 24 * 6 - 72 * 6 + 1}`)).toBe(true);
    });
  });

  describe('the neighbourhood of a graph loaded from the real tables (written by the group commit)', () => {
    let pool: pg.Pool;
    let commit: GroupCommit;
    const now = new Date();
    let tenant: { organizationId: string; environment: string };

    beforeAll(async () => {
      const url = await createTestDatabase();
      pool = new pg.Pool({ connectionString: url, max: 2 });
      commit = new GroupCommit(pool, createLogger('test', 'silent'));
    });
    afterAll(async () => {
      await pool?.end();
    });
    beforeEach(() => {
      tenant = { organizationId: randomUUID(), environment: 'live' };
    });

    const send = (
      sender: string,
      receiver: string,
      at = now,
      amount = 100,
      extra: { deviceId?: string; ip?: string; currency?: string } = {},
    ) =>
      commit.write(evaluationOf(tenant, { sender, receiver, amount, currency: extra.currency ?? 'KES', at }), {
        deviceId: extra.deviceId ?? null,
        ip: extra.ip ?? null,
      });
    const facts = async (sender: string, receiver: string, over: Partial<FactsQuery> = {}) => {
      const q = queryOf(sender, receiver, over);
      const graph = await TenantGraph.load(pool, over.tenant ?? tenant, q.cycleWindowHours, now.getTime());
      return graph.neighbourhood(q, now.getTime());
    };

    it('finds the shortest cycle of length 2, 3, 4 and 5 closed by sender → receiver, with its path', async () => {
      await send('b', 'a');
      expect((await facts('a', 'b')).cyclePath).toEqual(['a', 'b', 'a']);

      tenant = { organizationId: randomUUID(), environment: 'live' };
      await send('b', 'x');
      await send('x', 'a');
      expect((await facts('a', 'b')).cyclePath).toEqual(['a', 'b', 'x', 'a']);

      tenant = { organizationId: randomUUID(), environment: 'live' };
      for (const [s, r] of [
        ['b', 'x'],
        ['x', 'y'],
        ['y', 'a'],
      ])
        await send(s, r);
      expect((await facts('a', 'b')).cyclePath).toEqual(['a', 'b', 'x', 'y', 'a']);

      tenant = { organizationId: randomUUID(), environment: 'live' };
      for (const [s, r] of [
        ['b', 'x'],
        ['x', 'y'],
        ['y', 'z'],
        ['z', 'a'],
      ])
        await send(s, r);
      const five = await facts('a', 'b');
      expect(five.cyclePath).toEqual(['a', 'b', 'x', 'y', 'z', 'a']);
      expect(five.nodesTraversed).toBeGreaterThanOrEqual(2 + 4);
    });

    it('does not report cycles longer than 5, outside the window, or in another tenant', async () => {
      for (const [s, r] of [
        ['b', 'x'],
        ['x', 'y'],
        ['y', 'z'],
        ['z', 'w'],
        ['w', 'a'],
      ])
        await send(s, r);
      expect((await facts('a', 'b')).cyclePath).toBeNull();

      tenant = { organizationId: randomUUID(), environment: 'live' };
      await send('b', 'a', new Date(now.getTime() - 80 * HOUR));
      expect((await facts('a', 'b')).cyclePath).toBeNull();
      expect((await facts('a', 'b', { cycleWindowHours: 100 })).cyclePath).toEqual(['a', 'b', 'a']);

      const owner = tenant;
      tenant = { organizationId: randomUUID(), environment: 'live' };
      expect((await facts('a', 'b', { cycleWindowHours: 100 })).cyclePath).toBeNull();
      tenant = { organizationId: owner.organizationId, environment: 'test' };
      expect((await facts('a', 'b', { cycleWindowHours: 100 })).cyclePath).toBeNull();
    });

    it('expands at most degreeCap edges per node (most recent first): bounded work on hubs', async () => {
      // a → b → hub → x → y → a: the hub's edge to x is older than its 5 edges to m0…m4
      await send('b', 'hub', new Date(now.getTime() - 3 * HOUR));
      await send('hub', 'x', new Date(now.getTime() - 2 * HOUR));
      await send('x', 'y', new Date(now.getTime() - 2 * HOUR));
      await send('y', 'a', new Date(now.getTime() - 2 * HOUR));
      for (let i = 0; i < 5; i++) await send('hub', `m${i}`, new Date(now.getTime() - HOUR + i * 1000));
      const wide = await facts('a', 'b', { degreeCap: 10 });
      expect(wide.cyclePath).toEqual(['a', 'b', 'hub', 'x', 'y', 'a']);
      // at cap 2 the hub expands only to m3, m4: the cycle is out of reach, and fewer nodes are visited
      const capped = await facts('a', 'b', { degreeCap: 2 });
      expect(capped.cyclePath).toBeNull();
      expect(capped.nodesTraversed).toBeLessThan(wide.nodesTraversed);
    });

    it('velocity counters: 1 h and 24 h windows, sums in the transaction currency, pair and sender-as-receiver', async () => {
      await send('s', 'r1', new Date(now.getTime() - 10 * 60_000), 100);
      await send('s', 'r2', new Date(now.getTime() - 30 * 60_000), 200);
      await send('s', 'r1', new Date(now.getTime() - 5 * HOUR), 400);
      await send('s', 'r1', new Date(now.getTime() - 30 * HOUR), 800); // outside 24 h
      await send('s', 'r3', new Date(now.getTime() - 20 * 60_000), 1_000, { currency: 'UGX' });
      await send('p', 's', new Date(now.getTime() - 15 * 60_000), 250);
      const f = await facts('s', 'r1');
      expect(f.sender).toEqual({ count1h: 3, sum1h: 300, count24h: 4, sum24h: 700 });
      expect(f.pair).toEqual({ count1h: 1, sum1h: 100, count24h: 2, sum24h: 500 });
      expect(f.senderAsReceiver).toEqual({ count1h: 1, sum1h: 250, count24h: 1, sum24h: 250 });
      expect(f.receiver.count24h).toBe(2);
      expect(f.fanOutBefore).toBe(3);
      expect(f.fanOutHasReceiver).toBe(true);
      expect(f.senderKnown).toBe(true);
      expect((await facts('new-1', 'new-2')).senderKnown).toBe(false);
    });

    it('a graph recorded in memory answers as the same graph written in batches and loaded from the tables', async () => {
      let seed = 7;
      const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
      const accounts = Array.from({ length: 10 }, (_, i) => `acc${i}`);
      const memory = new TenantGraph(72 * HOUR);
      let at = now.getTime() - 30 * HOUR;
      const writes: Promise<Written>[] = [];
      for (let i = 0; i < 400; i++) {
        at += Math.floor(random() * 9 * 60_000);
        const sender = pick(accounts);
        const receiver = pick(accounts.filter((a) => a !== sender));
        const t = {
          transactionId: `t${i}`,
          sender,
          receiver,
          amount: 1 + Math.floor(random() * 500),
          currency: pick(['KES', 'UGX']),
          deviceId: random() < 0.5 ? pick(['d1', 'd2', 'd3']) : null,
          ip: random() < 0.5 ? pick(['10.0.0.1', '10.0.0.2']) : null,
        };
        memory.record(t, at);
        // all at once: the group commit writes them in batches (rows of one minute and subject grouped)
        writes.push(
          send(sender, receiver, new Date(at), t.amount, {
            currency: t.currency,
            deviceId: t.deviceId ?? undefined,
            ip: t.ip ?? undefined,
          }),
        );
      }
      expect(await Promise.all(writes)).toEqual(writes.map(() => 'written'));
      expect(commit.batches).toBeLessThan(400);
      const when = at + 60_000;
      const loaded = await TenantGraph.load(pool, tenant, 72, when);
      for (let i = 0; i < 60; i++) {
        const sender = pick(accounts);
        const q = {
          sender,
          receiver: pick([...accounts.filter((a) => a !== sender), 'new']),
          currency: pick(['KES', 'UGX']),
          deviceId: pick(['d1', 'd2', 'd3', null]),
          ip: pick(['10.0.0.1', '10.0.0.2', null]),
          cycleWindowHours: 72,
          degreeCap: pick([2, 50]),
          scanCap: pick([3, 1000]),
        };
        expect(loaded.neighbourhood(q, when)).toEqual(memory.neighbourhood(q, when));
      }
    });

    it('a transaction id already stored is refused by the group commit, and recording it again can be undone', async () => {
      const first = evaluationOf(tenant, { sender: 'u1', receiver: 'u2', amount: 10, currency: 'KES', at: now, transactionId: 'same' });
      const again = evaluationOf(tenant, { sender: 'u1', receiver: 'u3', amount: 20, currency: 'KES', at: now, transactionId: 'same' });
      expect(await Promise.all([commit.write(first, null), commit.write(again, null)])).toEqual(['written', 'duplicate']);

      const graph = new TenantGraph(72 * HOUR);
      const q = queryOf('u1', 'u2', { deviceId: 'd' });
      const before = graph.neighbourhood(q, now.getTime());
      const undo = graph.record(
        { transactionId: 'x', sender: 'u1', receiver: 'u2', amount: 5, currency: 'KES', deviceId: 'd', ip: '10.1.1.1' },
        now.getTime(),
      );
      expect(graph.has('x')).toBe(true);
      expect(graph.neighbourhood(q, now.getTime()).sender.count1h).toBe(1);
      undo();
      expect(graph.has('x')).toBe(false);
      expect(graph.neighbourhood(q, now.getTime())).toEqual(before);
    });

    it('fan-in, shared devices and IPs count distinct accounts in 24 h', async () => {
      for (let i = 0; i < 7; i++) await send(`payer${i}`, 'mule', now, 50, { deviceId: i < 4 ? 'dev-1' : undefined, ip: '10.0.0.9' });
      await send('payer0', 'mule', new Date(now.getTime() - 30 * HOUR), 50, { deviceId: 'dev-1' });
      const f = await facts('payer9', 'mule', { deviceId: 'dev-1', ip: '10.0.0.9' });
      expect(f.fanInBefore).toBe(7);
      expect(f.fanInHasSender).toBe(false);
      expect(f.deviceAccounts24h).toBe(4);
      expect(f.deviceUsedBySender).toBe(false);
      expect(f.ipAccounts24h).toBe(7);
      const own = await facts('payer1', 'mule', { deviceId: 'dev-1' });
      expect(own.deviceUsedBySender).toBe(true);
      expect(own.deviceSenderActive24h).toBe(true);
    });
  });
});
