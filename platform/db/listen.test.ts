import pg from 'pg';
import { createTestDatabase, eventually } from '../../test/support/stack.js';
import { createLogger } from '../logger.js';
import { listen, type ListenOptions } from './listen.js';

const logger = createLogger('listen-test', 'silent');

describe('listen', () => {
  let url: string;
  let admin: pg.Client;

  beforeAll(async () => {
    url = await createTestDatabase();
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
  });
  afterAll(() => admin.end());

  /** Backends of this database holding a LISTEN (their last statement was one). */
  const listeningBackends = async () =>
    (
      await admin.query<{ pid: number }>(
        `select pid from pg_stat_activity where datname = current_database() and query ~* '^(un)?listen ' and pid <> pg_backend_pid()`,
      )
    ).rows.map((r) => r.pid);

  const listener = (channel: string) => {
    const heard: Array<string | undefined> = [];
    const calls: string[] = [];
    const opts: ListenOptions = {
      connection: url,
      channel,
      logger,
      onNotification: (payload) => heard.push(payload),
      onDisconnect: () => calls.push('disconnect'),
      onReconnect: () => calls.push('reconnect'),
    };
    return { opts, heard, calls };
  };

  it('listens on every channel of a process over one connection, each channel hearing its own notices', async () => {
    const a = listener('listen_test_a');
    const b = listener('listen_test_b');
    const b2 = listener('listen_test_b');
    const stops = [await listen(a.opts), await listen(b.opts), await listen(b2.opts)];
    expect(await listeningBackends()).toHaveLength(1);

    await admin.query(`select pg_notify('listen_test_a', 'one'), pg_notify('listen_test_b', 'two')`);
    await eventually(async () => a.heard.length === 1 && b.heard.length === 1 && b2.heard.length === 1);
    expect([a.heard, b.heard, b2.heard]).toEqual([['one'], ['two'], ['two']]);

    // one listener of a channel stops: the others still hear theirs
    await stops[1].stop();
    await admin.query(`select pg_notify('listen_test_a', 'three'), pg_notify('listen_test_b', 'four')`);
    await eventually(async () => a.heard.length === 2 && b2.heard.length === 2);
    expect(b.heard).toEqual(['two']);

    // the last one stops: the connection is closed
    await stops[0].stop();
    await stops[2].stop();
    await eventually(async () => (await listeningBackends()).length === 0);
  });

  it('comes back after the server ended its connection, listening again on every channel', async () => {
    const a = listener('listen_test_c');
    const b = listener('listen_test_d');
    const stops = [await listen(a.opts), await listen(b.opts)];
    const [pid] = await listeningBackends();
    await admin.query('select pg_terminate_backend($1)', [pid]);
    await eventually(async () => a.calls.length === 2 && b.calls.length === 2, 10_000);
    expect([a.calls, b.calls]).toEqual([
      ['disconnect', 'reconnect'],
      ['disconnect', 'reconnect'],
    ]);
    expect(await listeningBackends()).toHaveLength(1);

    await admin.query(`select pg_notify('listen_test_c', 'after'), pg_notify('listen_test_d', 'after')`);
    await eventually(async () => a.heard.length === 1 && b.heard.length === 1);
    for (const s of stops) await s.stop();
  });
});
