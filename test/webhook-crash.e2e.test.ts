import { createTestDatabase, eventually, startTestStack, type TestStack } from './support/stack.js';
import { selfSignedCertificate, startReceiver } from './support/https-receiver.js';
import { serviceProcess } from './support/service-process.js';

describe('webhook delivery survives a crash', () => {
  let stack: TestStack;
  let service: Awaited<ReturnType<typeof serviceProcess>> | null = null;
  afterAll(async () => {
    await service?.dispose();
    await stack?.stop();
  });

  it('delivers after the service was killed between commit and delivery and restarted', async () => {
    const cert = selfSignedCertificate();
    const databaseUrl = await createTestDatabase();
    service = await serviceProcess('verification', databaseUrl, { caPem: cert.cert });
    await service.start();
    stack = await startTestStack({ VERIFICATION_URL: service.url }, { databaseUrl, services: ['gateway', 'rest'] });

    // the first request hangs: the service is killed while it waits for the answer
    const receiver = await startReceiver(cert, (n) => (n === 0 ? 'hang' : 200));
    const client = await stack.createClient({ name: 'crash' });
    const h = { 'x-api-key': client.apiKey };
    await stack.rest('POST', '/webhooks/configure', { clientId: client.id, callbackUrl: receiver.url, events: ['identity.verified'] }, h);
    const identity = (await stack.rest('POST', '/verifications/identity', { userId: 'zoe' }, h)).body;
    await stack.rest(
      'POST',
      `/verifications/identity/${identity.id}/review`,
      { decision: 'VERIFIED', reviewedBy: 'o', reviewNotes: 'n' },
      h,
    );

    await eventually(async () => receiver.received.length >= 1, 15_000);
    await service.kill();

    await service.start();
    await eventually(async () => receiver.received.length >= 2, 40_000, 250);
    expect(JSON.parse(receiver.received[1].body)).toMatchObject({
      event: 'identity.verified',
      data: { identityVerificationId: identity.id },
    });
    expect(receiver.received[1].body).toBe(receiver.received[0].body);
    await receiver.close();
  }, 90_000);
});
