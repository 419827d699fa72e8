import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../platform/db/embedded-postgres.js';
import { createTestDatabase, eventually, startTestStack, type TestStack } from './support/stack.js';
import { selfSignedCertificate, startReceiver } from './support/https-receiver.js';

const INTERNAL_SECRET = 'test-internal-secret-0123456789';

/** The verification service as its own OS process, so the test can SIGKILL it mid-delivery. */
function startVerificationProcess(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [path.resolve('dist/cli/start-service.js'), 'verification'], {
    env: { ...process.env, LOG_LEVEL: 'silent', NODE_ENV: 'test', ...env },
    stdio: 'ignore',
  });
}

describe('webhook delivery survives a crash', () => {
  let stack: TestStack;
  let child: ChildProcess | null = null;
  afterAll(async () => {
    child?.kill('SIGKILL');
    await stack?.stop();
  });

  it('delivers after the service was killed between commit and delivery and restarted', async () => {
    const cert = selfSignedCertificate();
    const caFile = path.join(mkdtempSync(path.join(tmpdir(), 'ca-')), 'ca.pem');
    writeFileSync(caFile, cert.cert);
    const databaseUrl = await createTestDatabase();
    const port = await freePort();
    const env = {
      DATABASE_URL: databaseUrl,
      INTERNAL_SECRET,
      HOST: '127.0.0.1',
      VERIFICATION_PORT: String(port),
      WEBHOOK_CA_FILE: caFile,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_TIMEOUT_MS: '3000',
      JOBS_SUPERVISE_SECONDS: '1',
      OUTBOX_POLL_MS: '500',
    };
    const up = async () => {
      child = startVerificationProcess(env);
      await eventually(async () => (await fetch(`http://127.0.0.1:${port}/ready`).catch(() => null))?.ok, 30_000);
    };
    await up();
    stack = await startTestStack({ VERIFICATION_URL: `http://127.0.0.1:${port}/graphql` }, { databaseUrl, services: ['risk', 'notify', 'gateway', 'rest'] });

    // the first request hangs: the service is killed while it waits for the answer
    const receiver = await startReceiver(cert, (n) => (n === 0 ? 'hang' : 200));
    const client = await stack.createClient({ name: 'crash' });
    const h = { 'x-api-key': client.apiKey };
    await stack.rest('POST', '/webhooks/configure', { clientId: client.id, callbackUrl: receiver.url, events: ['identity.verified'] }, h);
    const identity = (await stack.rest('POST', '/verifications/identity', { userId: 'zoe' }, h)).body;
    await stack.rest('POST', `/verifications/identity/${identity.id}/review`, { decision: 'VERIFIED', reviewedBy: 'o', reviewNotes: 'n' }, h);

    await eventually(async () => receiver.received.length >= 1, 15_000);
    child!.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));

    await up();
    await eventually(async () => receiver.received.length >= 2, 40_000, 250);
    expect(JSON.parse(receiver.received[1].body)).toMatchObject({ event: 'identity.verified', data: { identityVerificationId: identity.id } });
    expect(receiver.received[1].body).toBe(receiver.received[0].body);
    await receiver.close();
  }, 90_000);
});
