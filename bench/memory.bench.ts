import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { plan } from './support/mrz-corpus.js';
import { loadFonts } from './support/mrz-fonts.js';
import { CONDITIONS } from './support/conditions.js';
import { renderDocument } from './support/mrz-render.js';
import { f0, table } from './support/processes.js';
import { verdict } from './support/targets.js';
import { ADMIN_SECRET, REPO, rest, startPlatform } from './stack.bench.js';

/**
 * `npm start`'s memory (issue 31, item 4): the resident set of its process (every service of the
 * default layout runs in it) once started with the shipped data imported, after document checks
 * (faces and text read: the face models run in worker processes of their own, the OCR in worker
 * threads of this one), and once those workers have stopped for idleness; the face models'
 * processes beside it. MEMORY_BENCH_DOCUMENTS (6) passports of the generated MRZ corpus, each a
 * different person, one after the other; VISION_IDLE_MS is 15 s here (2 minutes by default).
 */
const DOCUMENTS = Number(process.env.MEMORY_BENCH_DOCUMENTS ?? 6);
const IDLE_MS = 15_000;
const TARGET_MB = 700;

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

/** The face models' processes started by `pid`. */
function visionWorkers(pid: number): number[] {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((line) => line.includes('vision.worker'))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

async function until(what: string, condition: () => Promise<boolean> | boolean, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`memory bench: ${what} not reached in ${ms / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export async function run(): Promise<void> {
  const { fonts } = await loadFonts(['ocr-b']);
  const passports = plan('memory-bench/1', DOCUMENTS * 3, CONDITIONS.slice(0, 1), fonts).filter((d) => d.doc.format === 'TD3');
  const platform = await startPlatform({ name: 'npm start', root: REPO, env: { VISION_IDLE_MS: String(IDLE_MS) }, operations: false });
  try {
    const rows: string[][] = [];
    const measure = (moment: string) => {
      const workers = visionWorkers(platform.pid);
      const api = rssMb(platform.pid);
      rows.push([moment, f0(api), workers.length ? workers.map((w) => f0(rssMb(w))).join(' + ') : '—']);
      return api;
    };
    measure('started, shipped data imported');
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
      await until('a document check', async () => {
        const read = await rest(platform.urls.rest, 'GET', `/v1/verifications/document/${id}`, undefined, headers);
        return read.body?.status !== 'PENDING' && read.body?.status !== 'PROCESSING';
      });
    }
    measure(`${DOCUMENTS} document checks done`);
    await until('the workers stopping when idle', () => visionWorkers(platform.pid).length === 0, IDLE_MS + 60_000);
    // the OCR workers stop on the same timer; give them its length again
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS + 2_000));
    const idle = measure('idle: face and OCR workers stopped');
    table(['moment', 'npm start RSS, MB', 'face models’ processes, MB'], rows);
    verdict({
      item: '31.4',
      figure: '`npm start` RSS at idle after document checks',
      measured: `${f0(idle)} MB`,
      target: `≤ ${TARGET_MB} MB`,
      met: idle <= TARGET_MB,
    });
  } finally {
    await platform.stop();
  }
}
