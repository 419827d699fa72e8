import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../platform/config.js';
import { freePort, startEmbeddedPostgres, type EmbeddedDatabase } from '../platform/db/embedded-postgres.js';
import { startStack } from '../cli/stack.js';
import { cpuAccount, describeCpu } from './support/cpu.js';
import { startProfiler } from './support/profiler.js';
import { overHttp } from '../gateway/http-fetcher.js';
import { FAMILY_NAMES, GIVEN_NAMES } from './support/names.js';
import { verdict } from './support/targets.js';
import { REPO, startPlatform, type Running } from './stack.bench.js';
import { importSnapshot, parseList, ScreeningEngine, type ListEntry } from '../screening/index.js';
import { createLogger } from '../platform/logger.js';
import { postgresChannels } from '../platform/db/listen.js';
import { EvaluationEngine } from '../subgraphs/risk/src/evaluation/evaluation.engine.js';
import { RuleCache } from '../subgraphs/risk/src/rules/rule.cache.js';
import { GroupCommit } from '../subgraphs/risk/src/evaluation/evaluation.commit.js';
import { TenantGraphs } from '../subgraphs/risk/src/graph/graph.owner.js';
import { RulesStore } from '../subgraphs/risk/src/rules/rule.store.js';
import { SanctionsLayer } from '../subgraphs/risk/src/sanctions/sanctions.layer.js';

/**
 * Risk figures (issues 5, 14 and 31), through the whole stack (REST adapter → gateway → risk subgraph);
 * RISK_BENCH_LAYOUT: `single` (default, as `npm start` runs: risk in a child process of its own, the
 * rest on one event loop) or `threads` (`npm start` in a process of its own with that STACK_LAYOUT, the
 * REST adapter in the gateway's process), or `processes` (each service in its own process,
 * `start-service.js`); RISK_BENCH_IN_PROCESS=1 runs everything inside the bench process instead;
 * embedded PostgreSQL unless DATABASE_URL is set:
 * - the evaluation engine alone (in this process, owning the tenant's graph before the deployment
 *   takes it): evaluations per second of one core, writes by group commit, measured after
 *   RISK_BENCH_ENGINE_WARMUP (20,000) evaluations of other names so that V8 has stopped
 *   recompiling (RISK_BENCH_ENGINE_ONLY=1 stops after it; RISK_BENCH_ENGINE_PROFILE=file writes
 *   its CPU profile there);
 * - POST /v1/evaluate p50/p99 at a fixed rate (open loop: latency counted from each request's
 *   scheduled time) with all layers on — the default rules, the graph detectors over a graph of
 *   1M transfers bulk-loaded with generate_series, and sanctions screening of both names against
 *   the real OFAC SDN + UN lists when ../shared/data/lists has them (else a generated list) — and
 *   where the CPU went: milliseconds per evaluation of each service process, of PostgreSQL and of
 *   the load generator (Linux /proc), and the rate the machine's cores could serve at that cost;
 * - `npm start`'s risk process SIGKILLed under the last rate: every answered evaluation stored, its
 *   transaction id refused again (RISK_BENCH_KILL=0 skips it);
 * - rule update → first evaluation that sees it, on the same and on a second instance;
 * - graph query latency, 2-hop and 4-hop.
 * Bounded: RISK_BENCH_WARMUP (5) seconds at the first rate, not reported, then each of
 * RISK_BENCH_RATES (default 200,500 per second) for RISK_BENCH_SECONDS (default 60 s: issue 31's
 * target is p50 ≤ 3 ms and p99 ≤ 10 ms at 500/s for 60 s), at most 256 requests outstanding; the
 * bulk load takes ~30 s on 2 cores.
 */
