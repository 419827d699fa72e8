import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../platform/db/embedded-postgres.js';
import { eventually } from './stack.js';

export const TEST_INTERNAL_SECRET = 'test-internal-secret-0123456789';

/**
 * The verification service as its own OS process (the built `dist/`), so a test can SIGKILL it in
 * the middle of some work and start it again on the same port and database.
 */
export async function verificationProcess(databaseUrl: string, caPem: string) {
  const caFile = path.join(mkdtempSync(path.join(tmpdir(), 'ca-')), 'ca.pem');
  writeFileSync(caFile, caPem);
  const port = await freePort();
  const env = {
    ...process.env,
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    INTERNAL_SECRET: TEST_INTERNAL_SECRET,
    HOST: '127.0.0.1',
    VERIFICATION_PORT: String(port),
    WEBHOOK_CA_FILE: caFile,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_TIMEOUT_MS: '3000',
    JOBS_SUPERVISE_SECONDS: '1',
    OUTBOX_POLL_MS: '500',
  };
  let child: ChildProcess | null = null;
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    async start(): Promise<void> {
      child = spawn(process.execPath, [path.resolve('dist/cli/start-service.js'), 'verification'], { env, stdio: 'ignore' });
      await eventually(async () => (await fetch(`http://127.0.0.1:${port}/ready`).catch(() => null))?.ok, 30_000);
    },
    async kill(): Promise<void> {
      if (!child || child.exitCode !== null) return;
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
  };
}
