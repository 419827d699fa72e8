import { readFileSync } from 'node:fs';
import path from 'node:path';
import { plan } from './support/mrz-corpus.js';
import { loadFonts } from './support/mrz-fonts.js';
import { CONDITIONS } from './support/conditions.js';
import { renderDocument } from './support/mrz-render.js';
import { f0, f1, load, table } from './support/processes.js';
import { verdict } from './support/targets.js';
import { IdleLoop, type LoopDelay } from './support/idle-loop.js';
import { eventually } from '../test/support/database.js';
import { childProcesses as children } from '../test/support/process-info.js';
import { ADMIN_SECRET, prepare, REPO, rest, specs, startPlatform } from './stack.bench.js';

/**
 * `npm start`'s memory and event loop (issue 31, item 4): the resident set of its process (every
 * service of the default layout runs in it) once started with the shipped data imported, after
 * document checks (faces and text read in the vision worker processes), after a soak of mixed
 * traffic, and once idle: the model workers stopped and the heap compacted; the face models'
 * processes beside it. MEMORY_BENCH_DOCUMENTS (6)
 * passports of the generated MRZ corpus, each a different person, one after the other;
 * VISION_IDLE_MS is 15 s here (2 minutes by default) and IDLE_COMPACTION_SECONDS 5 (30): idle
 * is measured once both have passed, not at a moment racing them. The soak: identity create, AML screening
 * (a different person each time), notify send and risk evaluate (a new transaction each time)
 * through REST at once, MEMORY_BENCH_SOAK_RATE (25) requests/s each for MEMORY_BENCH_SOAK_SECONDS
 * (60), each from a load process of its own, arriving as independent clients do (`load.ts`, `openLoop`); the process's event-loop delay over the soak is
 * prom-client's (`monitorEventLoopDelay`, reset by the scrape before the soak, read by the one after),
 * beside the same reading of an idle Node process over the same seconds: the machine's floor
 * (`support/idle-loop.ts`).
 * BENCH_BASE_DIR: a built checkout of another commit, measured the same way first (its own
 * package.json start script), and this build's ratios to it.
 */
const DOCUMENTS = Number(process.env.MEMORY_BENCH_DOCUMENTS ?? 6);
const SOAK_RATE = Number(process.env.MEMORY_BENCH_SOAK_RATE ?? 25);
const SOAK_SECONDS = Number(process.env.MEMORY_BENCH_SOAK_SECONDS ?? 60);
const IDLE_MS = 15_000;
/** The heap's compaction after this long idle (platform/idle-compaction.ts), well inside the wait for idle below. */
const COMPACTION_SECONDS = 5;
const TARGET_MB = 700;
const TARGET_LOOP_P99_MS = 5;
const METRICS_TOKEN = 'bench-metrics-token-0123456789';

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

/** The vision worker processes (face models, OCR) started by `pid`. */
const visionWorkers = (pid: number) => children(pid, 'vision.worker');

