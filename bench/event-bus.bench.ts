import path from 'node:path';
import { createInterface } from 'node:readline';
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { BENCH_DIR, benchDatabase, f1, f2, spawnNode, table, type Spawned } from './support/processes.js';
import { cpuSeconds } from './support/cpu.js';
import { startNatsServer } from '../test/support/nats.js';
import { natsUnavailable } from '../test/support/nats.js';
import { createLogger } from '../platform/logger.js';
import { NatsBus } from '../platform/events/nats-bus.js';
import { EventStream } from '../platform/events/event-stream.js';
import { OutboxRelay } from '../platform/events/outbox-relay.js';
import { BusBridge } from '../platform/events/bus-bridge.js';
import { insertEvents } from '../platform/events/outbox.js';
import { BUS_CHANNELS } from '../cli/stack.js';

/**
 * Event bus (issue 33, item 4): LISTEN/NOTIFY against NATS JetStream (`EVENT_BUS`), with 1, 4 and 8
 * "gateway" processes (EVENT_BUS_BENCH_PROCESSES) each holding EVENT_BUS_BENCH_SUBSCRIBERS (50)
 * subscribers on its EventStream. A writer process (this one: the outbox relay, and on NATS the
 * bridge that wakes it) commits EVENT_BUS_BENCH_EVENTS (200) events one after another, each once
 * the previous reached every subscriber. Fan-out latency: from the commit's return to each
 * subscriber's arrival, p50/p99, and the last subscriber per event (p50). Database load per event:
 * the transactions committed and blocks read or hit (`pg_stat_database`), the CPU of the PostgreSQL
 * processes, and the backends connected while listening. Everything in one run, ratios NATS/PG.
 */
const PROCESSES = (process.env.EVENT_BUS_BENCH_PROCESSES ?? '1,4,8').split(',').map(Number);
const SUBSCRIBERS = Number(process.env.EVENT_BUS_BENCH_SUBSCRIBERS ?? 50);
const EVENTS = Number(process.env.EVENT_BUS_BENCH_EVENTS ?? 200);
const ORG = '00000000-0000-4000-8000-00000000b005';

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;
const now = () => performance.timeOrigin + performance.now();

/** The server processes (postmaster and backends) of the PostgreSQL listening on `port`: this bench's cluster, not the machine's others. */
function postgresPids(port: string): number[] {
  const all = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(Number);
  const read = (pid: number, file: string) => {
    try {
      return readFileSync(`/proc/${pid}/${file}`, 'utf8');
    } catch {
      return '';
    }
  };
  const postmaster = all.find((pid) => read(pid, 'comm').trim() === 'postgres' && read(pid, 'cmdline').split('\0').includes(port));
  if (!postmaster) return [];
  return [postmaster, ...all.filter((pid) => new RegExp(`^PPid:\\s+${postmaster}$`, 'm').test(read(pid, 'status')))];
}
/** CPU seconds of those processes, by pid (a backend that exits takes its CPU with it: compare the same pids). */
const postgresCpu = (port: string) => new Map(postgresPids(port).map((pid) => [pid, cpuSeconds(pid) || 0]));
const cpuBetween = (before: Map<number, number>, after: Map<number, number>) =>
  [...after].reduce((sum, [pid, s]) => sum + s - (before.get(pid) ?? 0), 0);

interface Result {
  p50: number;
  p99: number;
  lastP50: number;
  xactPerEvent: number;
  blocksPerEvent: number;
  pgCpuMsPerEvent: number;
  backends: number;
}

