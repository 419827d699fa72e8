import pg from 'pg';
import { createTestDatabase } from '../../test/support/database.js';
import { createLogger } from '../logger.js';
import { EventStream } from './event-stream.js';
import { OutboxRelay, RELAY_BEGIN, unrelayedSql } from './outbox-relay.js';

const logger = createLogger('outbox-relay-test', 'silent');

interface PlanNode {
  'Node Type': string;
  'Shared Hit Blocks': number;
  'Shared Read Blocks': number;
  Plans?: PlanNode[];
}
const nodeTypes = (plan: PlanNode): string[] => [plan['Node Type'], ...(plan.Plans ?? []).flatMap(nodeTypes)];

describe('outbox relay', () => {
  let url: string;
  let pool: pg.Pool;
  let events: EventStream;
  let relay: OutboxRelay;
  beforeAll(async () => {
    url = await createTestDatabase();
    pool = new pg.Pool({ connectionString: url, max: 2 });
    events = new EventStream(url, logger);
    relay = new OutboxRelay({ pool, events, logger, pollMs: 60_000, retentionHours: 1, onDeliveries: () => undefined });
  });
  afterAll(async () => {
    await pool?.end();
  });

  const insertEvents = (count: number) =>
    pool.query(
      `insert into platform.outbox_events (event_id, organization_id, environment, event, resource_type, resource_id, payload, snapshot)
       select gen_random_uuid(), gen_random_uuid(), 'live', 'risk.evaluated', 'evaluation', n::text, '{"n": 1}', '{}'
         from generate_series(1, $1) n`,
      [count],
    );
  const unrelayed = async () =>
    Number((await pool.query<{ n: string }>('select count(*) as n from platform.outbox_events where relayed_at is null')).rows[0].n);

  it("walks past what it relayed before without reading those rows' pages again", async () => {
    // what a busy outbox looks like between two vacuums: thousands relayed, a few new ones
    await insertEvents(3000);
    // a transaction that keeps an older snapshot while the relay works (as an auto-analyze does on a loaded machine)
    const holder = await pool.connect();
    await holder.query('begin isolation level repeatable read');
    await holder.query('select count(*) from platform.outbox_events');
    await relay.relay();
    // the planner's statistics taken while a few hundred waited (fewer than a chunk: what makes it prefer a bitmap scan)
    await insertEvents(600);
    await pool.query('analyze platform.outbox_events');
    await relay.relay();
    await insertEvents(5);
    // the relay's own statement, in its own transaction's settings: twice (the first run may mark the dead entries)
    const client = await pool.connect();
    try {
      // a planner that would read the whole table or a bitmap of it, as it chose a bitmap in the stack at 500 events/s (its statistics there; random reads priced high here)
      await client.query('set random_page_cost = 40');
      // an index scan marks an entry dead only when no snapshot in the database can still see its row: an
      // auto-analyze running on a loaded machine holds one (the run that read 88 pages); wait until none does
      const others = async () =>
        Number(
          (
            await client.query<{ n: string }>(
              `select count(*) as n from pg_stat_activity
                where datname = current_database() and pid <> pg_backend_pid() and backend_xmin is not null`,
            )
          ).rows[0].n,
        );
      // it ends a little later, on its own
      setTimeout(() => void holder.query('commit').finally(() => holder.release()), 200);
      for (const started = Date.now(); (await others()) > 0;) {
        if (Date.now() - started > 30_000) throw new Error('another transaction kept its snapshot open for 30 s');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const pages: number[] = [];
      const nodes: string[] = [];
      for (let run = 0; run < 2; run++) {
        await client.query(RELAY_BEGIN);
        const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
          `explain (analyze, buffers, format json) ${unrelayedSql(false)}`,
        );
        await client.query('rollback');
        const plan = rows[0]['QUERY PLAN'][0].Plan;
        pages.push(plan['Shared Hit Blocks'] + plan['Shared Read Blocks']);
        nodes.push(...nodeTypes(plan));
      }
      // the table's rows fill ≈ 150 pages; once their index entries are marked dead, the five new rows cost a few pages
      expect(nodes).toContain('Index Scan');
      expect(pages[1]).toBeLessThanOrEqual(20);
    } finally {
      client.release();
    }
    expect(await unrelayed()).toBe(5);
    await relay.relay();
    expect(await unrelayed()).toBe(0);
  });
});
