import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { principalHeaders, requestDigest, type Principal } from '../../platform/auth/principal.js';
import { cpuAccount, type CpuPerOperation } from './cpu.js';

/**
 * The load generator, run as a process of its own (never inside the process measured): one
 * autocannon run, bounded in time, on loopback. Argument: a JSON `LoadSpec`; prints a JSON
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
  /** Requests per second over all connections (open loop); unset: as fast as answers come. */
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

async function run(spec: LoadSpec, seconds: number, record: boolean): Promise<LoadResult> {
  const latencies: number[] = [];
  let done!: (result: autocannon.Result) => void;
  let failed!: (error: unknown) => void;
  const finished = new Promise<autocannon.Result>((resolve, reject) => ([done, failed] = [resolve, reject]));
  const prefix = randomBytes(4).toString('hex');
  let sequence = 0;
  const vary = spec.unique !== undefined || spec.rotate !== undefined || spec.sign !== undefined;
  const pathname = new URL(spec.url).pathname;
  const setupRequest = (request: any) => {
    sequence += 1;
    let body = spec.unique ? spec.body?.replaceAll(spec.unique, `${prefix}-${sequence}`) : spec.body;
    let path = request.path ?? pathname;
    if (spec.rotate) {
      const value = spec.rotate.values[sequence % spec.rotate.values.length];
      body = body?.replaceAll(spec.rotate.placeholder, value);
      path = pathname.replaceAll(spec.rotate.placeholder, value);
    }
    const signed = spec.sign
      ? principalHeaders(spec.sign.principal, spec.sign.internalSecret, {
          audience: spec.sign.audience,
          request: requestDigest(JSON.parse(body!)),
        })
      : {};
    return { ...request, path, body, headers: { ...request.headers, ...signed } };
  };
  const options: autocannon.Options = {
    url: spec.url,
    method: spec.method ?? 'GET',
    headers: spec.headers,
    body: spec.body,
    connections: spec.connections,
    duration: seconds,
    overallRate: spec.rate,
    timeout: 10,
    ...(vary && { requests: [{ setupRequest }] }),
  };
  const cpu = record && spec.cpuOf ? cpuAccount(spec.cpuOf) : undefined;
  const instance = autocannon(options, (error, result) => (error ? failed(error) : done(result)));
  if (record) instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => latencies.push(ms));
  const result = await finished;
  latencies.sort((a, b) => a - b);
  return {
    requests: result.requests.total,
    rps: result.requests.total / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    cpu: cpu?.measure(result.requests.total),
  };
}

const spec = JSON.parse(process.argv[2] ?? '{}') as LoadSpec;
if (spec.warmupSeconds) await run(spec, spec.warmupSeconds, false);
process.stdout.write(JSON.stringify(await run(spec, spec.seconds, true)) + '\n');