const ADMIN_SECRET = 'bench-admin-secret-0123456789';
const INTERNAL_SECRET = 'bench-internal-secret-0123456789';
const TRANSFERS = Number(process.env.RISK_BENCH_TRANSFERS ?? 1_000_000);
const ACCOUNTS = Math.max(1_000, Math.round(TRANSFERS / 10));
/** Offered rates, one phase each: issue 5's 200/s, then issue 14's 500/s. */
const RATES = (process.env.RISK_BENCH_RATES ?? '200,500').split(',').map(Number);
const MAX_INFLIGHT = 256;
const SECONDS = Number(process.env.RISK_BENCH_SECONDS ?? 60);
const WARMUP = Number(process.env.RISK_BENCH_WARMUP ?? 5);
/** Evaluations of other names the engine alone makes before it is measured (V8 compiling, not the engine's work). */
const ENGINE_WARMUP = Number(process.env.RISK_BENCH_ENGINE_WARMUP ?? 20_000);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};
const f1 = (x: number) => x.toFixed(1);
const f2 = (x: number) => x.toFixed(2);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Deterministic pseudo-random numbers (mulberry32). */
function rng(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * 1M SENT edges over 100k accounts for one tenant, in SQL: senders uniform, receivers skewed
 * (receiver index = N·u², so low ids are merchant/mule-like hubs), timestamps over 30 days (3% in
 * the last 24 h), one device and one IP per
 * account, devices shared by two accounts.
 */
async function bulkLoad(pool: pg.Pool, org: string): Promise<number> {
  const started = performance.now();
  const c = await pool.connect();
  try {
    await c.query('select setseed(0.42)');
    await c.query(
      `insert into risk.accounts (organization_id, environment, id, first_seen_at)
       select $1, 'live', 'b' || i, now() - interval '31 days' from generate_series(0, $2::int - 1) i`,
      [org, ACCOUNTS],
    );
    await c.query(
      `insert into risk.transfers (organization_id, environment, transaction_id, sender, receiver, amount, currency, channel, device_id, ip, at)
       select $1, 'live', 'bulk-' || i, 'b' || s, 'b' || case when r = s then (r + 1) % $3::int else r end,
              round((50 + random() * 20000)::numeric, 2)::float8, 'KES', 'app', 'd' || (s / 2), '10.' || (s % 250) || '.' || (s / 250 % 250) || '.1',
              case when random() < 0.03 then now() - random() * interval '24 hours' else now() - interval '24 hours' - random() * interval '29 days' end
       from (select i, floor(random() * $3::int)::int as s, floor($3::int * power(random(), 2))::int as r from generate_series(1, $2::int) i) g`,
      [org, TRANSFERS, ACCOUNTS],
    );
    await c.query(
      `insert into risk.devices (organization_id, environment, id, first_seen_at)
       select $1, 'live', 'd' || i, now() - interval '31 days' from generate_series(0, $2::int / 2) i`,
      [org, ACCOUNTS],
    );
    await c.query(
      `insert into risk.account_devices (organization_id, environment, account_id, device_id, first_seen_at, last_seen_at, uses)
       select $1, 'live', 'b' || i, 'd' || (i / 2), now() - interval '30 days', now() - random() * interval '30 days', 10 from generate_series(0, $2::int - 1) i`,
      [org, ACCOUNTS],
    );
    await c.query(
      `insert into risk.ips (organization_id, environment, address, first_seen_at)
       select distinct $1::uuid, 'live', ip, now() - interval '31 days' from risk.transfers where organization_id = $1`,
      [org],
    );
    await c.query(
      `insert into risk.account_ips (organization_id, environment, account_id, address, first_seen_at, last_seen_at, uses)
       select $1, 'live', sender, ip, min(at), max(at), count(*) from risk.transfers where organization_id = $1 group by sender, ip`,
      [org],
    );
    await c.query('analyze risk.accounts; analyze risk.transfers; analyze risk.account_devices; analyze risk.account_ips');
  } finally {
    c.release();
  }
  return performance.now() - started;
}

/** The real OFAC SDN (+ aliases) and UN lists when present; else 5,000 generated names. */
async function loadLists(pool: pg.Pool): Promise<{ names: string[]; description: string }> {
  const dir = path.resolve('..', 'shared', 'data', 'lists');
  let lists: Array<{ source: string; entries: ListEntry[]; format?: string }> = [];
  if (existsSync(dir)) {
    const files = readdirSync(dir);
    const pick = (re: RegExp) => files.find((f) => re.test(f));
    const wanted = [pick(/^ofac_sdn.*\.csv$/), pick(/^ofac_alt.*\.csv$/), pick(/^ofac_add.*\.csv$/), pick(/^un_sc.*\.xml$/)].filter(
      (f): f is string => !!f,
    );
    if (wanted.length >= 2) lists = parseList(wanted.map((f) => ({ name: f, content: readFileSync(path.join(dir, f)) })));
  }
  if (!lists.length) {
    const rand = rng(7);
    const syllables = ['ka', 'mo', 'ri', 'ta', 'ne', 'so', 'lu', 'ba', 'di', 've', 'go', 'ra', 'mi', 'zu'];
    const word = () => Array.from({ length: 2 + Math.floor(rand() * 2) }, () => syllables[Math.floor(rand() * syllables.length)]).join('');
    const entries: ListEntry[] = Array.from({ length: 5_000 }, (_, i) => ({
      source: 'CUSTOM_BENCH',
      kind: 'SANCTIONS',
      externalId: `B-${i}`,
      entityType: 'INDIVIDUAL',
      names: [{ full: `${word()} ${word()} ${word()}`, type: 'PRIMARY' }],
      datesOfBirth: [],
      nationalities: [],
      documents: [],
      programs: ['BENCH'],
    }));
    lists = [{ source: 'CUSTOM_BENCH', entries }];
  }
  for (const l of lists) await importSnapshot(pool, l.source, l.entries, { format: l.format, importedBy: 'risk bench' });
  const people = lists.flatMap((l) => l.entries).filter((e) => e.entityType === 'INDIVIDUAL');
  return {
    names: people.map((e) => e.names[0].full.replace(/^([^,]+),\s*(.+)$/, '$2 $1')),
    description: lists.map((l) => `${l.source} (${l.entries.length})`).join(', '),
  };
}

interface Instance {
  rest: string;
  gateway: string;
}

interface Deployment {
  /** Instance A (REST adapter, gateway, risk and verification subgraphs) and instance B (another risk subgraph, gateway, REST adapter). */
  a: Instance;
  /** The pid of each of instance A's processes by name, now (none when everything runs in the bench process). */
  pids(): Record<string, number>;
  /** `npm start`'s risk process, when the deployment has one (it is started again when it dies). */
  riskChild?(): number | undefined;
  startB(): Promise<Instance>;
  stop(): Promise<void>;
  shape: string;
}

async function waitReady(url: string, what: string, child?: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child && child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    const ok = await fetch(url)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await sleep(100);
  }
  throw new Error(`${what} did not become ready`);
}

