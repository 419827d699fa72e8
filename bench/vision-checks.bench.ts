import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadConfig } from '../platform/config.js';
import { freePort, startEmbeddedPostgres, type EmbeddedDatabase } from '../platform/db/embedded-postgres.js';
import { startStack, type Stack } from '../cli/stack.js';
import { AMINA, passportPage } from '../test/support/documents.js';
import { portrait } from '../test/support/faces.js';
import { poses } from '../test/support/poses.js';

/**
 * Document and face checks through the whole stack (REST adapter → gateway → verification, one
 * vision worker process for faces and OCR: VISION_WORKERS=1, so "per core"), embedded PostgreSQL
 * unless DATABASE_URL is set:
 * - one document check: a rendered passport (face, OCR, MRZ), from the 201 to its decision;
 * - one liveness challenge photo, answered synchronously (the face models judge it);
 * - checks per second: 10 passports submitted at once, until the last is decided;
 * - the API while those 10 run: a light read's p50/p99 against the same read idle (the models run
 *   off the request thread: the ratio should stay small).
 */

const ADMIN_SECRET = 'bench-admin-secret-0123456789';
const INTERNAL_SECRET = 'bench-internal-secret-0123456789';
const RUNS = Number(process.env.VISION_BENCH_RUNS ?? 5);
const BURST = 10;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x: number) => `${x.toFixed(0)} ms`;

