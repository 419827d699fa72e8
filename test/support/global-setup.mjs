import { tmpdir } from 'node:os';
import path from 'node:path';
import { rmSync } from 'node:fs';
import pg from 'pg';
// Jest loads global setup outside its transformer: use the build `npm test` makes first (pretest).
import { freePort, removeAbandonedClusters, startEmbeddedPostgres } from '../../dist/platform/db/embedded-postgres.js';
import { migrateDatabase } from '../../dist/cli/migrations.js';
import { startJobs } from '../../dist/platform/jobs.js';
import { createLogger } from '../../dist/platform/logger.js';

/**
 * One throwaway PostgreSQL cluster per `npm test` run (unless TEST_DATABASE_URL is given) and, in
 * it, a template database with every migration and the job queue's schema: each suite's databases
 * are copies of it (test/support/database.ts), made in milliseconds instead of migrated each time.
 */
export default async function globalSetup() {
  // the stacks, services and CLIs the suites start as processes (dozens) reuse V8's compiled code
  process.env.NODE_COMPILE_CACHE ??= path.resolve('node_modules/.cache/node-compile-cache');
  if (!process.env.TEST_DATABASE_URL) {
    const port = await freePort();
    // the clusters of runs that were killed (a gigabyte each) go first
    await removeAbandonedClusters(tmpdir(), 'afri-test-pg-');
    const dir = path.join(tmpdir(), `afri-test-pg-${process.pid}`);
    rmSync(dir, { recursive: true, force: true });
    globalThis.__testPostgres = await startEmbeddedPostgres({ dir, port, persistent: false });
    process.env.TEST_DATABASE_URL = globalThis.__testPostgres.url;
  }
  const template = `test_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${template}`);
  const url = new URL(process.env.TEST_DATABASE_URL);
  url.pathname = `/${template}`;
  await migrateDatabase(url.toString());
  const boss = await startJobs(url.toString(), createLogger('test-template', 'silent'));
  await boss.stop({ graceful: false, wait: true });
  // nobody connects to it again: CREATE DATABASE … TEMPLATE needs it without sessions
  await admin.query(`alter database ${template} with is_template true allow_connections false`);
  await admin.end();
  globalThis.__testTemplate = template;
  process.env.TEST_DATABASE_TEMPLATE = template;
}
