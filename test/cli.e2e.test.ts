import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createTestDatabase } from './support/stack.js';

/** Runs a built CLI (`npm test` builds first) and answers its exit code and output. */
function cli(script: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [path.resolve('dist/cli', script), ...args],
      { env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env } },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('command-line tools', () => {
  it('npm run migrate applies every migration to DATABASE_URL, and again is a no-op', async () => {
    const databaseUrl = await createTestDatabase();
    const db = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    try {
      const first = await cli('migrate.js', [], { DATABASE_URL: databaseUrl });
      expect(first).toMatchObject({ code: 0, stdout: 'migrations applied\n' });
      const { rows } = await db.query(
        `select to_regclass('platform.deliveries') is not null as deliveries, to_regclass('notify.notifications') is not null as notify,
                to_regclass('risk.evaluations') is not null as risk, to_regclass('verification.identity_verifications') is not null as identity`,
      );
      expect(rows[0]).toEqual({ deliveries: true, notify: true, risk: true, identity: true });
      expect(await cli('migrate.js', [], { DATABASE_URL: databaseUrl })).toMatchObject({ code: 0, stdout: 'migrations applied\n' });
      const missing = await cli('migrate.js', [], {});
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('DATABASE_URL is required');
    } finally {
      await db.end();
    }
  });

  it('npm run ip:import replaces a feed from a file and refuses what it cannot place', async () => {
    const databaseUrl = await createTestDatabase();
    const dir = mkdtempSync(path.join(tmpdir(), 'ip-import-'));
    const db = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    try {
      writeFileSync(path.join(dir, 'tor.txt'), '# exit nodes\n185.220.101.1\n185.220.100.0/24\n');
      const imported = await cli('import-ip-feeds.js', [path.join(dir, 'tor.txt')], { DATABASE_URL: databaseUrl });
      expect(imported.code).toBe(0);
      expect(imported.stdout).toMatch(/^tor: 2 ranges \(TOR, /);
      const ranges = async () =>
        (
          await db.query<{ network: string }>(`select network::text from verification.ip_ranges where feed = 'tor' order by network`)
        ).rows.map((r) => r.network);
      expect(await ranges()).toEqual(['185.220.100.0/24', '185.220.101.1/32']);

      // a new file replaces the feed
      writeFileSync(path.join(dir, 'tor.txt'), '185.220.102.7\n');
      const replaced = await cli('import-ip-feeds.js', [path.join(dir, 'tor.txt')], { DATABASE_URL: databaseUrl });
      expect(replaced.stdout).toMatch(/^tor: 1 ranges .*previously 2/);
      expect(await ranges()).toEqual(['185.220.102.7/32']);

      // a file no known feed is named after needs a name and a category
      writeFileSync(path.join(dir, 'mylist.txt'), '10.1.2.3\n');
      const unknown = await cli('import-ip-feeds.js', [path.join(dir, 'mylist.txt')], { DATABASE_URL: databaseUrl });
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('not a known feed by its name');
      const badCategory = await cli('import-ip-feeds.js', ['--category', 'spaceship', path.join(dir, 'mylist.txt')], {
        DATABASE_URL: databaseUrl,
      });
      expect(badCategory).toMatchObject({ code: 1 });
      expect(badCategory.stderr).toContain('--category must be one of');
    } finally {
      await db.end();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