export async function run(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vision-bench-'));
  let embedded: EmbeddedDatabase | null = null;
  let stack: Stack | null = null;
  try {
    let databaseUrl = process.env.DATABASE_URL;
    if (!databaseUrl) {
      embedded = await startEmbeddedPostgres({ dir: path.join(dataDir, 'pg'), port: await freePort(), persistent: false });
      databaseUrl = embedded.url;
    }
    const config = loadConfig({
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      VISION_WORKERS: '1',
      STORAGE_DIR: path.join(dataDir, 'files'),
      ORGANIZATION_RATE_LIMIT: '100000000',
      GATEWAY_PORT: '0',
      VERIFICATION_PORT: '0',
      RISK_PORT: '0',
      NOTIFY_PORT: '0',
      REST_PORT: '0',
      HOST: '127.0.0.1',
    });
    stack = await startStack({ config, databaseUrl, adminSecret: ADMIN_SECRET, internalSecret: INTERNAL_SECRET });
    const base = stack.urls.rest!;
    const call = async (method: string, route: string, body?: unknown, headers: Record<string, string> = {}) => {
      const form = body instanceof FormData;
      const res = await fetch(base + route, {
        method,
        headers: { ...(body !== undefined && !form ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body === undefined || form ? (body as FormData | undefined) : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const client = await call('POST', '/v1/admin/api-clients', { name: 'vision bench' }, { 'x-admin-secret': ADMIN_SECRET });
    const h = { 'x-api-key': client.body.apiKey as string };
    const woman = await portrait('woman');
    const page = await passportPage(AMINA, woman);
    const p = await poses();

    const submit = async (userId: string) => {
      const form = new FormData();
      for (const [k, v] of Object.entries({ userId, documentType: 'PASSPORT', documentCountry: 'KE' })) form.append(k, v);
      form.append('frontImage', new Blob([new Uint8Array(page)], { type: 'image/jpeg' }), 'passport.jpg');
      const res = await call('POST', '/v1/verifications/document', form, h);
      if (res.status !== 201) throw new Error(`document: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.id as string;
    };
    const decided = async (id: string) => {
      for (;;) {
        const res = await call('GET', `/v1/verifications/document/${id}`, undefined, h);
        if (!['PENDING', 'PROCESSING'].includes(res.body.status)) return res.body.status as string;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };

    // warm-up: models load on first use
    await decided(await submit('warm-up'));

    const documentTimes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      const status = await decided(await submit(`bench-doc-${i}`));
      documentTimes.push(performance.now() - started);
      if (status !== 'VERIFIED') throw new Error(`the bench passport was ${status}`);
    }

    const challengeTimes: number[] = [];
    const photoFor: Record<string, Buffer> = {
      TURN_LEFT: p.turnedLeft,
      TURN_RIGHT: p.turnedRight,
      LOOK_UP: p.lookingUp,
      BLINK: p.eyesClosed,
      NOD: p.lookingDown,
      SMILE: p.frontal,
    };
    for (let i = 0; challengeTimes.length < RUNS * 2 && i < RUNS * 4; i++) {
      const session = await call('POST', '/v1/verifications/liveness/session', { userId: `bench-live-${i}` }, h);
      for (const challenge of session.body.challenges as Array<{ id: string; type: string }>) {
        const form = new FormData();
        form.append('sessionToken', session.body.sessionToken);
        form.append('challengeId', challenge.id);
        form.append('photo', new Blob([new Uint8Array(photoFor[challenge.type])], { type: 'image/jpeg' }), 'photo.jpg');
        const started = performance.now();
        const res = await call('POST', '/v1/verifications/liveness/challenge', form, h);
        challengeTimes.push(performance.now() - started);
        if (res.status !== 200) throw new Error(`challenge: ${res.status} ${JSON.stringify(res.body)}`);
      }
    }

    const identity = await call('POST', '/v1/verifications/identity', { userId: 'bench-reader' }, h);
    const readTimes = async (count: number) => {
      const times: number[] = [];
      for (let i = 0; i < count; i++) {
        const started = performance.now();
        await call('GET', `/v1/verifications/identity/${identity.body.id}`, undefined, h);
        times.push(performance.now() - started);
      }
      return times;
    };
    // the stack runs in this process: its event loop's delay tells blocking work on the request thread from CPU contention
    const loopDelay = () => {
      const h = monitorEventLoopDelay({ resolution: 5 });
      h.enable();
      return () => {
        h.disable();
        return { p50: h.percentile(50) / 1e6, p99: h.percentile(99) / 1e6, max: h.max / 1e6 };
      };
    };
    const idleLoop = loopDelay();
    const idle = await readTimes(200);
    const idleDelay = idleLoop();
    const busyLoop = loopDelay();
    const burstStarted = performance.now();
    const ids = await Promise.all(Array.from({ length: BURST }, (_, i) => submit(`bench-burst-${i}`)));
    const burst = Promise.all(ids.map(decided));
    const busy: number[] = [];
    let finished = false;
    void burst.then(() => (finished = true));
    while (!finished) busy.push(...(await readTimes(10)));
    await burst;
    const burstSeconds = (performance.now() - burstStarted) / 1000;
    const busyDelay = busyLoop();

    console.log(
      `one document check (passport: faces, OCR, MRZ), ${RUNS} runs: p50 ${ms(pct(documentTimes, 50))}, max ${ms(Math.max(...documentTimes))}`,
    );
    console.log(
      `one liveness challenge photo, ${challengeTimes.length} photos: p50 ${ms(pct(challengeTimes, 50))}, p95 ${ms(pct(challengeTimes, 95))}`,
    );
    console.log(
      `${BURST} document checks at once: ${burstSeconds.toFixed(1)} s, ${(BURST / burstSeconds).toFixed(2)} checks/s on one vision worker (per core)`,
    );
    console.log(
      `identity read during those checks: p50 ${pct(busy, 50).toFixed(1)} ms / p99 ${pct(busy, 99).toFixed(1)} ms (${busy.length} reads) vs idle p50 ${pct(idle, 50).toFixed(1)} / p99 ${pct(idle, 99).toFixed(1)} ms: ×${(pct(busy, 50) / pct(idle, 50)).toFixed(2)} at p50`,
    );
    const delay = (d: { p50: number; p99: number; max: number }) =>
      `p50 ${d.p50.toFixed(1)} / p99 ${d.p99.toFixed(1)} / max ${d.max.toFixed(0)} ms`;
    console.log(`event-loop delay of the API's thread: idle ${delay(idleDelay)}; during the checks ${delay(busyDelay)}`);
  } finally {
    await stack?.stop();
    await embedded?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
