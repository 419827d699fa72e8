import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../platform/db/embedded-postgres.js';
import type { Principal } from '../platform/auth/principal.js';
import { routes } from '../rest-adapter/routes.js';
import type { Route } from '../platform/rest/route.js';
import { BENCH_DIR, f0, f1, f2, load, spawnNode, table, type Spawned } from './support/processes.js';
import type { LoadResult, LoadSpec } from './support/load.js';
import { verdict } from './support/targets.js';
import { interleaved, type SideResult } from './support/interleaved.js';
import { npmStartCommand } from '../test/support/npm-start.js';
import { FAMILY_NAMES, GIVEN_NAMES, person } from './support/names.js';

/**
 * The platform as `npm start` runs it (issue 14, items 2, 3, 4, 7), each layout started in turn in
 * its own process on its own embedded PostgreSQL, the load from another process (autocannon):
 * - the identity read (GET /verifications/identity/:id and its GraphQL operation) of
 *   STACK_BENCH_READ_RECORDS (200) records in turn, as clients read different users, through the
 *   REST adapter, through the gateway, and sent straight to the verification subgraph with a signed
 *   principal, at STACK_BENCH_CONNECTIONS (20); the REST adapter's overhead (REST p50 − GraphQL p50
 *   of the same operation; target ≤ 1 ms) there and at 1 connection; and, a row of its own, one
 *   record read by every request (identical queries in flight then share one subgraph call); for
 *   the default layout also through stock Apollo Gateway + Apollo Server in a process of its own
 *   over the same subgraphs (calls signed for the bench's client; issue 31.3: ours ≥ 2× its req/s);
 * - per layout: one event loop (STACK_LAYOUT=single, the default) with the REST adapter over loopback HTTP
 *   (REST_IN_PROCESS=false) and in-process, threads, two gateway threads;
 * - BENCH_BASE_DIR: a built checkout of another commit (e.g. the landed main: `git worktree add
 *   ../base main && cd ../base && npm ci && npm run build`) measured first, the "before" column;
 * - identity create, AML screening (the shipped lists), notify send and risk evaluate through REST,
 *   GraphQL and the subgraph directly at 10 connections, for the base and both layouts: the
 *   differences say where the time goes (REST adapter = REST − GraphQL; gateway, i.e. edge
 *   authentication, planning and the hop = GraphQL − subgraph; the subgraph's work and its
 *   database writes = the subgraph directly). Through REST also the CPU per request of the
 *   `npm start` process, of PostgreSQL (every postgres process of the machine: the other layouts'
 *   idle ones too) and of the load generator, and the requests per second the machine's cores could
 *   serve at that cost (the ceiling a target must fit under).
 * - REST against GraphQL, and ours against stock Apollo Gateway, again at 20 connections, each pair
 *   taking turns of 0.5 s on the same connections for STACK_BENCH_TURN_SECONDS (30; 0: not measured):
 *   the verdicts of items 31.6 and 31.3;
 * STACK_BENCH_SECONDS (10) after STACK_BENCH_WARMUP (3) per measurement, STACK_BENCH_ROUNDS (1),
 * STACK_BENCH_LAYOUTS (names' beginnings, comma-separated), STACK_BENCH_OPERATIONS=false (identity read only).
 */
const SECONDS = Number(process.env.STACK_BENCH_SECONDS ?? 10);
const WARMUP = Number(process.env.STACK_BENCH_WARMUP ?? 3);
const CONNECTIONS = Number(process.env.STACK_BENCH_CONNECTIONS ?? 20);
const OPERATION_CONNECTIONS = 10;
const ROUNDS = Number(process.env.STACK_BENCH_ROUNDS ?? 1);
/**
 * Seconds of each comparison measured in turns (items 31.3 and 31.6): two sides take turns of half
 * a second on the same connections, so both see the same moments of a shared machine (two
 * back-to-back 10 s runs differ by up to 40 %, whichever goes first: more than what is compared).
 */
const TURN_SECONDS = Number(process.env.STACK_BENCH_TURN_SECONDS ?? 30);
/** How many different identity verifications the reads go round (as clients read different users). */
const READ_RECORDS = Number(process.env.STACK_BENCH_READ_RECORDS ?? 200);
/** Replaced by the next record read, in turn. */
const RECORD = '__RECORD__';

