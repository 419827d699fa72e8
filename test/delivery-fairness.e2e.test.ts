import https from 'node:https';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createLogger } from '../platform/logger.js';
import { DEFAULT_CONCURRENCY_PER_TARGET, DeliveryWorker, scheduleDelivery } from '../platform/delivery/delivery.worker.js';
import { signedPost } from '../platform/delivery/post.js';
import { createTestDatabase } from './support/stack.js';
import { selfSignedCertificate, startReceiver } from './support/https-receiver.js';

const cert = selfSignedCertificate();
const logger = createLogger('delivery-fairness', 'silent');

/** One tenant's slow receiver must not delay everyone else's webhooks (issue 9, defect 7). */
describe('webhook delivery under a tarpit receiver', () => {
  it('a receiver that trickles its answer is cut off at the attempt deadline, not kept alive byte by byte', async () => {
    const server = https.createServer(cert, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const drip = setInterval(() => res.write('.'), 50);
      res.on('close', () => clearInterval(drip));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `https://localhost:${(server.address() as AddressInfo).port}/hooks`;
      const outcome = await signedPost(url, '{}', 'whsec_dGVzdA==', 'msg_1', { timeoutMs: 500, allowPrivateTargets: true, ca: cert.cert });
      expect(outcome).toMatchObject({ statusCode: null, error: 'no complete answer within 500 ms' });
      expect(outcome.durationMs).toBeLessThan(2_000);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it(`a hanging receiver holds at most ${DEFAULT_CONCURRENCY_PER_TARGET} delivery slots; other receivers are served at once`, async () => {
    const databaseUrl = await createTestDatabase();
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
    const tarpit = await startReceiver(cert, () => 'hang');
    const healthy = await startReceiver(cert);
    const worker = new DeliveryWorker({
      pool,
      logger,
      timeoutMs: 30_000,
      retryDelays: [60],
      allowPrivateTargets: true,
      ca: cert.cert,
      concurrency: 8,
    });
    worker.onOutcome('test', async () => undefined);
    try {
      const schedule = (url: string, i: number) =>
        scheduleDelivery(pool, {
          organizationId: '00000000-0000-4000-8000-000000000001',
          environment: 'live',
          event: 'test.event',
          url,
          body: JSON.stringify({ i }),
          secret: 'whsec_dGVzdA==',
          ownerType: 'test',
          ownerId: `owner-${i}`,
        });
      // more hanging deliveries than the worker has slots, queued first
      for (let i = 0; i < 12; i++) await schedule(tarpit.url, i);
      await schedule(healthy.url, 99);
      worker.start();
      await healthy.requests(1); // with every slot on the tarpit, this would wait for its 30 s timeout
      await tarpit.requests(DEFAULT_CONCURRENCY_PER_TARGET);
      expect(tarpit.received.length).toBe(DEFAULT_CONCURRENCY_PER_TARGET);
    } finally {
      await tarpit.close(); // the hanging attempts fail now: the worker can stop
      await healthy.close();
      await worker.stop();
      await pool.end();
    }
  });
});
