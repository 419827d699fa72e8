import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { principalHeaders, requestDigest, type Principal } from '../../platform/auth/principal.js';
import { Agent, request as httpRequest } from 'node:http';
import { cpuAccount, type CpuPerOperation } from './cpu.js';
import { seeded } from './random.js';

/**
 * The load generator, run as a process of its own (never inside the process measured): one
 * autocannon run, or one open loop at a rate, bounded in time, on loopback. Argument: a JSON `LoadSpec`; prints a JSON
 * `LoadResult` on stdout. Latencies of every response are kept, so any percentile is exact.
 */
export interface LoadSpec {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  seconds: number;
  /** Run this long first, unmeasured (JIT, caches, keep-alive connections). */
  warmupSeconds?: number;
  /** Requests per second over all connections, arriving as independent clients do (open loop, `openLoop`); unset: as fast as answers come. */
  rate?: number;
  /** Replaced in the body by a value unique to each request (writes that must not repeat). */
  unique?: string;
  /** Replaced in the body and the URL's path by the next of `values`, in turn (the names a screening is asked for, the records read). */
  rotate?: { placeholder: string; values: string[] };
  /** Signs a principal for each request as the gateway does (a subgraph called directly). */
  sign?: { internalSecret: string; principal: Principal; audience: string };
  /** Processes (by name) whose CPU per request of the measured run is reported, with PostgreSQL's and this generator's. */
  cpuOf?: Record<string, number>;
}

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  /** Answers with a status other than 2xx, and connection errors/timeouts. */
  non2xx: number;
  errors: number;
  /** When `cpuOf` was given. */
  cpu?: CpuPerOperation;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;

/** Each request's path, body and headers: the spec's, varied as it asks (a unique value, the next record, a signature). */
function requestMaker(spec: LoadSpec): (path: string) => { path: string; body?: string; headers: Record<string, string> } {
  const prefix = randomBytes(4).toString('hex');
  let sequence = 0;
  return (path) => {
    sequence += 1;
    let body = spec.unique ? spec.body?.replaceAll(spec.unique, `${prefix}-${sequence}`) : spec.body;
    if (spec.rotate) {
      const value = spec.rotate.values[sequence % spec.rotate.values.length];
      body = body?.replaceAll(spec.rotate.placeholder, value);
      path = path.replaceAll(spec.rotate.placeholder, value);
    }
    const signed = spec.sign
      ? principalHeaders(spec.sign.principal, spec.sign.internalSecret, {
          audience: spec.sign.audience,
          request: requestDigest(JSON.parse(body!)),
        })
      : {};
    return { path, body, headers: { ...spec.headers, ...signed } };
  };
}

function result(latencies: number[], seconds: number, counts: { non2xx: number; errors: number }, cpu?: CpuPerOperation): LoadResult {
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    ...counts,
    cpu,
  };
}

/** As fast as answers come: autocannon, each connection sending its next request on the last one's answer. */
async function closedLoop(spec: LoadSpec, seconds: number, record: boolean): Promise<LoadResult> {
  const latencies: number[] = [];
  let done!: (result: autocannon.Result) => void;
  let failed!: (error: unknown) => void;
  const finished = new Promise<autocannon.Result>((resolve, reject) => ([done, failed] = [resolve, reject]));
  const vary = spec.unique !== undefined || spec.rotate !== undefined || spec.sign !== undefined;
  const pathname = new URL(spec.url).pathname;
  const make = requestMaker(spec);
  const setupRequest = (request: any) => ({ ...request, ...make(pathname) });
  const options: autocannon.Options = {
    url: spec.url,
    method: spec.method ?? 'GET',
    headers: spec.headers,
    body: spec.body,
    connections: spec.connections,
    duration: seconds,
    timeout: 10,
    ...(vary && { requests: [{ setupRequest }] }),
  };
  const cpu = record && spec.cpuOf ? cpuAccount(spec.cpuOf) : undefined;
  const instance = autocannon(options, (error, result) => (error ? failed(error) : done(result)));
  if (record) instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => latencies.push(ms));
  const outcome = await finished;
  return result(
    latencies,
    seconds,
    { non2xx: outcome.non2xx, errors: outcome.errors + outcome.timeouts },
    cpu?.measure(outcome.requests.total),
  );
}

/**
 * At `rate` requests per second, as many independent clients arrive: exponential gaps between
 * requests (a Poisson process, seeded), each sent when due whatever is still unanswered, over at
 * most `connections` kept-alive sockets (more wait for a free one); each latency counted from the
 * moment the request was due, so a slow answer delays no measurement. autocannon's own rate
 * (`overallRate`) is not used: each of its connections sends its share of a second at once when
 * the second starts, bursts of every connection together that no population of clients makes.
 */
async function openLoop(spec: LoadSpec, seconds: number, record: boolean): Promise<LoadResult> {
  const rate = spec.rate!;
  const url = new URL(spec.url);
  const agent = new Agent({ keepAlive: true, maxSockets: spec.connections });
  const make = requestMaker(spec);
  const gaps = seeded(`load/${url.pathname}/${rate}`);
  const latencies: number[] = [];
  const counts = { non2xx: 0, errors: 0 };
  const send = (due: number) =>
    new Promise<void>((resolve) => {
      const { path, body, headers } = make(url.pathname);
      // a request less than a timer's millisecond early is sent at once: counted from then
      const from = Math.max(due, performance.now());
      const answered = (status: number) => {
        if (status < 200 || status > 299) counts.non2xx++;
        latencies.push(performance.now() - from);
        resolve();
      };
      const req = httpRequest(
        { host: url.hostname, port: url.port, path, method: spec.method ?? 'GET', agent, headers, timeout: 10_000 },
        (res) => {
          res.resume();
          res.on('end', () => answered(res.statusCode ?? 0));
          res.on('error', () => (counts.errors++, resolve()));
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', () => (counts.errors++, resolve()));
      req.end(body);
    });
  const cpu = record && spec.cpuOf ? cpuAccount(spec.cpuOf) : undefined;
  const started = performance.now();
  const end = started + seconds * 1000;
  const inflight: Promise<void>[] = [];
  for (let due = started; ;) {
    due += (-Math.log(1 - gaps.next()) / rate) * 1000;
    if (due >= end) break;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    inflight.push(send(due));
  }
  await Promise.all(inflight);
  agent.destroy();
  if (!record) latencies.length = 0;
  return result(latencies, seconds, counts, cpu?.measure(latencies.length));
}

const run = (spec: LoadSpec, seconds: number, record: boolean) => (spec.rate ? openLoop : closedLoop)(spec, seconds, record);

const spec = JSON.parse(process.argv[2] ?? '{}') as LoadSpec;
if (spec.warmupSeconds) await run(spec, spec.warmupSeconds, false);
process.stdout.write(JSON.stringify(await run(spec, spec.seconds, true)) + '\n');