/** Every service its own process (the production shape): logs in <dataDir>/<name>.log. */
async function processes(databaseUrl: string, env: Record<string, string>, dataDir: string): Promise<Deployment> {
  const children: ChildProcess[] = [];
  const pids: Record<string, number> = {};
  const entry = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', 'cli', 'start-service.js');
  const start = async (service: string, name: string, extra: Record<string, string>) => {
    const port = await freePort();
    const portVar = { verification: 'VERIFICATION_PORT', risk: 'RISK_PORT', gateway: 'GATEWAY_PORT', rest: 'REST_PORT' }[service]!;
    const log = openSync(path.join(dataDir, `${name}.log`), 'a');
    const child = spawn(process.execPath, [entry, service], {
      env: {
        ...process.env,
        ...env,
        DATABASE_URL: databaseUrl,
        INTERNAL_SECRET,
        ADMIN_SECRET,
        HOST: '127.0.0.1',
        [portVar]: String(port),
        ...extra,
      },
      stdio: ['ignore', log, log],
    });
    children.push(child);
    pids[name] = child.pid!;
    const base = `http://127.0.0.1:${port}`;
    await waitReady(`${base}/ready`, name, child);
    return base;
  };
  // whatever happens to the bench, its children go with it
  const killAll = () => children.forEach((c) => c.exitCode === null && c.kill('SIGKILL'));
  process.once('exit', killAll);
  const verification = await start('verification', 'verification', {});
  const instance = async (suffix: string): Promise<Instance> => {
    const risk = await start('risk', `risk-${suffix}`, {});
    const gateway = await start('gateway', `gateway-${suffix}`, {
      VERIFICATION_URL: `${verification}/graphql`,
      RISK_URL: `${risk}/graphql`,
    });
    const rest = await start('rest', `rest-${suffix}`, { GATEWAY_URL: `${gateway}/graphql` });
    return { rest, gateway: `${gateway}/graphql` };
  };
  const a = await instance('a');
  return {
    a,
    pids: () => ({ ...pids }),
    startB: () => instance('b'),
    stop: async () => {
      process.removeListener('exit', killAll);
      for (const c of children.reverse()) {
        if (c.exitCode !== null) continue;
        const exited = new Promise((r) => c.once('exit', r));
        c.kill('SIGTERM');
        await Promise.race([exited, sleep(10_000)]);
        if (c.exitCode === null) c.kill('SIGKILL');
      }
    },
    shape: 'one process per service (verification, risk, gateway, REST adapter; a second risk + gateway + REST for instance B)',
  };
}

/** `npm start`'s risk process (RISK_PROCESS=child), if it runs. */
function riskChild(pid: number): number | undefined {
  let out = '';
  try {
    out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { encoding: 'utf8' });
  } catch {
    // ps answers 1 when the process has no children
  }
  const line = out.split('\n').find((l) => l.includes('start-service.js risk'));
  return line ? Number(line.trim().split(/\s+/)[0]) : undefined;
}

/** `npm start` in a process of its own (STACK_LAYOUT `layout`), a second one for instance B, on the bench's database. */
async function platform(layout: 'single' | 'threads', databaseUrl: string, env: Record<string, string>): Promise<Deployment> {
  const started: Running[] = [];
  const start = async () => {
    const r = await startPlatform({ name: layout, root: REPO, env: { ...env, STACK_LAYOUT: layout }, operations: false }, databaseUrl);
    started.push(r);
    return { rest: r.urls.rest, gateway: r.urls.gateway };
  };
  const a = await start();
  return {
    a,
    pids: () => {
      const child = riskChild(started[0].pid);
      return { [`npm start (${layout})`]: started[0].pid, ...(child ? { 'its risk process': child } : {}) };
    },
    riskChild: () => riskChild(started[0].pid),
    startB: start,
    stop: async () => {
      for (const r of started.reverse()) await r.stop();
    },
    shape: `npm start (STACK_LAYOUT=${layout}; the REST adapter in the gateway's process), a second one for instance B`,
  };
}

