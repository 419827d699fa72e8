import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createTestDatabase } from '../../../../test/support/database.js';
import { readNeighbourhood, type FactsQuery } from './graph.facts.js';
import { recordTransfer } from './graph.store.js';
import { DEFAULT_THRESHOLDS, detectPatterns, PATTERN_WEIGHTS, type RawGraphFacts } from './graph.patterns.js';

const HOUR = 3_600_000;

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

  describe('neighbourhood SQL over the real tables', () => {
    let pool: pg.Pool;
    let client: pg.PoolClient;
    const now = new Date();
    let tenant: { organizationId: string; environment: string };

    beforeAll(async () => {
      const url = await createTestDatabase();
      pool = new pg.Pool({ connectionString: url, max: 2 });
      client = await pool.connect();
    });
    afterAll(async () => {
      client?.release();
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
      recordTransfer(client, tenant, {
        transactionId: randomUUID(),
        sender,
        receiver,
        amount,
        currency: extra.currency ?? 'KES',
        channel: null,
        deviceId: extra.deviceId ?? null,
        ip: extra.ip ?? null,
        at,
      });
    const facts = (sender: string, receiver: string, over: Partial<FactsQuery> = {}) =>
      readNeighbourhood(client, {
        tenant,
        sender,
        receiver,
        currency: 'KES',
        deviceId: null,
        ip: null,
        now,
        cycleWindowHours: 72,
        degreeCap: 50,
        scanCap: 1000,
        ...over,
      });

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
