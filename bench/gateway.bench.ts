import path from 'node:path';
import { freePort } from '../platform/db/embedded-postgres.js';
import { randomBytes } from 'node:crypto';
import { BENCH_DIR, benchDatabase, f0, f1, f2, insertApiClient, load, spawnNode, table, type Spawned } from './support/processes.js';
import { benchSupergraph, SINGLE_SUBGRAPH_QUERY, TEST_QUERY } from './gateways/subgraphs.js';
import type { LoadResult } from './support/load.js';
import { verdict } from './support/targets.js';

/**
 * Gateway workload (issue 14, item 1): The Guild's graphql-gateways-benchmark — four subgraphs
 * (accounts, inventory, products, reviews) and its nested TestQuery — ported to Node
 * (bench/gateways/subgraphs.ts). TestQuery runs over subgraphs as cheap as the original's Rust
 * ones (graphql-js on node:http: under Apollo Server the subgraphs' process bounded every side);
 * the one-subgraph query over Apollo Server subgraphs (what a subgraph of this platform costs, so
 * "(b) ÷ (c)" keeps issue 14's meaning). Every side in a process of its own, the load from another
 * (autocannon), 50 connections on loopback, one after the other in one run:
 * (a) stock @apollo/gateway + @apollo/server with default settings;
 * (b) our gateway (gateway/gateway.ts) with its edge authentication (an API key in PostgreSQL),
 *     rate limits, request limits and plugins; also without sharing identical subgraph queries in
 *     flight (`shareQueries: false`), and in several processes on one port;
 * (c) the products subgraph called directly, for a query it answers alone.
 * Targets: (b) ≥ 2× (a) req/s with a lower p95 on TestQuery; (b) ≥ 0.7× (c) on the one-subgraph query.
 * Each row also says the CPU milliseconds per request of the side's gateway process(es) and of the
 * subgraphs' process (/proc): the subgraphs' share is the same for every side, and bounds them all.
 * GATEWAY_BENCH_SECONDS (default 10, plus 3 s warm-up each), GATEWAY_BENCH_CONNECTIONS (50),
 * GATEWAY_BENCH_ROUNDS (3: the sides take turns, the median round is kept), GATEWAY_BENCH_PROCESSES
 * (our gateway in 1 and in this many processes sharing its port, default 2: the lever "one gateway
 * process per core"; 1 measures only one).
 */
const SECONDS = Number(process.env.GATEWAY_BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.GATEWAY_BENCH_CONNECTIONS ?? 50);
const WARMUP = Number(process.env.GATEWAY_BENCH_WARMUP ?? 3);
const ROUNDS = Number(process.env.GATEWAY_BENCH_ROUNDS ?? 3);
const PROCESSES = Number(process.env.GATEWAY_BENCH_PROCESSES ?? 2);

/** The round of median req/s (its latencies with it). */
const median = (results: LoadResult[]) => [...results].sort((a, b) => a.rps - b.rps)[Math.floor(results.length / 2)];

async function post(url: string, query: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query }),
  });
  return (await res.json()) as { data?: unknown; errors?: unknown[] };
}

interface Sides {
  subgraphs: Spawned;
  urls: Record<string, string>;
  apollo: Spawned;
  ours: Spawned;
  unshared: Spawned;
  many: Spawned[];
}

/** The four subgraphs in one process (`lean` or Apollo Server) and every gateway side over them. */
async function startSides(script: string, databaseUrl: string, internalSecret: string, lean: boolean, spawned: Spawned[]): Promise<Sides> {
  const subgraphs = await spawnNode(script, ['subgraphs', JSON.stringify({ lean })]);
  spawned.push(subgraphs);
  const urls = subgraphs.info.urls as Record<string, string>;
  const supergraphSdl = benchSupergraph(urls);
  const apollo = await spawnNode(script, ['apollo', JSON.stringify({ supergraphSdl })]);
  spawned.push(apollo);
  const ours = await spawnNode(script, ['ours', JSON.stringify({ supergraphSdl, databaseUrl, internalSecret })]);
  spawned.push(ours);
  // the lever of sharing identical subgraph queries in flight, off
  const unshared = await spawnNode(script, ['ours', JSON.stringify({ supergraphSdl, databaseUrl, internalSecret, shareQueries: false })]);
  spawned.push(unshared);
  // the same gateway in several processes on one port (SO_REUSEPORT)
  const port = await freePort();
  const many: Spawned[] = [];
  for (let i = 0; i < PROCESSES && PROCESSES > 1; i++) {
    many.push(await spawnNode(script, ['ours', JSON.stringify({ supergraphSdl, databaseUrl, internalSecret, port, reusePort: true })]));
  }
  spawned.push(...many);
  return { subgraphs, urls, apollo, ours, unshared, many };
}

