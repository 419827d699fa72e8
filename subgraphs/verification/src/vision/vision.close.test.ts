import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A stand-in for the models' worker: answers at once. */
const FAKE_WORKER = `process.on('message', (m) => process.send({ id: m.id, ok: true, result: { faces: [] } }));`;

/** A process whose last work is closing the pool (a bench, a shutdown): it must see the close through. */
const SCRIPT = `
import { VisionPool } from ${JSON.stringify(path.resolve('dist/subgraphs/verification/src/vision/vision.pool.js'))};
import { createLogger } from ${JSON.stringify(path.resolve('dist/platform/logger.js'))};
const pool = new VisionPool({ size: 2, timeoutMs: 10_000, logger: createLogger('vision-close-test', 'silent') });
await Promise.all([pool.analyze(Buffer.from([1])), pool.analyze(Buffer.from([2]))]);
await pool.close();
console.log('closed');
`;

describe('closing the face model pool', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'vision-close-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the process alive until its idle workers have exited (they are unref’d)', () => {
    writeFileSync(path.join(dir, 'worker.mjs'), FAKE_WORKER);
    writeFileSync(path.join(dir, 'main.mjs'), SCRIPT);
    // before: the process ended inside close() ("unsettled top-level await", exit code 13) and printed nothing
    const out = execFileSync(process.execPath, [path.join(dir, 'main.mjs')], {
      env: { ...process.env, VISION_WORKER_PATH: path.join(dir, 'worker.mjs') },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(out.trim()).toBe('closed');
  });
});