/** Everything inside the bench process (as `npm start` runs it), two stacks on one database. */
async function inProcess(databaseUrl: string, env: Record<string, string>): Promise<Deployment> {
  const config = loadConfig({
    ...env,
    GATEWAY_PORT: '0',
    VERIFICATION_PORT: '0',
    RISK_PORT: '0',
    NOTIFY_PORT: '0',
    REST_PORT: '0',
    HOST: '127.0.0.1',
  });
  const stacks = [await startStack({ config, databaseUrl, adminSecret: ADMIN_SECRET, internalSecret: INTERNAL_SECRET })];
  return {
    a: { rest: stacks[0].urls.rest!, gateway: stacks[0].urls.gateway! },
    pids: () => ({}),
    startB: async () => {
      const b = await startStack({ config, databaseUrl, adminSecret: ADMIN_SECRET, internalSecret: INTERNAL_SECRET });
      stacks.push(b);
      return { rest: b.urls.rest!, gateway: b.urls.gateway! };
    },
    stop: async () => {
      for (const st of stacks.reverse()) await st.stop();
    },
    shape: 'every service and the load generator in one process',
  };
}

export async function run(): Promise<void> {
  let embedded: EmbeddedDatabase | null = null;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'risk-bench-'));
  // reachable by the embedded PostgreSQL's own user when we are root: its cluster then stays inside
  // (a private directory would move it under the system temp directory, which the end never removed)
  chmodSync(dataDir, 0o755);
  let deployment: Deployment | null = null;
  try {
    let databaseUrl = process.env.DATABASE_URL;
    if (!databaseUrl) {
      // durable commits, as `npm start`'s database makes them (a throwaway cluster would turn fsync off); removed at the end
      embedded = await startEmbeddedPostgres({ dir: path.join(dataDir, 'pg'), port: await freePort(), persistent: true });
      databaseUrl = embedded.url;
    }
    const env = {
      NODE_ENV: 'production',
      // production requires one; every service of the run shares it
      ENCRYPTION_MASTER_KEY: randomBytes(32).toString('base64'),
      LOG_LEVEL: process.env.RISK_BENCH_LOG ?? 'warn',
      ORGANIZATION_RATE_LIMIT: '100000000',
      GRAPH_QUERY_TIMEOUT_MS: '30000',
    };
    const layout = process.env.RISK_BENCH_LAYOUT ?? 'single';
    if (process.env.RISK_BENCH_IN_PROCESS === '1') deployment = await inProcess(databaseUrl, env);
    else if (layout === 'single' || layout === 'threads')
      deployment = await platform(layout, databaseUrl, { ...env, ADMIN_SECRET, INTERNAL_SECRET });
    else deployment = await processes(databaseUrl, env, dataDir);
    const a = deployment.a;
    const rest = async (instance: Instance, method: string, route: string, body?: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(instance.rest + route, {
        method,
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const client = await rest(
      a,
      'POST',
      '/v1/admin/api-clients',
      { name: 'risk bench', service: 'risk', rateLimit: 1_000_000 },
      { 'x-admin-secret': ADMIN_SECRET },
    );
    if (client.status !== 201) throw new Error(`could not create the bench key: ${JSON.stringify(client.body)}`);
    const auth = { authorization: `Bearer ${client.body.apiKey}` };
    const org: string = client.body.organizationId;

    const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    pool.on('error', () => undefined); // an idle connection the server ends must not crash the bench (npm start's pool does the same)
    const loadMs = await bulkLoad(pool, org);
    const { rows: sizes } = await pool.query(`select count(*)::int as n from risk.transfers where organization_id = $1`, [org]);
    const t0 = performance.now();
    const lists = await loadLists(pool);
    const listMs = performance.now() - t0;
    console.log(
      `graph: ${sizes[0].n.toLocaleString('en')} SENT edges over ${ACCOUNTS.toLocaleString('en')} accounts, with devices, IPs and 24 h counters, loaded in ${(loadMs / 1000).toFixed(1)} s`,
    );
    console.log(`sanctions lists: ${lists.description}, imported in ${(listMs / 1000).toFixed(1)} s`);
    // the bulk load's gigabyte of dirty pages is written now, not by the checkpoint that would come
    // during the measured load (its sync stalled every commit for ≈ 0.4 s): a deployment's
    // checkpoints write its last few minutes, not a million rows at once
    await pool.query('checkpoint').catch((err: Error) => console.log(`  (no checkpoint after the bulk load: ${err.message})`));
    // wait until the engine has indexed the lists
    for (let i = 0; i < 300; i++) {
      const status = await fetch(a.gateway, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth },
        body: JSON.stringify({ query: '{ riskSanctionsStatus { lists } }' }),
      });
      if (((await status.json()) as any).data?.riskSanctionsStatus.lists.length) break;
      await sleep(200);
    }

    const rand = rng(11);
    const person = () =>
      rand() < 0.02
        ? lists.names[Math.floor(rand() * lists.names.length)]
        : `${GIVEN_NAMES[Math.floor(rand() * GIVEN_NAMES.length)]} ${FAMILY_NAMES[Math.floor(rand() * FAMILY_NAMES.length)]}`;
    let seq = 0;
    const transaction = () => {
      const s = Math.floor(rand() * ACCOUNTS);
      let r = Math.floor(ACCOUNTS * rand() ** 2);
      if (r === s) r = (r + 1) % ACCOUNTS;
      return {
        transaction_id: `bench-${++seq}-${Date.now()}`,
        amount: Math.round(50 + rand() * 20_000),
        currency: 'KES',
        sender: `b${s}`,
        receiver: `b${r}`,
        channel: 'app',
        metadata: {
          device_id: `d${Math.floor(s / 2)}`,
          ip: `10.${s % 250}.${Math.floor(s / 250) % 250}.1`,
          sender_name: person(),
          receiver_name: person(),
        },
      };
    };

    // ---- the engine alone (no HTTP/GraphQL hops), same database, same layers --------------------
    {
      const engineLogger = createLogger('risk-bench', 'warn');
      const enginePool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
      enginePool.on('error', () => undefined); // as `pool`'s
      const screening = new ScreeningEngine({ pool: enginePool, logger: engineLogger, pollMs: 0 });
      await screening.start();
      const cache = new RuleCache(postgresChannels(databaseUrl), enginePool, engineLogger);
      const commit = new GroupCommit(enginePool, engineLogger);
      const graphs = new TenantGraphs({
        databaseUrl,
        events: postgresChannels(databaseUrl),
        pool: enginePool,
        cycleWindowHours: 72,
        internalSecret: INTERNAL_SECRET,
        logger: engineLogger,
        settled: () => commit.settled(),
      });
      await graphs.start('http://127.0.0.1:9/graphql');
      const engine = new EvaluationEngine({
        pool: enginePool,
        graphs,
        commit,
        rules: cache,
        store: new RulesStore(enginePool),
        sanctions: new SanctionsLayer(screening, 0.85),
        thresholds: { review: 50, block: 80 },
        cycleWindowHours: 72,
        degreeCap: 50,
        logger: engineLogger,
      });
      const tenant = { organizationId: org, environment: 'live' };
      const input = () => {
        const t = transaction();
        return {
          transactionId: t.transaction_id,
          amount: t.amount,
          currency: t.currency,
          sender: t.sender,
          receiver: t.receiver,
          channel: t.channel,
          metadata: t.metadata,
        };
      };
      // V8 keeps compiling the engine's functions again for thousands of evaluations (each new shape
      // a name brings throws optimised code away): measured from a cold start, a third of the CPU
      // was the compiler's. The warm-up screens other names ("family given", the lists drawn
      // apart), so the measured evaluations meet their names for the first time as before.
      const warmRand = rng(12);
      const otherPerson = () =>
        warmRand() < 0.02
          ? lists.names[Math.floor(warmRand() * lists.names.length)]
          : `${FAMILY_NAMES[Math.floor(warmRand() * FAMILY_NAMES.length)]} ${GIVEN_NAMES[Math.floor(warmRand() * GIVEN_NAMES.length)]}`;
      const warmInputs = Array.from({ length: ENGINE_WARMUP }, () => {
        const w = input();
        return { ...w, metadata: { ...w.metadata, sender_name: otherPerson(), receiver_name: otherPerson() } };
      });
      const inEight = async (inputs: ReturnType<typeof input>[], each?: (ms: number) => void) => {
        let next = 0;
        await Promise.all(
          Array.from({ length: 8 }, async () => {
            while (next < inputs.length) {
              const one = inputs[next++];
              const s0 = performance.now();
              await engine.evaluate(tenant, one);
              each?.(performance.now() - s0);
            }
          }),
        );
      };
      const warmCpu0 = process.cpuUsage();
      await inEight(warmInputs);
      const warmCpu = process.cpuUsage(warmCpu0);
      const warmMs = warmInputs.length ? (warmCpu.user + warmCpu.system) / 1000 / warmInputs.length : NaN;
      const batches0 = commit.batches;
      const n = 5_000;
      // made before the clock starts: the load's own work is not the engine's
      const inputs = Array.from({ length: n }, input);
      const lat: number[] = [];
      const t = performance.now();
      const reads0 = engine.headReads;
      const cpu0 = process.cpuUsage();
      const profiler = process.env.RISK_BENCH_ENGINE_PROFILE ? await startProfiler() : null;
      await inEight(inputs, (ms) => lat.push(ms));
      const wall = (performance.now() - t) / 1000;
      const cpu = process.cpuUsage(cpu0);
      if (profiler) writeFileSync(process.env.RISK_BENCH_ENGINE_PROFILE!, JSON.stringify(await profiler.stop()));
      const cpuMs = (cpu.user + cpu.system) / 1000 / n;
      console.log(
        `the evaluation engine alone (in the bench process, before the deployment's first evaluation: it owns the tenant's graph, loaded from the database; after ${ENGINE_WARMUP} evaluations of other names, ${f2(warmMs)} ms of Node CPU each while V8 compiled; 8 concurrent, ${n} evaluations, each written by the group commit in ${commit.batches - batches0} batches; ${engine.headReads - reads0} reads of rule revisions and profiles, ${engine.staleHeads} evaluated again): ${(n / wall).toFixed(0)}/s, p50 ${f1(pct(lat, 50))} ms, p99 ${f1(pct(lat, 99))} ms, ${cpuMs.toFixed(3)} ms of Node CPU per evaluation`,
      );
      verdict({
        item: '31.2',
        figure: 'the evaluation engine alone: evaluations per second of one core (its Node CPU per evaluation; writes by group commit)',
        measured: `${(1000 / cpuMs).toFixed(0)}/s (${(n / wall).toFixed(0)}/s achieved with PostgreSQL on the other core)`,
        target: '≥ 3,000/s',
        met: 1000 / cpuMs >= 3_000,
      });
      await commit.settled();
      await screening.stop();
      // the partition goes back: the deployment's risk process takes it at its first evaluation
      await graphs.stop();
      await enginePool.end();
    }
    if (process.env.RISK_BENCH_ENGINE_ONLY === '1') {
      // the load through REST is not wanted; the pool goes before the database does
      await pool.end();
      return;
    }

    // the load loop's requests: the gateway's client (undici's kept-alive pool, a connection per outstanding request)
    const evaluate = async () => {
      const body = JSON.stringify(transaction());
      const res = await overHttp(a.rest + '/v1/evaluate', { headers: { 'content-type': 'application/json', ...auth }, body });
      return { status: res.status, body: JSON.parse(res.text) as any };
    };
    // warm-up (connections, plans, rule cache)
    for (let i = 0; i < 50; i++) await evaluate();

    // ---- fixed-rate evaluate (open loop, at most MAX_INFLIGHT outstanding) --------------------
    let p50 = NaN;
    // a warm-up phase at the first rate first (JIT, plans, connections, the lists indexed in every service), not reported
    const phases = [
      ...(WARMUP > 0 ? [{ rate: RATES[0], seconds: WARMUP, warmUp: true }] : []),
      ...RATES.map((rate) => ({ rate, seconds: SECONDS, warmUp: false })),
    ];
    for (const { rate, seconds, warmUp } of phases) {
      const total = Math.round(rate * seconds);
      const latencies: number[] = [];
      /** Latencies by the 10-second window of their scheduled time: where in the phase the tail is. */
      const windows: number[][] = Array.from({ length: Math.ceil(seconds / 10) }, () => []);
      const serverMs: number[] = [];
      const statuses = new Map<string, number>();
      const actions = new Map<string, number>();
      const nodes: number[] = [];
      let patterns = 0;
      let hits = 0;
      let late = 0;
      const cpu = cpuAccount(deployment.pids());
      const started = performance.now();
      const inflight = new Set<Promise<void>>();
      for (let i = 0; i < total; i++) {
        const due = started + (i * 1000) / rate;
        const wait = due - performance.now();
        if (wait > 1) await sleep(wait);
        if (inflight.size >= MAX_INFLIGHT) {
          late++;
          await Promise.race(inflight);
        }
        const request: Promise<void> = evaluate()
          .then((res) => {
            const ms = performance.now() - due;
            latencies.push(ms);
            windows[Math.floor((due - started) / 10_000)].push(ms);
            statuses.set(String(res.status), (statuses.get(String(res.status)) ?? 0) + 1);
            if (res.status === 200) {
              serverMs.push(res.body.latency_ms);
              actions.set(res.body.action, (actions.get(res.body.action) ?? 0) + 1);
              patterns += res.body.layers.graph.patterns_found;
              hits += res.body.layers.sanctions.hits;
              nodes.push(res.body.layers.graph.nodes_traversed);
            }
          })
          .catch((err: Error) => {
            const key = `error ${(err as { code?: string }).code ?? (err.cause as { code?: string })?.code ?? err.message}`;
            statuses.set(key, (statuses.get(key) ?? 0) + 1);
          })
          .finally(() => inflight.delete(request));
        inflight.add(request);
      }
      await Promise.all(inflight);
      const elapsed = (performance.now() - started) / 1000;
      const cpuUsed = cpu.measure(latencies.length);
      if (warmUp) continue;
      const r50 = pct(latencies, 50);
      const r99 = pct(latencies, 99);
      if (Number.isNaN(p50)) p50 = r50;
      console.log(
        `POST /v1/evaluate at ${rate}/s for ${SECONDS} s (${total} requests; achieved ${(latencies.length / elapsed).toFixed(0)}/s; all layers; ${deployment.shape})`,
      );
      console.log(
        `  end to end (REST → gateway → risk), from each request's scheduled time   p50 ${f1(r50)} ms  p90 ${f1(pct(latencies, 90))} ms  p99 ${f1(r99)} ms  max ${f1(Math.max(...latencies))} ms`,
      );
      console.log(`  p50 / p99 by 10 s of the phase: ${windows.map((w) => `${f1(pct(w, 50))} / ${f1(pct(w, 99))}`).join(', ')} ms`);
      console.log(`  engine latency_ms (in the risk subgraph)  p50 ${f1(pct(serverMs, 50))} ms  p99 ${f1(pct(serverMs, 99))} ms`);
      console.log(
        `  statuses ${[...statuses].map(([st, n]) => `${st}×${n}`).join(', ')}${late ? `; ${late} started late (${MAX_INFLIGHT} outstanding)` : ''}; actions ${[...actions].map(([ac, n]) => `${ac} ${n}`).join(', ')}; ${patterns} graph patterns, ${hits} sanctions hits; nodes traversed p50 ${pct(nodes, 50)}, p99 ${pct(nodes, 99)}`,
      );
      console.log(`  ${describeCpu(cpuUsed)}`);
      // the target holds at 500/s sustained for 60 s: at another rate or duration the figures are reported, not judged
      const atTarget = rate >= 500 && SECONDS >= 60;
      verdict({
        item: '31.2',
        figure: `risk evaluate through REST at ${rate}/s for ${SECONDS} s (achieved ${(latencies.length / elapsed).toFixed(0)}/s; ${deployment.shape}), p50 / p99`,
        measured: `${f1(r50)} / ${f1(r99)} ms; the cores' ceiling at its CPU cost ${cpuUsed.ceiling.toFixed(0)}/s`,
        target: '≤ 3 / ≤ 10 ms at 500/s for 60 s',
        met: atTarget ? r50 <= 3 && r99 <= 10 && latencies.length / elapsed >= 0.98 * rate : null,
      });
      console.log(
        `  ratios: p99/p50 ${(r99 / r50).toFixed(2)}; engine share of p50 ${(pct(serverMs, 50) / r50).toFixed(2)}; achieved/offered ${(latencies.length / elapsed / rate).toFixed(2)}`,
      );
      await sleep(2_000);
    }

    // ---- SIGKILL of npm start's risk process under load ---------------------------------------
    const victim = process.env.RISK_BENCH_KILL === '0' ? undefined : deployment.riskChild?.();
    if (victim) {
      const rate = RATES[RATES.length - 1];
      const seconds = 20;
      const accepted: Array<{ transactionId: string; evaluationId: string }> = [];
      const statuses = new Map<string, number>();
      const inflight = new Set<Promise<void>>();
      const started = performance.now();
      let killedAt = 0;
      let backAt = 0;
      for (let i = 0; i < rate * seconds; i++) {
        const due = started + (i * 1000) / rate;
        const wait = due - performance.now();
        if (wait > 1) await sleep(wait);
        if (!killedAt && performance.now() - started > 5_000) {
          process.kill(victim, 'SIGKILL');
          killedAt = performance.now();
        }
        if (inflight.size >= MAX_INFLIGHT) await Promise.race(inflight);
        const body = transaction();
        const request: Promise<void> = overHttp(a.rest + '/v1/evaluate', {
          headers: { 'content-type': 'application/json', ...auth },
          body: JSON.stringify(body),
        })
          .then((res) => {
            statuses.set(String(res.status), (statuses.get(String(res.status)) ?? 0) + 1);
            if (res.status !== 200) return;
            accepted.push({
              transactionId: body.transaction_id,
              evaluationId: (JSON.parse(res.text) as { evaluation_id: string }).evaluation_id,
            });
            if (killedAt && !backAt && due > killedAt) backAt = performance.now();
          })
          .catch((err: Error) => {
            const key = `error ${(err as { code?: string }).code ?? err.message}`;
            statuses.set(key, (statuses.get(key) ?? 0) + 1);
          })
          .finally(() => inflight.delete(request));
        inflight.add(request);
      }
      await Promise.all(inflight);
      const { rows: stored } = await pool.query<{ id: string }>(`select id::text from risk.evaluations where id = any($1::uuid[])`, [
        accepted.map((x) => x.evaluationId),
      ]);
      const sample = accepted.filter((_, i) => i % Math.max(1, Math.floor(accepted.length / 200)) === 0);
      let refused = 0;
      for (const x of sample) {
        const again = await rest(a, 'POST', '/v1/evaluate', { ...transaction(), transaction_id: x.transactionId }, auth);
        if (again.status === 409) refused++;
      }
      console.log(
        `SIGKILL of npm start's risk process ${((killedAt - started) / 1000).toFixed(0)} s into ${seconds} s at ${rate}/s: statuses ${[...statuses].map(([st, k]) => `${st}×${k}`).join(', ')}; answering again ${backAt ? `${((backAt - killedAt) / 1000).toFixed(1)} s` : 'never'} after the kill; ${accepted.length} answered 200, ${stored.length} of them stored; ${refused} of ${sample.length} re-sent transaction ids refused with 409`,
      );
      verdict({
        item: '31.2',
        figure: `kill -9 of the risk process under ${rate}/s: answered evaluations stored; their transaction ids refused again`,
        measured: `${stored.length} of ${accepted.length} stored; ${refused} of ${sample.length} refused`,
        target: 'all stored; all refused',
        met: stored.length === accepted.length && refused === sample.length,
      });
      await sleep(2_000);
    }

    // ---- rule update → first evaluation that sees it ---------------------------------------
    const b = await deployment.startB();
    for (let i = 0; i < 10; i++) await rest(b, 'POST', '/v1/evaluate', transaction(), auth);
    const propagation: Record<'same' | 'other', { seenMs: number[]; putMs: number[]; tries: number[] }> = {
      same: { seenMs: [], putMs: [], tries: [] },
      other: { seenMs: [], putMs: [], tries: [] },
    };
    for (let round = 1; round <= 20; round++) {
      const where = round % 2 ? 'other' : 'same';
      const reader = where === 'other' ? b : a;
      const putStart = performance.now();
      let change = await rest(
        a,
        'PUT',
        '/v1/rules/bench_marker',
        { condition: `txn.amount > ${round}.0 && txn.channel == "bench"`, action: 'review', severity: 'low' },
        auth,
      );
      // a 503 is the gateway losing a kept-alive connection to the subgraph (noted in the report)
      for (let retry = 0; change.status === 503 && retry < 3; retry++) {
        change = await rest(
          a,
          'PUT',
          '/v1/rules/bench_marker',
          { condition: `txn.amount > ${round}.0 && txn.channel == "bench"`, action: 'review', severity: 'low' },
          auth,
        );
      }
      const putDone = performance.now();
      if (change.status >= 300) throw new Error(`rule update failed: ${JSON.stringify(change.body)}`);
      let tries = 0;
      let seenAt = 0;
      for (;;) {
        tries++;
        const ev = await rest(reader, 'POST', '/v1/evaluate', { ...transaction(), channel: 'bench', amount: 1_000 }, auth);
        seenAt = performance.now();
        const detail = await rest(reader, 'GET', `/v1/evaluations/${ev.body.evaluation_id}`, undefined, auth);
        if (
          detail.body.rules_fired.some((r: { id: string; version: number }) => r.id === 'bench_marker' && r.version === change.body.version)
        )
          break;
        if (tries > 50) throw new Error('the rule update was never seen');
      }
      propagation[where].seenMs.push(seenAt - putDone);
      propagation[where].putMs.push(putDone - putStart);
      propagation[where].tries.push(tries);
    }
    console.log('rule update (PUT /v1/rules/:id) → first evaluation that sees it (10 updates each)');
    for (const where of ['same', 'other'] as const) {
      const p = propagation[where];
      console.log(
        `  ${where === 'same' ? 'same instance ' : 'other instance'}  PUT p50 ${f1(pct(p.putMs, 50))} ms; from the PUT's answer to the answer of the first evaluation that fired the new version: p50 ${f1(pct(p.seenMs, 50))} ms, max ${f1(Math.max(...p.seenMs))} ms; evaluations needed: max ${Math.max(...p.tries)} (1 = the very next one)`,
      );
    }

    // ---- graph queries -----------------------------------------------------------------------
    const queries = {
      '2-hop': 'MATCH (a:Account {id: $id})-[:SENT]->(b)-[:SENT]->(c) RETURN count(DISTINCT c) AS n',
      '4-hop (fixed)': 'MATCH (a:Account {id: $id})-[:SENT]->(b)-[:SENT]->(c)-[:SENT]->(d)-[:SENT]->(e) RETURN count(DISTINCT e) AS n',
      '4-hop (*1..4)': 'MATCH (a:Account {id: $id})-[:SENT*1..4]->(e) RETURN count(DISTINCT e) AS n',
    };
    const starts = Array.from({ length: 20 }, () => `b${Math.floor(rand() * ACCOUNTS)}`);
    const graphFigures: Record<string, { ms: number[]; server: number[]; scanned: number[]; n: number[] }> = {};
    for (const [name, query] of Object.entries(queries)) {
      const fig: { ms: number[]; server: number[]; scanned: number[]; n: number[] } = { ms: [], server: [], scanned: [], n: [] };
      graphFigures[name] = fig;
      await rest(a, 'POST', '/v1/graph/query', { query, params: { id: starts[0] } }, auth);
      for (const id of starts) {
        const t = performance.now();
        const res = await rest(a, 'POST', '/v1/graph/query', { query, params: { id } }, auth);
        if (res.status !== 200) throw new Error(`${name} failed: ${JSON.stringify(res.body)}`);
        fig.ms.push(performance.now() - t);
        fig.server.push(res.body.latency_ms);
        fig.scanned.push(res.body.nodes_scanned);
        fig.n.push(res.body.results[0].n);
      }
    }
    console.log(`graph query (POST /v1/graph/query) from 20 random accounts over the ${sizes[0].n.toLocaleString('en')}-edge graph`);
    for (const [name, fig] of Object.entries(graphFigures)) {
      console.log(
        `  ${name.padEnd(14)} p50 ${f1(pct(fig.ms, 50))} ms  p99 ${f1(pct(fig.ms, 99))} ms  (in the subgraph p50 ${f1(pct(fig.server, 50))} ms); nodes_scanned p50 ${pct(fig.scanned, 50)}; distinct end nodes p50 ${pct(fig.n, 50)}`,
      );
    }
    const two = pct(graphFigures['2-hop'].ms, 50);
    console.log(
      `  ratios: 4-hop fixed / 2-hop ${(pct(graphFigures['4-hop (fixed)'].ms, 50) / two).toFixed(2)}; 4-hop *1..4 / 2-hop ${(pct(graphFigures['4-hop (*1..4)'].ms, 50) / two).toFixed(2)}; 2-hop / evaluate p50 ${(two / p50).toFixed(2)}`,
    );
    await pool.end();
  } finally {
    await deployment?.stop();
    await embedded?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
