import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createTestDatabase, eventually } from './support/database.js';
import { natsUnavailable, startNatsServer, type NatsServer } from './support/nats.js';
import { createLogger } from '../platform/logger.js';
import { loadConfig } from '../platform/config.js';
import { NatsBus } from '../platform/events/nats-bus.js';
import { EventStream, type ChannelOptions, type OutboxNotice } from '../platform/events/event-stream.js';
import { OutboxRelay } from '../platform/events/outbox-relay.js';
import { BusBridge } from '../platform/events/bus-bridge.js';
import { insertEvents } from '../platform/events/outbox.js';
import { startEdgeAuthenticator } from '../platform/auth/authenticate.js';
import { API_CLIENT_CHANGED_CHANNEL } from '../platform/auth/api-client.service.js';
import { RuleCache } from '../subgraphs/risk/src/rules/rule.cache.js';
import { BUS_CHANNELS } from '../cli/stack.js';
import { ScreeningEngine } from '../screening/index.js';
import { LISTS_CHANNEL } from '../screening/lists/store.js';
import { listIndividuals } from './support/lists.js';

const skip = natsUnavailable();
if (skip) console.warn(skip);

/**
 * The NATS transport piece by piece, as two processes see it: the writer (relay and bridge on its
 * own bus connection) and a listener that never LISTENs on PostgreSQL (a gateway's process).
 */