async function scrape(gateway: string): Promise<(name: string) => number> {
  const text = await (await fetch(new URL('/metrics', gateway), { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  return (name) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
}

/**
 * The event loop's delay percentiles (ms) since the previous scrape. prom-client samples it every
 * 10 ms (`monitorEventLoopDelay`), and each sample includes those 10 ms (an idle loop reads
 * 10.2 ms at p50): the delay is the excess.
 */
async function loopDelay(gateway: string): Promise<LoopDelay> {
  const metric = await scrape(gateway);
  const delay = (p: string) => Math.max(0, metric(`nodejs_eventloop_lag_${p}_seconds`) * 1000 - 10);
  return { p50: delay('p50'), p99: delay('p99'), max: delay('max') };
}

/** The JavaScript heap in use and the memory outside it (array buffers, native), MB. */
async function heap(gateway: string): Promise<{ used: number; external: number }> {
  const metric = await scrape(gateway);
  return { used: metric('nodejs_heap_size_used_bytes') / 2 ** 20, external: metric('nodejs_external_memory_bytes') / 2 ** 20 };
}

interface BuildMemory {
  name: string;
  rows: string[][];
  soak: { name: string; rps: number; p50: number; p99: number; non2xx: number; errors: number }[];
  loop: LoopDelay;
  /** An idle process's loop over the same seconds. */
  floor: LoopDelay;
  idle: { api: number; total: number };
}

/** One build's run: started, document checks, the soak, idle. */
async function measureBuild(name: string, root: string): Promise<BuildMemory> {
  const { fonts } = await loadFonts(['ocr-b']);
  const passports = plan('memory-bench/1', DOCUMENTS * 3, CONDITIONS.slice(0, 1), fonts).filter((d) => d.doc.format === 'TD3');
  const layout = {
    name,
    root,
    env: { VISION_IDLE_MS: String(IDLE_MS), IDLE_COMPACTION_SECONDS: String(COMPACTION_SECONDS), METRICS_TOKEN },
    operations: true,
  };
  const platform = await startPlatform(layout);
  try {
    const rows: string[][] = [];
    const measure = async (moment: string) => {
      const workers = visionWorkers(platform.pid);
      const api = rssMb(platform.pid);
      // npm start's risk service runs in a child process of its own (RISK_PROCESS=child)
      const risk = children(platform.pid, 'start-service.js risk').reduce((mb, pid) => mb + rssMb(pid), 0);
      const js = await heap(platform.urls.gateway);
      rows.push([
        moment,
        f0(api),
        f0(js.used),
        f0(js.external),
        risk ? f0(risk) : '—',
        f0(api + risk),
        workers.length ? workers.map((w) => f0(rssMb(w))).join(' + ') : '—',
      ]);
      return { api, total: api + risk };
    };
    await measure('started, shipped data imported');
    const client = await rest(
      platform.urls.rest,
      'POST',
      '/v1/admin/api-clients',
      { name: 'memory bench', service: 'verification', environment: 'test' },
      { 'x-admin-secret': ADMIN_SECRET },
    );
    const headers = { 'x-api-key': client.body.apiKey as string };
    for (const [i, passport] of passports.slice(0, DOCUMENTS).entries()) {
      const page = await renderDocument(passport.doc, passport.font, passport.condition, passport.seed);
      const form = new FormData();
      form.set('userId', `memory-user-${i}`);
      form.set('documentType', 'PASSPORT');
      form.set('documentCountry', 'NG');
      form.set('frontImage', new Blob([new Uint8Array(page)], { type: 'image/jpeg' }), 'passport.jpg');
      form.set('selfieImage', new Blob([new Uint8Array(page)], { type: 'image/jpeg' }), 'selfie.jpg');
      const created = await fetch(`${platform.urls.rest}/v1/verifications/document`, { method: 'POST', headers, body: form });
      const { id } = (await created.json()) as { id: string };
      await eventually(
        async () => {
          const read = await rest(platform.urls.rest, 'GET', `/v1/verifications/document/${id}`, undefined, headers);
          return read.body?.status !== 'PENDING' && read.body?.status !== 'PROCESSING';
        },
        120_000,
        250,
      );
    }
    await measure(`${DOCUMENTS} document checks done`);

    const { operations } = await prepare(layout, platform.urls);
    const beside = await IdleLoop.start();
    await loopDelay(platform.urls.gateway); // resets the histogram
    await beside.reset();
    const soak = await Promise.all(
      operations.map((op) =>
        load({ ...specs(op, platform.urls, 10).rest, seconds: SOAK_SECONDS, warmupSeconds: 0, rate: SOAK_RATE, cpuOf: undefined }),
      ),
    );
    const loop = await loopDelay(platform.urls.gateway);
    const floor = await beside.read();
    beside.stop();
    await measure(`soak: ${operations.length} × ${SOAK_RATE} req/s for ${SOAK_SECONDS} s`);
    await eventually(async () => visionWorkers(platform.pid).length === 0, IDLE_MS + 60_000, 250);
    // the OCR stops on the same timer, the heap's compaction after its own: give them the longer again
    await new Promise((resolve) => setTimeout(resolve, Math.max(IDLE_MS, COMPACTION_SECONDS * 1000 + 5_000) + 2_000));
    return {
      name,
      rows,
      soak: operations.map((op, i) => ({ name: op.name, ...soak[i] })),
      loop,
      floor,
      idle: await measure('idle: face and OCR workers stopped'),
    };
  } finally {
    await platform.stop();
  }
}

/** This build's figures, and a base build's measured the same way before it (BENCH_BASE_DIR). */
export async function run(): Promise<void> {
  const builds = [
    ...(process.env.BENCH_BASE_DIR ? [['base', path.resolve(process.env.BENCH_BASE_DIR)] as const] : []),
    ['this build', REPO] as const,
  ];
  const measured: BuildMemory[] = [];
  for (const [name, root] of builds) measured.push(await measureBuild(name, root));
  for (const m of measured) {
    console.log(`\n${m.name}:`);
    table(
      [
        'moment',
        'API process RSS, MB',
        'JS heap used, MB',
        'external, MB',
        'its risk process, MB',
        'npm start RSS, MB',
        'face models’ processes, MB',
      ],
      m.rows,
    );
    console.log();
    table(
      ['soak through REST', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors'],
      m.soak.map((op) => [op.name, f1(op.rps), f1(op.p50), f1(op.p99), String(op.non2xx), String(op.errors)]),
    );
    console.log(`\nevent loop delay during the soak: p50 ${f1(m.loop.p50)} ms, p99 ${f1(m.loop.p99)} ms, max ${f1(m.loop.max)} ms`);
    console.log(
      `an idle Node process beside it, the same seconds (the machine's floor): p50 ${f1(m.floor.p50)} ms, p99 ${f1(m.floor.p99)} ms, max ${f1(m.floor.max)} ms`,
    );
  }
  const [now, base] = [measured.at(-1)!, measured.length > 1 ? measured[0] : null];
  if (base)
    console.log(
      `\nthis build ÷ base at idle: npm start RSS ×${(now.idle.total / base.idle.total).toFixed(2)}, API process ×${(now.idle.api / base.idle.api).toFixed(2)}; event loop p99 ×${(now.loop.p99 / base.loop.p99).toFixed(2)}`,
    );
  verdict({
    item: '31.4',
    figure: 'API event loop delay p99 during the soak',
    measured: `${f1(now.loop.p99)} ms (an idle process beside it: ${f1(now.floor.p99)} ms)`,
    target: `≤ ${TARGET_LOOP_P99_MS} ms`,
    met: now.loop.p99 <= TARGET_LOOP_P99_MS,
  });
  verdict({
    item: '31.4',
    figure: '`npm start` RSS at idle after document checks (with its risk process)',
    measured: `${f0(now.idle.total)} MB (the API process ${f0(now.idle.api)} MB)`,
    target: `≤ ${TARGET_MB} MB`,
    met: now.idle.total <= TARGET_MB,
  });
}
