import { readFileSync } from 'node:fs';
import { startStackProcess, type StackProcess } from './support/stack-process.js';

/**
 * Sustained load (long: `npm run test:long`): the real `npm start` entry, its own embedded
 * PostgreSQL, LOAD_SECONDS (60) of mixed REST and GraphQL traffic at a steady open-loop LOAD_RATE
 * (50 requests/s). Every request must succeed; p50/p95/p99 are reported per operation; the
 * process's resident memory after the warm-up must stay flat.
 */

const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const LOAD_RATE = Number(process.env.LOAD_RATE ?? 50);
/** Requests in flight at once; one more would be a request the stack could not take in time: an error. */
const MAX_IN_FLIGHT = 200;
const REQUEST_TIMEOUT_MS = 30_000;
/** Resident memory may grow this much between the window after the warm-up and the last one. */
const RSS_GROWTH_BOUND = 0.25;
const ADMIN_SECRET = 'load-admin-secret-0123456789';
const METRICS_TOKEN = 'load-metrics-token-0123456789';

interface Sample {
  kind: string;
  ms: number;
  error?: string;
}

type Call = { method: string; url: string; headers: Record<string, string>; body?: unknown };
type Check = (status: number, body: any) => string | undefined;

/** 2xx, and for GraphQL no `errors`. */
const ok2xx: Check = (status, body) => (status >= 200 && status < 300 ? undefined : `HTTP ${status} ${JSON.stringify(body).slice(0, 300)}`);
const okGraphQL: Check = (status, body) =>
  status === 200 && body?.data && !body.errors ? undefined : `HTTP ${status} ${JSON.stringify(body).slice(0, 300)}`;

const percentile = (sorted: number[], q: number) => (sorted.length ? sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] : NaN);
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

