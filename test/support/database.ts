import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A database of its own in the run's PostgreSQL cluster (global-setup.mjs), copied from the run's
 * template: every migration and the job queue's schema already applied (`empty`: none).
 */
export async function createTestDatabase({ empty = false } = {}): Promise<string> {
  const base = process.env.TEST_DATABASE_URL;
  const template = process.env.TEST_DATABASE_TEMPLATE;
  if (!base || !template) throw new Error('TEST_DATABASE_URL is not set: run the tests with npm test');
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`create database ${name}${empty ? '' : ` template ${template}`}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Polls until `check` returns a truthy value (or throws after `ms`). */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, ms = 10_000, every = 100): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw last instanceof Error ? last : new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, every));
  }
}
