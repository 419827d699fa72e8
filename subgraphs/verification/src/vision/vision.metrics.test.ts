import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Registry } from 'prom-client';
import { createLogger } from '../../../../platform/logger.js';
import type { VisionPool as Pool } from './vision.pool.js';

/** A stand-in for the models' worker: answers after 150 ms; a photo marked `expression` fails, a byte of 0xff kills it. */
const FAKE_WORKER = `
process.on('message', (m) => {
  if (m.image[0] === 0xff) process.exit(3);
  setTimeout(() => process.send(m.expression ? { id: m.id, ok: false, error: 'unreadable' } : { id: m.id, ok: true, result: { faces: [] } }), 150);
});
`;

describe('the face model pool’s metrics', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'vision-fake-'));
  let VisionPool: typeof Pool;
  beforeAll(async () => {
    writeFileSync(path.join(dir, 'worker.mjs'), FAKE_WORKER);
    process.env.VISION_WORKER_PATH = path.join(dir, 'worker.mjs');
    ({ VisionPool } = await import('./vision.pool.js'));
  });
  afterAll(() => {
    delete process.env.VISION_WORKER_PATH;
    rmSync(dir, { recursive: true, force: true });
  });

  it('report workers busy and idle, requests waiting and each request’s time by operation and outcome', async () => {
    const pool = new VisionPool({ size: 2, timeoutMs: 10_000, logger: createLogger('vision-metrics-test', 'silent') });
    const registry = new Registry();
    for (const m of pool.metrics.metrics) registry.registerMetric(m);
    const value = async (series: string) =>
      Number(
        (await registry.metrics())
          .split('\n')
          .find((line) => line.startsWith(`${series} `))
          ?.slice(series.length + 1),
      );
    try {
      expect(await value('vision_workers_max')).toBe(2);
      expect(await value('vision_workers{state="busy"}')).toBe(0);
      expect(await value('vision_workers{state="idle"}')).toBe(0);
      expect(await value('vision_task_duration_seconds_count{operation="analyze",outcome="ok"}')).toBe(0);

      const image = Buffer.from([1, 2, 3]);
      const running = [pool.analyze(image), pool.analyze(image), pool.analyze(image), pool.analyze(image, { expression: true })];
      expect(await value('vision_workers{state="busy"}')).toBe(2);
      expect(await value('vision_queued_tasks')).toBe(2);
      const settled = await Promise.allSettled(running);
      expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected']);
      expect(await value('vision_workers{state="busy"}')).toBe(0);
      expect(await value('vision_workers{state="idle"}')).toBe(2);
      expect(await value('vision_queued_tasks')).toBe(0);
      expect(await value('vision_task_duration_seconds_count{operation="analyze",outcome="ok"}')).toBe(3);
      expect(await value('vision_task_duration_seconds_count{operation="analyze",outcome="error"}')).toBe(1);
      expect(await value('vision_task_duration_seconds_sum{operation="analyze",outcome="ok"}')).toBeGreaterThanOrEqual(0.15 * 3);

      await expect(pool.analyze(Buffer.from([0xff]))).rejects.toMatchObject({ code: 'UNAVAILABLE' });
      expect(await value('vision_task_duration_seconds_count{operation="analyze",outcome="unavailable"}')).toBe(1);
      expect(await value('vision_workers{state="idle"}')).toBe(1);

      // the readings are counted apart, in the same workers
      await Promise.all([pool.readDocumentText(image, new Date()), pool.readAddress(image), pool.readAddress(image)]);
      await expect(pool.readAddress(Buffer.from([0xff]))).rejects.toMatchObject({
        code: 'UNAVAILABLE',
        message: 'Address document reading failed',
      });
      expect(await value('vision_task_duration_seconds_count{operation="read_document_text",outcome="ok"}')).toBe(1);
      expect(await value('vision_task_duration_seconds_count{operation="read_address",outcome="ok"}')).toBe(2);
      expect(await value('vision_task_duration_seconds_count{operation="read_address",outcome="unavailable"}')).toBe(1);
      expect(await value('vision_task_duration_seconds_count{operation="analyze",outcome="ok"}')).toBe(3);
    } finally {
      await pool.close();
    }
  });
});