export async function run(): Promise<void> {
  const db = await benchDatabase();
  const spawned: Spawned[] = [];
  const script = path.join(BENCH_DIR, 'gateways', 'process.js');
  try {
    const internalSecret = randomBytes(24).toString('base64url');
    // TestQuery over subgraphs as cheap as The Guild's (the gateways are measured, not the subgraphs);
    // the one-subgraph query against a subgraph of Apollo Server, as this platform's subgraphs cost
    const lean = await startSides(script, db.url, internalSecret, true, spawned);
    const stock = await startSides(script, db.url, internalSecret, false, spawned);
    const apiKey = await insertApiClient(db.url);
    const auth = { 'x-api-key': apiKey };

    // the same answers before anything is measured
    for (const [sides, query] of [
      [lean, TEST_QUERY],
      [stock, SINGLE_SUBGRAPH_QUERY],
    ] as const) {
      const [a, b] = [await post(sides.apollo.info.url, query), await post(sides.ours.info.url, query, auth)];
      if (a.errors || b.errors || JSON.stringify(a.data) !== JSON.stringify(b.data)) {
        throw new Error(`gateways disagree: ${JSON.stringify(a).slice(0, 300)} / ${JSON.stringify(b).slice(0, 300)}`);
      }
    }
    const direct = await post(stock.urls.products, SINGLE_SUBGRAPH_QUERY);
    if (direct.errors) throw new Error(`products subgraph: ${JSON.stringify(direct.errors)}`);

    // where each side's CPU goes: its gateway process(es) and its subgraphs' process, per request
    const pidsOf = (sides: Sides, url: string): Record<string, number> => {
      const gateways: Record<string, number> =
        url === sides.apollo.info.url
          ? { gateway: sides.apollo.child.pid! }
          : url === sides.ours.info.url
            ? { gateway: sides.ours.child.pid! }
            : url === sides.unshared.info.url
              ? { gateway: sides.unshared.child.pid! }
              : url === sides.many[0]?.info.url
                ? Object.fromEntries(sides.many.map((m, i) => [`gateway ${i + 1}`, m.child.pid!]))
                : {};
      return { ...gateways, subgraphs: sides.subgraphs.child.pid! };
    };
    const measure = (sides: Sides, url: string, query: string, headers: Record<string, string> = {}) =>
      load({
        cpuOf: pidsOf(sides, url),
        url,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ query }),
        connections: CONNECTIONS,
        seconds: SECONDS,
        warmupSeconds: WARMUP,
      });
    type Side = [string, Sides, string, string, Record<string, string>];
    const sidesOf = (what: string, sides: Sides, query: string): Side[] => [
      [`${what} (a) stock Apollo`, sides, sides.apollo.info.url, query, {}],
      [`${what} (b) ours`, sides, sides.ours.info.url, query, auth],
      [`${what} (b) ours, no sharing`, sides, sides.unshared.info.url, query, auth],
      ...(sides.many.length ? [[`${what} (b) ours, ${PROCESSES} processes`, sides, sides.many[0].info.url, query, auth] as Side] : []),
    ];
    const sides: Side[] = [
      ...sidesOf('TestQuery', lean, TEST_QUERY),
      ...sidesOf('one subgraph', stock, SINGLE_SUBGRAPH_QUERY),
      ['one subgraph (c) subgraph direct', stock, stock.urls.products, SINGLE_SUBGRAPH_QUERY, {}],
    ];
    const samples = new Map<string, LoadResult[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, at, url, query, headers] of sides)
        samples.set(name, [...(samples.get(name) ?? []), await measure(at, url, query, headers)]);
    }
    const results: Array<[string, LoadResult]> = sides.map(([name]) => [name, median(samples.get(name)!)]);
    console.log(
      `${CONNECTIONS} connections, ${SECONDS} s each after ${WARMUP} s warm-up, median of ${ROUNDS} rounds; ` +
        'TestQuery over lean subgraphs (graphql-js on node:http), the one-subgraph query over Apollo Server subgraphs',
    );
    const cpuOf = (r: LoadResult, process: (name: string) => boolean) =>
      f2((r.cpu?.perOp ?? []).filter(([name]) => process(name)).reduce((sum, [, ms]) => sum + ms, 0));
    table(
      ['', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'non-2xx', 'errors', 'CPU ms/request: gateway', 'subgraphs'],
      results.map(([name, r]) => [
        name,
        f0(r.rps),
        f1(r.p50),
        f1(r.p95),
        f1(r.p99),
        String(r.non2xx),
        String(r.errors),
        cpuOf(r, (name) => name.startsWith('gateway')),
        cpuOf(r, (name) => name === 'subgraphs'),
      ]),
    );
    const get = (name: string) => results.find(([n]) => n === name)?.[1];
    const testA = get('TestQuery (a) stock Apollo')!;
    const oneA = get('one subgraph (a) stock Apollo')!;
    const oneC = get('one subgraph (c) subgraph direct')!;
    for (const suffix of ['', ', no sharing', `, ${PROCESSES} processes`]) {
      const testB = get(`TestQuery (b) ours${suffix}`);
      const oneB = get(`one subgraph (b) ours${suffix}`);
      if (!testB || !oneB) continue;
      console.log(
        `ours${suffix}: TestQuery (b)/(a) req/s ${f2(testB.rps / testA.rps)}× (target ≥ 2), p95 ${f1(testB.p95)} vs ${f1(testA.p95)} ms (target: lower); ` +
          `one subgraph (b)/(c) ${f2(oneB.rps / oneC.rps)}× (target ≥ 0.7), (b)/(a) ${f2(oneB.rps / oneA.rps)}×`,
      );
      verdict({
        item: '14.1',
        figure: `TestQuery req/s, ours${suffix} ÷ stock Apollo Gateway; p95`,
        measured: `${f2(testB.rps / testA.rps)}×; ${f1(testB.p95)} vs ${f1(testA.p95)} ms`,
        target: '≥ 2×, lower p95',
        met: testB.rps >= 2 * testA.rps && testB.p95 < testA.p95,
      });
      verdict({
        item: '14.1',
        figure: `one-subgraph query req/s, ours${suffix} ÷ the subgraph directly`,
        measured: `${f2(oneB.rps / oneC.rps)}×`,
        target: '≥ 0.7×',
        met: oneB.rps >= 0.7 * oneC.rps,
      });
    }
  } finally {
    for (const s of spawned.reverse()) await s.stop();
    await db.stop();
  }
}