/** The run of median req/s (its latencies with it). */
function median(results: LoadResult[]): LoadResult {
  return [...results].sort((a, b) => a.rps - b.rps)[Math.floor(results.length / 2)];
}
export const ADMIN_SECRET = 'bench-admin-secret-0123456789';
const INTERNAL_SECRET = 'bench-internal-secret-0123456789';
const UNIQUE = '__UNIQUE__';
/** Replaced by the next of PEOPLE in turn. */
const PERSON = '__PERSON__';
const PEOPLE = Array.from({ length: GIVEN_NAMES.length * FAMILY_NAMES.length }, (_, i) => person(i));
export const REPO = path.resolve(BENCH_DIR, '..', '..');

export interface Layout {
  name: string;
  root: string;
  env: Record<string, string>;
  operations: boolean;
  /** Also measure the identity read through stock Apollo Gateway over this layout's subgraphs. */
  stock?: boolean;
}

export interface Running {
  urls: { gateway: string; rest: string; verification: string; risk: string; notify: string };
  /** The `npm start` process (every service of the single layout runs in it). */
  pid: number;
  stop(): Promise<void>;
}

/**
 * `npm start` of a built checkout on free ports, ready (every service's `/ready`) and done with its
 * first start's import of the shipped data (lists and IP feeds): on its own embedded PostgreSQL, or
 * on `databaseUrl`.
 */