(skip ? describe.skip : describe)('the NATS event bus', () => {
  const logger = createLogger('test', 'silent');
  let nats: NatsServer;
  let url: string;
  let pool: pg.Pool;
  let writerBus: NatsBus;
  let readerBus: NatsBus;
  let writer: EventStream;
  let reader: EventStream;
  let relay: OutboxRelay;
  let bridge: BusBridge;
  beforeAll(async () => {
    nats = await startNatsServer();
    url = await createTestDatabase();
    pool = new pg.Pool({ connectionString: url, max: 4 });
    [writerBus, readerBus] = await Promise.all([NatsBus.connect(nats.url, logger), NatsBus.connect(nats.url, logger)]);
    writer = new EventStream(url, logger, writerBus);
    reader = new EventStream(url, logger, readerBus);
    await Promise.all([writer.start(), reader.start()]);
    relay = new OutboxRelay({ pool, events: writer, logger, pollMs: 60_000, retentionHours: 1, onDeliveries: () => undefined });
    relay.start();
    bridge = new BusBridge({
      databaseUrl: url,
      bus: writerBus,
      logger,
      channels: BUS_CHANNELS,
      onOutbox: () => relay.wake(),
      retryMs: 60_000,
    });
    await bridge.start();
  });
  afterAll(async () => {
    await bridge?.stop();
    await relay?.stop();
    await reader?.stop();
    await writer?.stop();
    await readerBus?.close();
    await writerBus?.close();
    await pool?.end();
    await nats?.stop();
  });

  const organizationId = randomUUID();
  const event = (resourceId: string) => ({
    organizationId,
    environment: 'test',
    event: 'identity.updated',
    resourceType: 'identity_verification',
    resourceId,
    data: { id: resourceId },
    snapshot: { id: resourceId, overallStatus: 'PENDING' },
  });
  /** Collects what a subscriber of the reader gets for `organizationId`. */
  const collect = () => {
    const seen: OutboxNotice[] = [];
    const iterator = reader.subscribe((n) => n.organizationId === organizationId);
    void (async () => {
      for await (const e of iterator) seen.push(e);
    })();
    return { seen, stop: () => iterator.return!() };
  };

  it('delivers a committed event with its payload and snapshot, woken by the bridge (no poll, no LISTEN on the reader)', async () => {
    expect(bridge.holding).toBe(true);
    const sub = collect();
    await insertEvents(pool, [event('one')]);
    await eventually(async () => sub.seen.length === 1, 5_000, 5);
    expect(sub.seen[0]).toMatchObject({
      resourceId: 'one',
      snapshot: { id: 'one', overallStatus: 'PENDING' },
      payload: { data: { id: 'one' } },
    });
    await sub.stop();
  });

  it('an event published twice (a relay that died between publish and commit) reaches a subscriber once', async () => {
    const sub = collect();
    // a relay whose commit never happens: the UPDATE that marks the rows relayed fails after the publish
    const dying = new OutboxRelay({
      pool: {
        connect: async () => {
          const client = await pool.connect();
          return new Proxy(client, {
            get: (target, key) =>
              key === 'query'
                ? (text: string, values?: unknown[]) => {
                    if (typeof text === 'string' && text.startsWith('update platform.outbox_events set relayed_at'))
                      throw new Error('died');
                    return target.query(text, values);
                  }
                : Reflect.get(target, key, target),
          });
        },
      } as unknown as pg.Pool,
      events: writer,
      logger,
      pollMs: 60_000,
      retentionHours: 1,
      onDeliveries: () => undefined,
    });
    await bridge.stop(); // nothing else relays meanwhile
    await relay.stop();
    await insertEvents(pool, [event('twice')]);
    await expect(dying.relay()).rejects.toThrow('died');
    const { rows } = await pool.query(`select event_id, relayed_at from platform.outbox_events where resource_id = 'twice'`);
    expect(rows[0].relayed_at).toBeNull();
    // the next relay publishes it again (JetStream drops the repeat by Nats-Msg-Id) and commits
    await new OutboxRelay({ pool, events: writer, logger, pollMs: 60_000, retentionHours: 1, onDeliveries: () => undefined }).relay();
    // past JetStream's duplicate window, the subscriber drops an id it delivered
    await writerBus.publish(
      'platform.outbox',
      JSON.stringify({
        ...event('twice'),
        id: '0',
        eventId: rows[0].event_id,
        userId: null,
        payload: { event: 'identity.updated', timestamp: '', data: {} },
      }),
      randomUUID(),
    );
    // a later event, in the same stream: once it arrived, every repeat before it would have too
    await insertEvents(pool, [event('after')]);
    await new OutboxRelay({ pool, events: writer, logger, pollMs: 60_000, retentionHours: 1, onDeliveries: () => undefined }).relay();
    await eventually(async () => sub.seen.some((e) => e.resourceId === 'after'), 5_000, 5);
    expect(sub.seen.map((e) => e.resourceId)).toEqual(['twice', 'after']);
    await sub.stop();
    relay = new OutboxRelay({ pool, events: writer, logger, pollMs: 60_000, retentionHours: 1, onDeliveries: () => undefined });
    relay.start();
    bridge = new BusBridge({
      databaseUrl: url,
      bus: writerBus,
      logger,
      channels: BUS_CHANNELS,
      onOutbox: () => relay.wake(),
      retryMs: 60_000,
    });
    await bridge.start();
  });

  it('keeps the order of one resource’s events', async () => {
    const sub = collect();
    for (let i = 0; i < 20; i++) await insertEvents(pool, [{ ...event('ordered'), data: { i } }]);
    await eventually(async () => sub.seen.length === 20, 10_000, 10);
    expect(sub.seen.map((e) => (e as any).payload.data.i)).toEqual([...Array(20).keys()]);
    await sub.stop();
  });

  it('a rule change committed anywhere reloads the rules of the reader’s cache, over the bus', async () => {
    const cache = new RuleCache(reader, pool, logger);
    await cache.start();
    const tenant = { organizationId: randomUUID(), environment: 'live' };
    await pool.query(`insert into risk.rule_sets (organization_id, environment, revision) values ($1, $2, 1)`, [
      tenant.organizationId,
      tenant.environment,
    ]);
    await cache.rulesAt(pool, tenant, '1');
    await pool.query(`update risk.rule_sets set revision = 2 where organization_id = $1`, [tenant.organizationId]);
    await eventually(async () => cache.notifiedReloads === 1, 5_000, 5);
    await eventually(async () => cache.peek(tenant, '2'), 5_000, 5);
    await cache.stop();
  });

  it('a list snapshot imported anywhere reloads the reader’s screening index, over the bus (no LISTEN of its own)', async () => {
    // the engine's notices come through the process's event stream (here: over NATS), not a LISTEN of its own
    const channels: string[] = [];
    const events = { listen: (o: ChannelOptions) => (channels.push(o.channel), reader.listen(o)) };
    const engine = new ScreeningEngine({ pool, logger, events, pollMs: 0 });
    await engine.start();
    expect(channels).toEqual([LISTS_CHANNEL]);
    const before = engine.size;
    await listIndividuals(url, ['Bus Carried Person'], 'QDi.BUS');
    await eventually(async () => engine.search({ fullName: 'Bus Carried Person' }).length > 0, 10_000, 10);
    expect(engine.size).toBeGreaterThan(before);
    await engine.stop();
  });

  it('an API client revoked by another process is dropped from the reader’s cache, over the bus', async () => {
    const auth = await startEdgeAuthenticator({
      pool,
      events: reader,
      adminSecret: 'test-admin-secret-0123456789',
      internalSecret: 'test-internal-secret-0123456789',
      organizationRateLimit: 1_000,
      logger,
    });
    const id = randomUUID();
    const heard = new Promise<string | undefined>((resolve) => auth.onClientChanged((clientId) => clientId === id && resolve(clientId)));
    // as the admin route of another process commits it
    await pool.query('select pg_notify($1, $2)', [API_CLIENT_CHANGED_CHANNEL, id]);
    await expect(heard).resolves.toBe(id);
    await auth.stop();
  });

  it('a bridge that takes over publishes a reset: listeners reload what they may have missed', async () => {
    let resets = 0;
    const listening = await reader.listen({
      channel: API_CLIENT_CHANGED_CHANNEL,
      logger,
      onNotification: () => undefined,
      onReconnect: () => resets++,
    });
    await bridge.stop();
    bridge = new BusBridge({
      databaseUrl: url,
      bus: writerBus,
      logger,
      channels: BUS_CHANNELS,
      onOutbox: () => relay.wake(),
      retryMs: 60_000,
    });
    await bridge.start();
    await eventually(async () => resets === 1, 5_000, 5);
    await listening.stop();
  });
});

describe('EVENT_BUS', () => {
  it('is PostgreSQL by default; a NATS URL is accepted; anything else stops the start with the variable named', () => {
    expect(loadConfig({}).EVENT_BUS).toBeUndefined();
    expect(loadConfig({ EVENT_BUS: 'postgres' }).EVENT_BUS).toBeUndefined();
    expect(loadConfig({ EVENT_BUS: 'nats://a:4222,nats://b:4222' }).EVENT_BUS).toBe('nats://a:4222,nats://b:4222');
    for (const bad of ['http://nats:4222', 'nats//host', 'redis://x:6379'])
      expect(() => loadConfig({ EVENT_BUS: bad })).toThrow(/EVENT_BUS/);
  });

  it('a NATS server that does not answer is a clear startup error', async () => {
    await expect(NatsBus.connect('nats://127.0.0.1:1', createLogger('test', 'silent'))).rejects.toThrow(
      /EVENT_BUS: cannot connect to NATS/,
    );
  });
});
