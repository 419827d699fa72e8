import { tmpdir } from 'node:os';
import path from 'node:path';
import { rmSync } from 'node:fs';
// Jest loads global setup outside its transformer: use the build `npm test` makes first (pretest).
import { freePort, startEmbeddedPostgres } from '../../dist/platform/db/embedded-postgres.js';

/**
 * One throwaway PostgreSQL cluster per `npm test` run (unless TEST_DATABASE_URL is given); each
 * suite creates its own database in it (test/support/stack.ts).
 */
export default async function globalSetup() {
  if (process.env.TEST_DATABASE_URL) return;
  const port = await freePort();
  const dir = path.join(tmpdir(), `afri-test-pg-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  globalThis.__testPostgres = await startEmbeddedPostgres({ dir, port, persistent: false });
  process.env.TEST_DATABASE_URL = globalThis.__testPostgres.url;
}