describe('sustained load against npm start', () => {
  let stack: StackProcess | undefined;

  afterAll(async () => {
    await stack?.stop();
  });

  it(
    `${LOAD_SECONDS} s of mixed traffic at ${LOAD_RATE} requests/s: no errors, p99 reported, memory flat`,
    async () => {
      stack = await startStackProcess({
        readyTimeoutMs: 120_000,
        env: {
          // as `npm start` runs
          NODE_ENV: 'development',
          LOG_LEVEL: 'info',
          ADMIN_SECRET,
          METRICS_TOKEN,
          // the load is one organization per service: rate limiting is not what this measures
          DEFAULT_RATE_LIMIT: '1000000',
          ORGANIZATION_RATE_LIMIT: '1000000',
        },
      });
      const { rest: restUrl, gateway } = stack.urls;

      const send = async ({ method, url, headers, body }: Call) => {
        const res = await fetch(url, {
          method,
          headers: { ...(body !== undefined && { 'content-type': 'application/json' }), ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        const text = await res.text();
        let parsed: any = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // kept as text for the error message
        }
        return { status: res.status, body: parsed };
      };
      const must = async (call: Call, check: Check = ok2xx) => {
        const { status, body } = await send(call);
        const error = check(status, body);
        if (error) throw new Error(`${call.method} ${call.url}: ${error}`);
        return body;
      };
      const restCall = (method: string, path: string, headers: Record<string, string>, body?: unknown): Call => ({
        method,
        url: restUrl + path,
        headers,
        body,
      });
      const gqlCall = (query: string, variables: Record<string, unknown>, headers: Record<string, string>): Call => ({
        method: 'POST',
        url: gateway,
        headers,
        body: { query, variables },
      });

      // keys (one per service) and a template
      const admin = { 'x-admin-secret': ADMIN_SECRET };
      const key = async (service: string, environment: string) =>
        (await must(restCall('POST', '/v1/admin/api-clients', admin, { name: `load ${service}`, service, environment }))).apiKey as string;
      const v = { 'x-api-key': await key('verification', 'live') };
      const r = { authorization: `Bearer ${await key('risk', 'live')}` };
      const n = { authorization: `Bearer ${await key('notify', 'test')}` };
      const template = { name: 'load', channels: { email: { subject: 'Order {{order}}', html: '<p>Order {{order}} shipped</p>' } } };
      await must(restCall('POST', '/v1/templates', n, template));

      // state the operations share: identities still PENDING (to review), ids to read
      let seq = 0;
      const pending: string[] = [];
      const identities: string[] = [];
      const notifications: string[] = [];
      const pick = (ids: string[]) => ids[Math.floor(Math.random() * ids.length)];
      const account = (i: number) => `2547000${String(i % 200).padStart(5, '0')}`;
      /** Two different accounts of 200 (a transfer to oneself is a 400). */
      const parties = () => {
        const sender = Math.floor(Math.random() * 200);
        return { sender: account(sender), receiver: account(sender + 1 + Math.floor(Math.random() * 199)) };
      };
      const created = (into: string[], id: unknown) => {
        if (typeof id === 'string') into.push(id);
      };

      interface Operation {
        kind: string;
        weight: number;
        call: () => Call;
        check?: Check;
        after?: (body: any) => void;
      }
      const operations: Operation[] = [
        {
          kind: 'REST identity create',
          weight: 4,
          call: () => restCall('POST', '/v1/verifications/identity', v, { userId: `user-${++seq}`, tier: 'STANDARD' }),
          after: (body) => (created(identities, body.id), created(pending, body.id)),
        },
        {
          kind: 'REST identity get',
          weight: 3,
          call: () => restCall('GET', `/v1/verifications/identity/${pick(identities)}`, v),
        },
        {
          kind: 'REST identity review',
          weight: 2,
          call: () => {
            // each PENDING identity is reviewed once (a second review is a 409); a create stands in when none is left
            const id = pending.shift();
            if (!id) return restCall('POST', '/v1/verifications/identity', v, { userId: `user-${++seq}` });
            return restCall('POST', `/v1/verifications/identity/${id}/review`, v, {
              decision: 'VERIFIED',
              reviewedBy: 'load',
              reviewNotes: 'ok',
            });
          },
        },
        {
          kind: 'GraphQL identities by user',
          weight: 2,
          call: () =>
            gqlCall(
              `query($u: String!) { identityVerifications(filter: { userId: $u }, first: 20) { totalCount nodes { id overallStatus } } }`,
              { u: `user-${1 + Math.floor(Math.random() * Math.max(1, seq))}` },
              v,
            ),
          check: okGraphQL,
        },
        {
          kind: 'REST risk evaluate',
          weight: 4,
          call: () =>
            restCall('POST', '/v1/evaluate', r, {
              transaction_id: `tx-${++seq}`,
              amount: 100 + Math.floor(Math.random() * 50_000),
              currency: 'KES',
              ...parties(),
              channel: 'mobile_money',
              metadata: { device_id: `d-${seq % 50}`, ip: '41.90.1.2' },
            }),
        },
        {
          kind: 'GraphQL risk evaluate',
          weight: 2,
          call: () =>
            gqlCall(
              `mutation($i: EvaluateTransactionInput!) { evaluateTransaction(input: $i) { riskEvaluation { id score action } userErrors { message } } }`,
              { i: { transactionId: `tx-${++seq}`, amount: 2500, currency: 'KES', ...parties() } },
              r,
            ),
          check: okGraphQL,
        },
        {
          kind: 'GraphQL risk list',
          weight: 1,
          call: () => gqlCall(`{ riskEvaluations(first: 20) { totalCount nodes { id score action } } }`, {}, r),
          check: okGraphQL,
        },
        {
          kind: 'REST notify send',
          weight: 3,
          call: () =>
            restCall('POST', '/v1/send', n, {
              to: `user${++seq}@example.com`,
              template: 'load',
              channels: ['email'],
              data: { order: `A-${seq}` },
            }),
          after: (body) => created(notifications, body.notification_id),
        },
        {
          kind: 'GraphQL notification get',
          weight: 2,
          call: () => gqlCall(`query($id: ID!) { notification(id: $id) { id status } }`, { id: pick(notifications) }, n),
          check: okGraphQL,
        },
        {
          kind: 'REST notifications list',
          weight: 1,
          call: () => restCall('GET', '/v1/notifications?page=1&limit=20', n),
        },
        {
          kind: 'REST device fingerprint',
          weight: 2,
          call: () =>
            restCall('POST', '/v1/intelligence/device/fingerprint', v, {
              userId: `user-${seq}`,
              sessionId: `s-${++seq}`,
              ip: '41.202.207.1',
              fingerprint: {
                userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36',
                platform: 'Linux aarch64',
                screenResolution: '412x915',
                timezone: 'Africa/Lagos',
                language: 'en-NG',
                webgl: `Adreno ${seq % 7}`,
                canvas: `c-${seq % 13}`,
              },
            }),
        },
        {
          kind: 'REST IP analysis',
          weight: 1,
          call: () => restCall('POST', '/v1/intelligence/ip', v, { ip: `41.202.207.${seq++ % 250}` }),
        },
        {
          kind: 'GraphQL IP analysis',
          weight: 1,
          call: () =>
            gqlCall(
              `mutation($i: AnalyzeIpInput!) { analyzeIp(input: $i) { ipAnalysis { riskScore riskLevel } userErrors { message } } }`,
              { i: { ip: '3.5.140.9' } },
              v,
            ),
          check: okGraphQL,
        },
      ];
      // the mix, in a fixed interleaved order: every second carries the same blend
      const cycle = operations.flatMap((op) => Array.from({ length: op.weight }, (_, i) => ({ op, i })));
      cycle.sort((a, b) => a.i / a.op.weight - b.i / b.op.weight);

      // every operation once before the clock starts: a broken one fails here, with its answer
      for (const op of operations) {
        const body = await must(op.call(), op.check);
        op.after?.(body);
      }

      // memory, every second: the platform process's resident set (/proc, else its Prometheus gauge)
      // and, to tell a leak from the allocator keeping pages, its V8 heap in use
      const rss: Array<{ t: number; bytes: number; heap: number }> = [];
      const readMemory = async () => {
        const text = await (await fetch(`${restUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
        const gauge = (name: string) => Number(new RegExp(`^${name}\\{[^}]*\\} (\\d+)`, 'm').exec(text)?.[1]);
        let bytes = gauge('process_resident_memory_bytes');
        try {
          bytes = 1024 * Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${stack!.pid}/status`, 'utf8'))?.[1]);
        } catch {
          // no /proc: the gauge it is
        }
        return { bytes, heap: gauge('nodejs_heap_size_used_bytes') };
      };

      // open loop: request i leaves at start + i / rate whatever the answers before it
      const samples: Sample[] = [];
      const total = Math.round(LOAD_SECONDS * LOAD_RATE);
      let inFlight = 0;
      let maxInFlight = 0;
      let maxLagMs = 0;
      const running: Array<Promise<void>> = [];
      const start = performance.now();
      const sampler = setInterval(() => {
        const t = (performance.now() - start) / 1000;
        void readMemory().then((m) => rss.push({ t, ...m }));
      }, 1000);
      try {
        for (let i = 0; i < total; i++) {
          const due = start + (i * 1000) / LOAD_RATE;
          const wait = due - performance.now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          maxLagMs = Math.max(maxLagMs, performance.now() - due);
          const { op } = cycle[i % cycle.length];
          if (inFlight >= MAX_IN_FLIGHT) {
            samples.push({ kind: op.kind, ms: NaN, error: `not sent: ${inFlight} requests in flight` });
            continue;
          }
          inFlight++;
          maxInFlight = Math.max(maxInFlight, inFlight);
          const sent = performance.now();
          running.push(
            send(op.call())
              .then(({ status, body }) => {
                const error = (op.check ?? ok2xx)(status, body);
                samples.push({ kind: op.kind, ms: performance.now() - sent, error });
                if (!error) op.after?.(body);
              })
              .catch(
                (err: Error) => void samples.push({ kind: op.kind, ms: performance.now() - sent, error: `${err.name}: ${err.message}` }),
              )
              .finally(() => void inFlight--),
          );
        }
        await Promise.all(running);
      } finally {
        clearInterval(sampler);
      }
      const elapsed = (performance.now() - start) / 1000;

      // report
      const row = (kind: string, of: Sample[]) => {
        const ms = of
          .filter((s) => !s.error)
          .map((s) => s.ms)
          .sort((a, b) => a - b);
        const f = (x: number) => (Number.isNaN(x) ? '-' : x.toFixed(1));
        return {
          operation: kind,
          requests: of.length,
          errors: of.filter((s) => s.error).length,
          p50: f(percentile(ms, 0.5)),
          p95: f(percentile(ms, 0.95)),
          p99: f(percentile(ms, 0.99)),
          max: f(ms.at(-1) ?? NaN),
        };
      };
      const table = [
        ...operations.map((op) =>
          row(
            op.kind,
            samples.filter((s) => s.kind === op.kind),
          ),
        ),
        row('all', samples),
      ];
      const warmUp = Math.min(15, LOAD_SECONDS / 4);
      const window = Math.min(15, (LOAD_SECONDS - warmUp) / 2);
      const earlySamples = rss.filter((s) => s.t >= warmUp && s.t < warmUp + window);
      const lateSamples = rss.filter((s) => s.t >= LOAD_SECONDS - window && s.t <= LOAD_SECONDS);
      const early = earlySamples.map((s) => s.bytes);
      const late = lateSamples.map((s) => s.bytes);
      const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
      console.log(
        [
          `sustained load: ${samples.length} requests in ${elapsed.toFixed(1)} s = ${(samples.length / elapsed).toFixed(1)} requests/s ` +
            `(target ${LOAD_RATE}/s for ${LOAD_SECONDS} s; send lag max ${maxLagMs.toFixed(1)} ms, at most ${maxInFlight} in flight)`,
          'latency in ms (successful requests):',
          ...table.map(
            (t) =>
              `  ${t.operation.padEnd(28)} ${String(t.requests).padStart(6)} req ${String(t.errors).padStart(4)} err   ` +
              `p50 ${t.p50.padStart(7)}  p95 ${t.p95.padStart(7)}  p99 ${t.p99.padStart(7)}  max ${t.max.padStart(7)}`,
          ),
          `RSS: ${mb(mean(early))} mean over ${warmUp}-${warmUp + window} s, ${mb(mean(late))} over ${LOAD_SECONDS - window}-${LOAD_SECONDS} s ` +
            `(${((mean(late) / mean(early) - 1) * 100).toFixed(1)}%; bound +${RSS_GROWTH_BOUND * 100}%), ` +
            `min ${mb(Math.min(...rss.map((s) => s.bytes)))}, max ${mb(Math.max(...rss.map((s) => s.bytes)))}; ` +
            `V8 heap in use ${mb(mean(earlySamples.map((s) => s.heap)))} then ${mb(mean(lateSamples.map((s) => s.heap)))}`,
        ].join('\n'),
      );

      const errors = samples.filter((s) => s.error);
      expect(errors.slice(0, 10).map((s) => `${s.kind}: ${s.error}`)).toEqual([]);
      expect(samples).toHaveLength(total);
      expect(early.length).toBeGreaterThanOrEqual(Math.floor(window) - 1);
      expect(late.length).toBeGreaterThanOrEqual(Math.floor(window) - 1);
      expect(mean(late)).toBeLessThanOrEqual(mean(early) * (1 + RSS_GROWTH_BOUND));

      // Ctrl-C stops the platform and its embedded PostgreSQL
      const stopped = await stack.stop();
      stack = undefined;
      expect(stopped).toEqual({ code: 0, signal: null, postgresStopped: true });
    },
    LOAD_SECONDS * 1000 + 300_000,
  );
});