async function measure(databaseUrl: string, natsUrl: string | null, processes: number): Promise<Result> {
  const logger = createLogger('bench-bus', 'warn');
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  const bus = natsUrl ? await NatsBus.connect(natsUrl, logger) : null;
  const events = new EventStream(databaseUrl, logger, bus);
  await events.start();
  const relay = new OutboxRelay({ pool, events, logger, pollMs: 5_000, retentionHours: 1, onDeliveries: () => undefined });
  relay.start();
  const bridge = bus
    ? new BusBridge({ databaseUrl, bus, logger, channels: BUS_CHANNELS, onOutbox: () => relay.wake(), retryMs: 5_000 })
    : null;
  await bridge?.start();
  const children: Spawned[] = [];
  const waiting = new Map<string, { left: number; arrivals: number[]; done: () => void }>();
  for (let i = 0; i < processes; i++) {
    const spawned = await spawnNode(path.join(BENCH_DIR, 'support', 'bus-subscribers.js'), [
      JSON.stringify({ databaseUrl, bus: natsUrl ?? undefined, count: SUBSCRIBERS }),
    ]);
    createInterface({ input: spawned.child.stdout! }).on('line', (line) => {
      const m = JSON.parse(line) as { resourceId?: string; arrivals?: number[] };
      const w = m.resourceId ? waiting.get(m.resourceId) : undefined;
      if (!w) return;
      w.arrivals.push(...m.arrivals!);
      if (--w.left === 0) w.done();
    });
    children.push(spawned);
  }
  const stats = async () =>
    (
      await pool.query<{ xact: string; blocks: string; backends: number }>(
        `select xact_commit + xact_rollback as xact, blks_read + blks_hit as blocks, numbackends as backends
           from pg_stat_database where datname = current_database()`,
      )
    ).rows[0]!;
  const latencies: number[] = [];
  const lasts: number[] = [];
  const warmup = 10;
  let before = await stats();
  const port = new URL(databaseUrl).port;
  let cpuBefore = postgresCpu(port);
  for (let i = 0; i < warmup + EVENTS; i++) {
    if (i === warmup) {
      latencies.length = lasts.length = 0;
      before = await stats();
      cpuBefore = postgresCpu(port);
    }
    const resourceId = `e${i}`;
    const arrived = new Promise<number[]>((resolve) => {
      const w = { left: processes, arrivals: [] as number[], done: () => resolve(w.arrivals) };
      waiting.set(resourceId, w);
    });
    const client = await pool.connect();
    await client.query('begin');
    await insertEvents(client, [
      { organizationId: ORG, environment: 'test', event: 'bench.event', resourceType: 'bench', resourceId, data: { i }, snapshot: { i } },
    ]);
    await client.query('commit');
    const committed = now();
    client.release();
    const arrivals = await arrived;
    waiting.delete(resourceId);
    for (const a of arrivals) latencies.push(a - committed);
    lasts.push(Math.max(...arrivals) - committed);
  }
  const after = await stats();
  const cpu = cpuBetween(cpuBefore, postgresCpu(port));
  for (const c of children) await c.stop();
  await bridge?.stop();
  await relay.stop();
  await events.stop();
  await bus?.close();
  await pool.end();
  return {
    p50: pct(latencies, 50),
    p99: pct(latencies, 99),
    lastP50: pct(lasts, 50),
    // this bench's own statements (the stats query, the inserts) are counted on both transports alike
    xactPerEvent: (Number(after.xact) - Number(before.xact)) / EVENTS,
    blocksPerEvent: (Number(after.blocks) - Number(before.blocks)) / EVENTS,
    pgCpuMsPerEvent: (cpu * 1000) / EVENTS,
    backends: after.backends,
  };
}

export async function run(): Promise<void> {
  const reason = natsUnavailable();
  if (reason) {
    console.log(`skipped: ${reason}`);
    return;
  }
  const db = await benchDatabase();
  const nats = await startNatsServer();
  try {
    const rows: string[][] = [];
    const ratios: string[][] = [];
    for (const n of PROCESSES) {
      const pgResult = await measure(db.url, null, n);
      const natsResult = await measure(db.url, nats.url, n);
      for (const [name, r] of [
        ['postgres', pgResult],
        ['nats', natsResult],
      ] as const) {
        rows.push([
          `${name}, ${n} process${n > 1 ? 'es' : ''}`,
          f1(r.p50),
          f1(r.p99),
          f1(r.lastP50),
          f2(r.xactPerEvent),
          f1(r.blocksPerEvent),
          f2(r.pgCpuMsPerEvent),
          String(r.backends),
        ]);
      }
      ratios.push([
        `${n} process${n > 1 ? 'es' : ''}`,
        f2(natsResult.p50 / pgResult.p50),
        f2(natsResult.p99 / pgResult.p99),
        f2(natsResult.xactPerEvent / pgResult.xactPerEvent),
        f2(natsResult.blocksPerEvent / pgResult.blocksPerEvent),
        f2(natsResult.pgCpuMsPerEvent / pgResult.pgCpuMsPerEvent),
        `${pgResult.backends} → ${natsResult.backends}`,
      ]);
    }
    console.log(`${EVENTS} events, ${SUBSCRIBERS} subscribers per process; latency from commit to subscriber (ms)`);
    table(['transport', 'p50', 'p99', 'last p50', 'xact/event', 'blocks/event', 'PG CPU ms/event', 'backends'], rows);
    console.log('\nNATS / PostgreSQL');
    table(['processes', 'p50', 'p99', 'xact', 'blocks', 'PG CPU', 'backends'], ratios);
  } finally {
    await nats.stop();
    await db.stop();
  }
}
