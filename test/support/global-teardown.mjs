import pg from 'pg';

export default async function globalTeardown() {
  if (globalThis.__testPostgres) return globalThis.__testPostgres.stop();
  // a cluster of the caller's (TEST_DATABASE_URL): the run's template goes
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`alter database ${globalThis.__testTemplate} with is_template false`);
  await admin.query(`drop database if exists ${globalThis.__testTemplate}`);
  await admin.end();
}