export async function startPlatform(layout: Layout, databaseUrl?: string): Promise<Running> {
  const dir = mkdtempSync(path.join(tmpdir(), 'stack-bench-'));
  chmodSync(dir, 0o755); // the embedded PostgreSQL runs as its own user when we are root
  const ports = {
    gateway: await freePort(),
    rest: await freePort(),
    verification: await freePort(),
    risk: await freePort(),
    notify: await freePort(),
  };
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    EMBEDDED_PG_DIR: path.join(dir, 'pg'),
    EMBEDDED_PG_PORT: String(await freePort()),
    GATEWAY_PORT: String(ports.gateway),
    REST_PORT: String(ports.rest),
    VERIFICATION_PORT: String(ports.verification),
    RISK_PORT: String(ports.risk),
    NOTIFY_PORT: String(ports.notify),
    ADMIN_SECRET,
    INTERNAL_SECRET,
    ORGANIZATION_RATE_LIMIT: '1000000',
    LOG_LEVEL: 'warn',
    ...layout.env,
  };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL;
  const start = npmStartCommand(layout.root);
  const child: ChildProcess = spawn(process.execPath, start.args, {
    cwd: layout.root,
    env: { ...start.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const urls = {
    gateway: `http://127.0.0.1:${ports.gateway}/graphql`,
    rest: `http://127.0.0.1:${ports.rest}`,
    verification: `http://127.0.0.1:${ports.verification}/graphql`,
    risk: `http://127.0.0.1:${ports.risk}/graphql`,
    notify: `http://127.0.0.1:${ports.notify}/graphql`,
  };
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${layout.name}: npm start exited with ${child.exitCode}`);
    // every service: in the threaded layout the gateway can answer before a subgraph's thread has started
    const ready = await Promise.all(
      Object.values(urls).map((url) =>
        fetch(new URL('/ready', url)).then(
          (r) => r.ok,
          () => false,
        ),
      ),
    );
    if (ready.every(Boolean)) break;
    if (Date.now() > deadline) throw new Error(`${layout.name}: not ready after 3 minutes`);
    await new Promise((r) => setTimeout(r, 250));
  }
  // a first start imports the shipped IP feeds in the background after the lists: measure once it is done
  const feeds = (JSON.parse(readFileSync(path.join(layout.root, 'data', 'manifest.json'), 'utf8')) as { ipFeeds: unknown[] }).ipFeeds
    .length;
  for (;;) {
    const res = await fetch(urls.gateway, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-secret': ADMIN_SECRET },
      body: JSON.stringify({ query: '{ ipFeeds(first: 100) { nodes { feed } } }' }),
    }).then(
      (r) => r.json() as Promise<{ data?: { ipFeeds: { nodes: unknown[] } } }>,
      () => undefined,
    );
    if ((res?.data?.ipFeeds.nodes.length ?? 0) >= feeds) break;
    if (Date.now() > deadline) throw new Error(`${layout.name}: the shipped IP feeds were not imported after 3 minutes`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    urls,
    pid: child.pid!,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function route(method: string, routePath: string): Route {
  const found = routes.find((r) => r.method === method && r.path === routePath);
  if (!found) throw new Error(`no route ${method} ${routePath}`);
  return found;
}

export async function rest(base: string, method: string, routePath: string, body: unknown, headers: Record<string, string>) {
  const res = await fetch(base + routePath, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

interface Client {
  apiKey: string;
  principal: Principal;
}

async function createClient(base: string, service: string): Promise<Client> {
  const res = await rest(
    base,
    'POST',
    '/admin/api-clients',
    { name: `bench ${service}`, service, rateLimit: 1_000_000 },
    { 'x-admin-secret': ADMIN_SECRET },
  );
  if (res.status !== 201) throw new Error(`createClient: ${res.status} ${JSON.stringify(res.body)}`);
  const { apiKey, id, organizationId } = res.body as { apiKey: string; id: string; organizationId: string };
  return {
    apiKey,
    principal: {
      kind: 'client',
      organizationId,
      clientId: id,
      service: service as Principal['service'],
      environment: 'live',
      permissions: [],
    },
  };
}

/** One operation measured through REST, the gateway and its subgraph (same GraphQL operation and variables). */
interface Operation {
  name: string;
  route: Route;
  /** The REST path with its parameters filled in, and those parameters. */
  path: string;
  params?: Record<string, string>;
  body?: Record<string, unknown>;
  client: Client;
  subgraph: 'verification' | 'risk' | 'notify';
  /** The records a read goes round (RECORD in its path and variables). */
  records?: string[];
}

export function specs(op: Operation, urls: Running['urls'], connections: number, cpuOf?: LoadSpec['cpuOf']) {
  const variables = op.route.variables({ params: op.params ?? {}, query: {}, body: op.body ?? {}, files: {} });
  const graphqlBody = JSON.stringify({ query: op.route.operation, variables });
  const unique = JSON.stringify(op.body ?? {}).includes(UNIQUE) ? UNIQUE : undefined;
  const rotate = op.records
    ? { placeholder: RECORD, values: op.records }
    : JSON.stringify(op.body ?? {}).includes(PERSON)
      ? { placeholder: PERSON, values: PEOPLE }
      : undefined;
  const common = { connections, seconds: SECONDS, warmupSeconds: WARMUP, unique, rotate };
  const auth = { 'x-api-key': op.client.apiKey, 'content-type': 'application/json' };
  return {
    rest: {
      ...common,
      url: urls.rest + op.path,
      method: op.route.method as 'GET' | 'POST',
      headers: auth,
      body: op.body ? JSON.stringify(op.body) : undefined,
      cpuOf,
    } satisfies LoadSpec,
    graphql: { ...common, url: urls.gateway, method: 'POST', headers: auth, body: graphqlBody, cpuOf } satisfies LoadSpec,
    subgraph: {
      ...common,
      url: urls[op.subgraph],
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: graphqlBody,
      sign: { internalSecret: INTERNAL_SECRET, principal: op.client.principal, audience: op.subgraph },
    } satisfies LoadSpec,
  };
}

type Figures = Record<string, LoadResult>;

/** What each layout is measured on: its clients and records, made once. */
interface Prepared {
  /** The identity read, going round READ_RECORDS records; `readOne`, one record every time. */
  read: Operation;
  readOne: Operation;
  operations: Operation[];
}

export async function prepare(layout: Layout, urls: Running['urls']): Promise<Prepared> {
  const verification = await createClient(urls.rest, 'verification');
  const created = await rest(
    urls.rest,
    'POST',
    '/verifications/identity',
    { userId: 'bench-reader', tier: 'STANDARD' },
    { 'x-api-key': verification.apiKey },
  );
  const id = (created.body as { id: string }).id;
  const records: string[] = [];
  for (let i = 0; i < READ_RECORDS; i++) {
    const other = await rest(
      urls.rest,
      'POST',
      '/verifications/identity',
      { userId: `bench-reader-${i}`, tier: 'STANDARD' },
      { 'x-api-key': verification.apiKey },
    );
    records.push((other.body as { id: string }).id);
  }
  const identityRead = route('GET', '/verifications/identity/:id');
  const read: Operation = {
    name: 'identity read',
    route: identityRead,
    path: `/verifications/identity/${RECORD}`,
    params: { id: RECORD },
    client: verification,
    subgraph: 'verification',
    records,
  };
  // every request the same record: identical queries in flight share one subgraph call
  const readOne: Operation = { ...read, path: `/verifications/identity/${id}`, params: { id }, records: undefined };
  if (!layout.operations || process.env.STACK_BENCH_OPERATIONS === 'false') return { read, readOne, operations: [] };
  const risk = await createClient(urls.rest, 'risk');
  const notify = await createClient(urls.rest, 'notify');
  await rest(urls.rest, 'POST', '/templates', route('POST', '/templates').example, { 'x-api-key': notify.apiKey });
  // the shipped lists are imported in the background on first start: wait for screening to answer
  const aml = route('POST', '/screening/aml');
  for (const deadline = Date.now() + 300_000; ;) {
    const res = await rest(urls.rest, 'POST', '/screening/aml', aml.example, { 'x-api-key': verification.apiKey });
    if (res.status === 200) break;
    if (Date.now() > deadline) throw new Error(`${layout.name}: screening not ready: ${res.status}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  const send = route('POST', '/send');
  const evaluate = route('POST', '/evaluate');
  return {
    read,
    readOne,
    operations: [
      {
        name: 'identity create',
        route: route('POST', '/verifications/identity'),
        path: '/verifications/identity',
        body: { userId: `u-${UNIQUE}`, tier: 'BASIC' },
        client: verification,
        subgraph: 'verification',
      },
      {
        name: 'AML screening',
        route: aml,
        path: '/screening/aml',
        // a different person each time, of a population that repeats its names (bench/support/names.ts)
        body: { ...aml.example, userId: `u-${UNIQUE}`, fullName: PERSON },
        client: verification,
        subgraph: 'verification',
      },
      { name: 'notify send', route: send, path: '/send', body: send.example, client: notify, subgraph: 'notify' },
      {
        name: 'risk evaluate',
        route: evaluate,
        path: '/evaluate',
        body: { ...evaluate.example, transaction_id: `tx-${UNIQUE}` },
        client: risk,
        subgraph: 'risk',
      },
    ],
  };
}

/** Stock Apollo Gateway + Apollo Server over a running layout's subgraphs, in a process of its own. */
async function startStockGateway(urls: Running['urls'], principal: Principal): Promise<Spawned> {
  const subgraphs = (['verification', 'risk', 'notify'] as const).map((name) => ({ name, url: urls[name] }));
  return spawnNode(path.join(BENCH_DIR, 'gateways', 'process.js'), [
    'apollo-signed',
    JSON.stringify({ subgraphs, internalSecret: INTERNAL_SECRET, principal }),
  ]);
}

/** Every measurement of one layout, in a fixed order: `[name, spec]`. */
function plan(prepared: Prepared, { urls, pid }: Running, stockUrl?: string): Array<[string, LoadSpec]> {
  // the npm start process's CPU per read, REST and GraphQL: at saturation their p50s differ by connections × the difference
  const read = specs(prepared.read, urls, CONNECTIONS, { 'npm start': pid });
  const single = specs(prepared.read, urls, 1);
  const one = specs(prepared.readOne, urls, CONNECTIONS);
  const steps: Array<[string, LoadSpec]> = [
    ['identity read REST', read.rest],
    ['identity read GraphQL', read.graphql],
    ['identity read subgraph', read.subgraph],
    ...(stockUrl
      ? ([['identity read stock Apollo', { ...read.graphql, url: stockUrl, headers: { 'content-type': 'application/json' } }]] as Array<
          [string, LoadSpec]
        >)
      : []),
    ['identity read REST, 1 conn', single.rest],
    ['identity read GraphQL, 1 conn', single.graphql],
    ['identity read REST, one record', one.rest],
    ['identity read GraphQL, one record', one.graphql],
  ];
  for (const op of prepared.operations) {
    const s = specs(op, urls, OPERATION_CONNECTIONS, { 'npm start': pid });
    steps.push([`${op.name} REST`, s.rest], [`${op.name} GraphQL`, s.graphql], [`${op.name} subgraph`, s.subgraph]);
  }
  return steps;
}

export async function run(): Promise<void> {
  const base: Layout[] = process.env.BENCH_BASE_DIR
    ? [{ name: 'base', root: path.resolve(process.env.BENCH_BASE_DIR), env: {}, operations: true }]
    : [];
  const layouts: Layout[] = [
    ...base,
    { name: 'single, REST over HTTP', root: REPO, env: { STACK_LAYOUT: 'single', REST_IN_PROCESS: 'false' }, operations: false },
    { name: 'single (default)', root: REPO, env: { STACK_LAYOUT: 'single' }, operations: true, stock: true },
    // every request makes its own subgraph calls (the reads repeat one record: sharing joins them)
    { name: 'single, no query sharing', root: REPO, env: { STACK_LAYOUT: 'single', GATEWAY_SHARE_QUERIES: 'false' }, operations: false },
    { name: 'threads', root: REPO, env: { STACK_LAYOUT: 'threads' }, operations: true },
    { name: 'threads, 2 gateways', root: REPO, env: { STACK_LAYOUT: 'threads', GATEWAY_THREADS: '2' }, operations: false },
  ].filter((l) => !process.env.STACK_BENCH_LAYOUTS || process.env.STACK_BENCH_LAYOUTS.split(',').some((x) => l.name.startsWith(x)));
  // every layout runs at once (idle but for its pollers) and each measurement goes round them in
  // turn, so they share the machine's noise; the median of STACK_BENCH_ROUNDS rounds is kept
  const running: Running[] = [];
  const stocks: Spawned[] = [];
  const results: Array<[Layout, Figures]> = [];
  let turns: Turns = {};
  try {
    const plans: Array<Array<[string, LoadSpec]>> = [];
    for (const layout of layouts) {
      console.log(`… starting ${layout.name}`);
      const r = await startPlatform(layout);
      running.push(r);
      const prepared = await prepare(layout, r.urls);
      const stock = layout.stock ? await startStockGateway(r.urls, prepared.read.client.principal) : undefined;
      if (stock) stocks.push(stock);
      plans.push(plan(prepared, r, stock?.info.url as string | undefined));
    }
    const samples = layouts.map(() => new Map<string, LoadResult[]>());
    for (let round = 0; round < ROUNDS; round++) {
      const steps = Math.max(...plans.map((p) => p.length));
      for (let step = 0; step < steps; step++) {
        for (const [i, p] of plans.entries()) {
          const [name, spec] = p[step] ?? [];
          if (!name || !spec) continue;
          samples[i].set(name, [...(samples[i].get(name) ?? []), await load(spec)]);
        }
      }
    }
    for (const [i, layout] of layouts.entries()) {
      results.push([layout, Object.fromEntries([...samples[i]].map(([name, rs]) => [name, median(rs)]))]);
    }
    const byDefault = layouts.findIndex((l) => l.name === 'single (default)');
    if (byDefault >= 0 && TURN_SECONDS > 0) turns = await inTurns(new Map(plans[byDefault]), running[byDefault].pid);
  } finally {
    for (const s of stocks) await s.stop();
    for (const r of running) await r.stop();
  }
  const first = results[0][1];
  console.log(
    `\nIdentity read of ${READ_RECORDS} records in turn, ${CONNECTIONS} connections (req/s, p50/p95 ms); ratios to the first row; ` +
      'last, one record read by every request (identical queries in flight share a subgraph call)',
  );
  table(
    [
      'layout',
      'GraphQL req/s',
      'p50',
      'p95',
      '×',
      'REST req/s',
      'p50',
      'p95',
      '×',
      'subgraph req/s',
      'gateway/subgraph',
      'REST − GraphQL p50',
      'npm start CPU ms/read: REST / GraphQL',
      'REST overhead p50 @1 conn',
      'one record: GraphQL req/s',
      'REST req/s',
      'stock Apollo req/s',
      'p50',
      'p95',
      'GraphQL ÷ stock',
    ],
    results.map(([layout, r]) => [
      layout.name,
      f0(r['identity read GraphQL'].rps),
      f1(r['identity read GraphQL'].p50),
      f1(r['identity read GraphQL'].p95),
      f2(r['identity read GraphQL'].rps / first['identity read GraphQL'].rps),
      f0(r['identity read REST'].rps),
      f1(r['identity read REST'].p50),
      f1(r['identity read REST'].p95),
      f2(r['identity read REST'].rps / first['identity read REST'].rps),
      f0(r['identity read subgraph'].rps),
      f2(r['identity read GraphQL'].rps / r['identity read subgraph'].rps),
      `${f2(r['identity read REST'].p50 - r['identity read GraphQL'].p50)} ms`,
      cpuPerRead(r),
      `${f2(r['identity read REST, 1 conn'].p50 - r['identity read GraphQL, 1 conn'].p50)} ms`,
      f0(r['identity read GraphQL, one record'].rps),
      f0(r['identity read REST, one record'].rps),
      ...(r['identity read stock Apollo']
        ? [
            f0(r['identity read stock Apollo'].rps),
            f1(r['identity read stock Apollo'].p50),
            f1(r['identity read stock Apollo'].p95),
            `${f2(r['identity read GraphQL'].rps / r['identity read stock Apollo'].rps)}×`,
          ]
        : ['', '', '', '']),
    ]),
  );
  for (const [layout, r] of results.filter(([l, figures]) => l.operations && figures['identity create REST'])) {
    console.log(`\nOperations, ${layout.name}, ${OPERATION_CONNECTIONS} connections: req/s, p50/p99 ms; where the time goes at p50`);
    table(
      [
        'operation',
        'REST req/s',
        'p50',
        'p99',
        'GraphQL req/s',
        'p50',
        'subgraph req/s',
        'p50',
        'REST layer',
        'gateway',
        'subgraph',
        'errors',
        'REST CPU ms/op: npm start / PG / load',
        'at most /s',
      ],
      ['identity create', 'AML screening', 'notify send', 'risk evaluate'].map((op) => {
        const [x, g, s] = [r[`${op} REST`], r[`${op} GraphQL`], r[`${op} subgraph`]];
        return [
          op,
          f0(x.rps),
          f1(x.p50),
          f1(x.p99),
          f0(g.rps),
          f1(g.p50),
          f0(s.rps),
          f1(s.p50),
          f1(x.p50 - g.p50),
          f1(g.p50 - s.p50),
          f1(s.p50),
          `${x.non2xx + x.errors}/${g.non2xx + g.errors}/${s.non2xx + s.errors}`,
          x.cpu ? x.cpu.perOp.map(([, ms]) => f2(ms)).join(' / ') : '',
          x.cpu ? f0(x.cpu.ceiling) : '',
        ];
      }),
    );
  }
  stackVerdicts(results, turns);
}

/** The identity read's sides measured in turns: REST against GraphQL, and ours against stock Apollo Gateway. */
interface Turns {
  rest?: { REST: SideResult; GraphQL: SideResult };
  stock?: { ours: SideResult; stock: SideResult };
}

/**
 * Two sides of the identity read taking turns of half a second on the same connections
 * (`interleaved`) for TURN_SECONDS each pair: REST and GraphQL (the adapter's overhead, 31.6), and,
 * when stock Apollo Gateway runs beside the default layout, ours and stock (31.3).
 */
async function inTurns(plan: Map<string, LoadSpec>, pid: number): Promise<Turns> {
  const settings = { connections: CONNECTIONS, seconds: TURN_SECONDS, warmupSeconds: WARMUP, sliceMs: 500, pid };
  const graphql = plan.get('identity read GraphQL')!;
  const stock = plan.get('identity read stock Apollo');
  return {
    rest: (await interleaved({ REST: plan.get('identity read REST')!, GraphQL: graphql }, settings)) as Turns['rest'],
    stock: stock ? ((await interleaved({ ours: graphql, stock }, settings)) as Turns['stock']) : undefined,
  };
}

/** The npm start process's CPU milliseconds per identity read, through REST and through GraphQL. */
function cpuPerRead(r: Figures): string {
  const ms = (x: LoadResult) => x.cpu?.perOp.find(([name]) => name === 'npm start')?.[1] ?? NaN;
  return `${f2(ms(r['identity read REST']))} / ${f2(ms(r['identity read GraphQL']))}`;
}

/** The targets of issue 14 this bench measures, for the default layout (and against the base when there is one). */
function stackVerdicts(results: Array<[Layout, Figures]>, turns: Turns): void {
  const of = (name: string) => results.find(([l]) => l.name === name)?.[1];
  const base = of('base');
  const ours = of('single (default)');
  if (!ours) return;
  const oneConnection = ours['identity read REST, 1 conn'].p50 - ours['identity read GraphQL, 1 conn'].p50;
  verdict({
    item: '14.4',
    figure: 'REST − GraphQL p50, identity read at 1 connection',
    measured: `${f2(oneConnection)} ms`,
    target: '≤ 1 ms',
    met: oneConnection <= 1,
  });
  const stock = ours['identity read stock Apollo'];
  if (turns.stock) {
    const { ours: side, stock: other } = turns.stock;
    const ratio = side.requests / other.requests;
    verdict({
      item: '31.3',
      figure:
        `identity read of ${READ_RECORDS} records, our gateway ÷ stock Apollo Gateway req/s, in turns of 0.5 s for ${TURN_SECONDS} s ` +
        `(p95 ${f1(side.p95)} vs ${f1(other.p95)} ms; one run each: ${stock ? f2(ours['identity read GraphQL'].rps / stock.rps) : '—'}×)`,
      measured: `${f2(ratio)}×`,
      target: '≥ 2×, lower p95',
      met: ratio >= 2 && side.p95 < other.p95,
    });
  } else if (stock) {
    const ratio = ours['identity read GraphQL'].rps / stock.rps;
    verdict({
      item: '31.3',
      figure: `identity read of ${READ_RECORDS} records, our gateway ÷ stock Apollo Gateway req/s, one run each (p95 ${f1(ours['identity read GraphQL'].p95)} vs ${f1(stock.p95)} ms)`,
      measured: `${f2(ratio)}×`,
      target: '≥ 2×, lower p95',
      met: ratio >= 2 && ours['identity read GraphQL'].p95 < stock.p95,
    });
  }
  if (turns.rest) {
    const { REST: rest, GraphQL: graphql } = turns.rest;
    verdict({
      item: '31.6',
      figure:
        `REST − GraphQL p50, identity read of ${READ_RECORDS} records at ${CONNECTIONS} connections, in turns of 0.5 s for ${TURN_SECONDS} s ` +
        `(p50 ${f2(rest.p50)} vs ${f2(graphql.p50)} ms; npm start CPU ms per read ${f2(rest.cpuMs)} vs ${f2(graphql.cpuMs)})`,
      measured: `${f2(rest.p50 - graphql.p50)} ms`,
      target: '≤ 1 ms',
      met: rest.p50 - graphql.p50 <= 1,
    });
  } else {
    const busy = ours['identity read REST'].p50 - ours['identity read GraphQL'].p50;
    verdict({
      item: '31.6',
      figure: `REST − GraphQL p50, identity read of ${READ_RECORDS} records at ${CONNECTIONS} connections, one run each (npm start CPU ms per read, REST / GraphQL: ${cpuPerRead(ours)})`,
      measured: `${f2(busy)} ms`,
      target: '≤ 1 ms',
      met: busy <= 1,
    });
  }
  if (!base) return;
  for (const [name, figures] of [
    ['default', ours],
    ['no query sharing', of('single, no query sharing')],
  ] as const) {
    if (!figures) continue;
    const ratio = figures['identity read GraphQL'].rps / base['identity read GraphQL'].rps;
    verdict({
      item: '14.2',
      figure: `identity read through the gateway req/s ÷ base (${name})`,
      measured: `${f2(ratio)}×`,
      target: '≥ 3×',
      met: ratio >= 3,
    });
  }
  const aml = ours['AML screening REST'];
  const amlBase = base['AML screening REST'];
  if (aml && amlBase) {
    const ceiling = aml.cpu ? `; the cores' ceiling at its CPU cost ${f2(aml.cpu.ceiling / amlBase.rps)}×` : '';
    verdict({
      item: '14.7',
      figure: `AML screening through REST req/s ÷ base, p99 (${OPERATION_CONNECTIONS} connections)`,
      measured: `${f2(aml.rps / amlBase.rps)}×, ${f1(aml.p99)} ms${ceiling}`,
      target: '≥ 5×, ≤ 50 ms',
      met: aml.rps >= 5 * amlBase.rps && aml.p99 <= 50,
    });
  }
}
