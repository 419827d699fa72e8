import pg from 'pg';
import { importSnapshot } from '../screening/index.js';
import { createTestDatabase, eventually, startTestStack, type TestStack } from './support/stack.js';
import { selfSignedCertificate, startReceiver } from './support/https-receiver.js';
import { serviceProcess } from './support/service-process.js';

describe('AML batch callback survives a crash', () => {
  let stack: TestStack;
  let service: Awaited<ReturnType<typeof serviceProcess>> | null = null;
  afterAll(async () => {
    await service?.dispose();
    await stack?.stop();
  });

  it('calls back after the service was killed while the callback was in flight and restarted', async () => {
    const cert = selfSignedCertificate();
    const databaseUrl = await createTestDatabase();
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    await importSnapshot(pool, 'UN_SC', [
      {
        source: 'UN_SC',
        kind: 'SANCTIONS',
        externalId: 'QDi.901',
        entityType: 'INDIVIDUAL',
        names: [{ full: 'Ahmed Musa Bello', type: 'PRIMARY' }],
        datesOfBirth: [],
        nationalities: [],
        documents: [],
        programs: [],
      },
    ]);
    await pool.end();
    service = await serviceProcess('verification', databaseUrl, { caPem: cert.cert });
    await service.start();
    stack = await startTestStack({ VERIFICATION_URL: service.url }, { databaseUrl, services: ['gateway', 'rest'] });

    // the first callback hangs: the service is killed while it waits for the answer
    const receiver = await startReceiver(cert, (n) => (n === 0 ? 'hang' : 200));
    const h = { 'x-api-key': (await stack.createClient({ name: 'crash' })).apiKey };
    const accepted = await stack.rest(
      'POST',
      '/screening/aml/batch',
      {
        subjects: [
          { userId: 'a', fullName: 'Ahmed Musa Bello' },
          { userId: 'b', fullName: 'Grace Akinyi' },
        ],
        callbackUrl: receiver.url,
      },
      h,
    );
    expect(accepted.status).toBe(202);

    await eventually(async () => receiver.received.length >= 1, 15_000);
    await service.kill();

    await service.start();
    await eventually(async () => receiver.received.length >= 2, 40_000, 250);
    expect(receiver.received[1].body).toBe(receiver.received[0].body);
    expect(JSON.parse(receiver.received[1].body)).toMatchObject({
      event: 'aml.batch_complete',
      data: { batchId: accepted.body.id, total: 2, flagged: 1, clear: 1 },
    });
    const batch = await eventually(async () => {
      const b = (await stack.rest('GET', `/screening/aml/batch/${accepted.body.id}`, undefined, h)).body;
      return b.callbackStatus === 'DELIVERED' ? b : null;
    }, 15_000);
    expect(batch).toMatchObject({ status: 'COMPLETED', processed: 2 });
    await receiver.close();
  }, 120_000);
});
