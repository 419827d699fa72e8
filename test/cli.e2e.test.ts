import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../platform/db/embedded-postgres.js';
import { createTestDatabase, eventually } from './support/stack.js';
import { postmasterPid, processAlive, startStackProcess } from './support/stack-process.js';

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
    const databaseUrl = await createTestDatabase({ empty: true });
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

  it('npm run lists:update downloads the official files (from a mirror here) with their Last-Modified date, or takes them from a folder', async () => {
    const databaseUrl = await createTestDatabase();
    const fixtures = {
      'sdn.csv': 'ofac/sdn.csv',
      'alt.csv': 'ofac/alt.csv',
      'add.csv': 'ofac/add.csv',
      'consolidated.xml': 'un/consolidated.xml',
    };
    const asked: string[] = [];
    const mirror = http.createServer((req, res) => {
      asked.push(req.url ?? '');
      const file = fixtures[path.basename(req.url ?? '') as keyof typeof fixtures];
      if (!req.url?.startsWith('/lists/') || !file) return void res.writeHead(404).end();
      res.writeHead(200, { 'last-modified': 'Tue, 03 Nov 2026 08:00:00 GMT' }).end(readFileSync(path.resolve('screening/fixtures', file)));
    });
    await new Promise<void>((resolve) => mirror.listen(0, '127.0.0.1', resolve));
    const db = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    const versions = async () =>
      (
        await db.query<{ source: string; version: string; published: string }>(
          `select source, version, to_char(published_on, 'YYYY-MM-DD') as published from screening.list_snapshots order by source, seq`,
        )
      ).rows;
    try {
      const url = `http://127.0.0.1:${(mirror.address() as { port: number }).port}/lists`;
      const downloaded = await cli('update-lists.js', ['--mirror', url], { DATABASE_URL: databaseUrl });
      expect(downloaded.code).toBe(0);
      expect(asked.sort()).toEqual(['/lists/add.csv', '/lists/alt.csv', '/lists/consolidated.xml', '/lists/sdn.csv']);
      expect(await versions()).toEqual([
        { source: 'OFAC_SDN', version: expect.any(String), published: '2026-11-03' },
        { source: 'UN_SC', version: expect.any(String), published: '2026-11-03' },
      ]);
      // the same files again: no new version
      expect((await cli('update-lists.js', ['--mirror', url], { DATABASE_URL: databaseUrl })).stdout).toMatch(/OFAC_SDN: unchanged/);
      expect(await versions()).toHaveLength(2);

      // air-gapped: the same names from a folder (another SDN file: a new version)
      const dir = mkdtempSync(path.join(tmpdir(), 'lists-from-'));
      try {
        for (const [name, file] of Object.entries({ ...fixtures, 'SDN.CSV': 'ofac/sdn-v2.csv', 'sdn.csv': undefined })) {
          if (file) writeFileSync(path.join(dir, name), readFileSync(path.resolve('screening/fixtures', file)));
        }
        const fromFolder = await cli('update-lists.js', ['--from', dir], { DATABASE_URL: databaseUrl });
        expect(fromFolder.code).toBe(0);
        expect((await versions()).map((v) => v.source)).toEqual(['OFAC_SDN', 'OFAC_SDN', 'UN_SC']);
        const missing = await cli('update-lists.js', ['--from', tmpdir() + '/nothing-here-' + Date.now()], { DATABASE_URL: databaseUrl });
        expect(missing.code).toBe(1);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      // a mirror that does not have the files: a clear failure, nothing imported
      const broken = await cli('update-lists.js', ['--mirror', url.replace(/lists$/, 'elsewhere')], { DATABASE_URL: databaseUrl });
      expect(broken.code).toBe(1);
      expect(broken.stderr).toMatch(/elsewhere\/sdn\.csv: HTTP 404/);
      expect(await versions()).toHaveLength(3);
    } finally {
      await db.end();
      await new Promise((resolve) => mirror.close(resolve));
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

/** The pids of `pid`'s child processes whose command line contains `match`. */
function childProcesses(pid: number, match: string): Promise<number[]> {
  return new Promise((resolve) =>
    execFile('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], (_err, stdout) =>
      resolve(
        stdout
          .split('\n')
          .filter((line) => line.includes(match))
          .map((line) => Number(line.trim().split(/\s+/)[0])),
      ),
    ),
  );
}

describe('npm start runs risk in a child process of its own', () => {
  jest.setTimeout(240_000);

  it('a SIGKILLed risk process is started again: evaluations resume, answered transaction ids are still refused; it leaves with its parent', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'afri-risk-child-'));
    chmodSync(dir, 0o755);
    const stack = await startStackProcess({ dir });
    let riskPid: number | undefined;
    try {
      [riskPid] = await childProcesses(stack.pid, 'start-service.js risk');
      expect(riskPid).toBeGreaterThan(0);
      const rest = stack.urls.rest;
      const admin = /admin secret \(shown once\)\s+(\S+)/.exec(stack.output())![1];
      const created = await fetch(`${rest}/v1/admin/api-clients`, {
        method: 'POST',
        headers: { 'x-admin-secret': admin, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'child', service: 'risk' }),
      });
      const { apiKey } = (await created.json()) as { apiKey: string };
      const evaluate = (id: string) =>
        fetch(`${rest}/v1/evaluate`, {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ transaction_id: id, amount: 10, currency: 'KES', sender: 'acc-1', receiver: 'acc-2' }),
        }).then((r) => r.status);
      expect(await evaluate('before')).toBe(200);

      process.kill(riskPid!, 'SIGKILL');
      await eventually(async () => (await childProcesses(stack.pid, 'start-service.js risk')).some((p) => p !== riskPid), 30_000);
      await eventually(async () => (await evaluate(`after-${Date.now()}`)) === 200, 60_000);
      expect(await evaluate('before')).toBe(409);
      [riskPid] = await childProcesses(stack.pid, 'start-service.js risk');
      // SIGKILL of the parent alone: the risk process notices and leaves
      await stack.kill();
      await eventually(async () => !processAlive(riskPid!), 30_000);
    } finally {
      await stack.kill();
      const pid = postmasterPid(path.join(dir, 'pg'));
      if (pid && processAlive(pid)) process.kill(pid, 'SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('SIGINT (Ctrl-C) with NODE_ENV as a person runs it: every service stops in order, exit code 0, its risk process and PostgreSQL gone', async () => {
    // Apollo Server stops itself on SIGINT unless NODE_ENV=test; the process's own shutdown must be the only one
    const stack = await startStackProcess({ env: { NODE_ENV: 'development' } });
    const [riskPid] = await childProcesses(stack.pid, 'start-service.js risk');
    expect(riskPid).toBeGreaterThan(0);
    const stopped = await stack.stop();
    expect(stopped).toMatchObject({ code: 0, postgresStopped: true });
    expect(stack.output()).not.toContain('did not finish their work');
    expect(processAlive(riskPid)).toBe(false);
  });

  it('its start script’s allocator settings reach its Node processes, not its PostgreSQL; its risk process has its own V8 flags', async () => {
    const stack = await startStackProcess({ env: { RISK_HEAP_MB: '1024' } });
    try {
      const allocator = (pid: number) =>
        readFileSync(`/proc/${pid}/environ`, 'utf8')
          .split('\0')
          .filter((v) => v.startsWith('MALLOC_'))
          .sort();
      const [riskPid] = await childProcesses(stack.pid, 'start-service.js risk');
      const [postmaster] = await childProcesses(stack.pid, 'postgres -D');
      const expected = ['MALLOC_ARENA_MAX=2', 'MALLOC_MMAP_THRESHOLD_=131072', 'MALLOC_TRIM_THRESHOLD_=131072'];
      expect(allocator(stack.pid)).toEqual(expected);
      expect(allocator(riskPid)).toEqual(expected);
      expect(allocator(postmaster)).toEqual([]);
      // its heap limit from RISK_HEAP_MB, no allocation-site pretenuring, not the API process's young generation
      const flags = readFileSync(`/proc/${riskPid}/cmdline`, 'utf8')
        .split('\0')
        .filter((a) => a.startsWith('--'));
      expect(flags).toEqual(expect.arrayContaining(['--max-old-space-size=1024', '--no-allocation-site-pretenuring']));
      expect(flags.some((a) => a.startsWith('--max-semi-space-size'))).toBe(false);
    } finally {
      await stack.stop();
    }
  });
});

describe('npm start after a crash', () => {
  jest.setTimeout(240_000);

  it('a stack killed with SIGKILL leaves its PostgreSQL running; the next start reuses it (same port) or stops it (another port), data kept', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'afri-crash-'));
    chmodSync(dir, 0o755);
    const pgDir = path.join(dir, 'pg');
    const pgPort = await freePort();
    const local = (port: number) => `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
    try {
      const first = await startStackProcess({ dir, pgPort });
      const db = new pg.Client({ connectionString: local(pgPort) });
      await db.connect();
      // the platform's own connections come through the Unix-domain socket (no client address); psql's TCP still answers
      const { rows: overTcp } = await db.query(
        `select count(*)::int as n from pg_stat_activity where backend_type = 'client backend' and client_addr is not null and pid <> pg_backend_pid()`,
      );
      expect(overTcp[0].n).toBe(0);
      await db.query(`create table public.crash_marker (note text); insert into public.crash_marker values ('before the crash')`);
      await db.end();
      await first.kill();
      const leftover = postmasterPid(pgDir)!;
      expect(processAlive(leftover)).toBe(true);

      // same port: the leftover answers and is reused (logged as a person's terminal shows it)
      const second = await startStackProcess({ dir, pgPort, env: { LOG_FORMAT: 'pretty' } });
      expect(second.output()).toContain(`reusing the PostgreSQL (pid ${leftover})`);
      expect(second.output()).toContain('GraphQL (HTTP + graphql-ws)  http://localhost:');
      expect(second.output()).not.toMatch(/^\{/m);
      expect(postmasterPid(pgDir)).toBe(leftover);
      await second.kill();

      // another port: the leftover is stopped cleanly and a new cluster starts on the same data
      const otherPort = await freePort();
      // as `npm start` on a new machine: it imports the shipped lists, and is likely stopped in the middle
      const third = await startStackProcess({ dir, pgPort: otherPort, env: { DEFAULT_SCREENING_DATA: 'true' } });
      expect(third.output()).toContain(`stopping the PostgreSQL (pid ${leftover})`);
      expect(processAlive(leftover)).toBe(false);
      const again = new pg.Client({ connectionString: local(otherPort) });
      await again.connect();
      expect((await again.query('select note from public.crash_marker')).rows).toEqual([{ note: 'before the crash' }]);
      await again.end();
      const stopped = await third.stop();
      expect(stopped).toMatchObject({ code: 0, postgresStopped: true });
    } finally {
      const pid = postmasterPid(pgDir);
      if (pid && processAlive(pid)) process.kill(pid, 'SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a busy port is named in one line (the service setting or EMBEDDED_PG_PORT), exit code 1, nothing left running', async () => {
    const busy: Server = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    const dir = mkdtempSync(path.join(tmpdir(), 'afri-busy-'));
    chmodSync(dir, 0o755);
    try {
      const failure = async (opts: Parameters<typeof startStackProcess>[0]) =>
        startStackProcess(opts).then(
          async (s) => (await s.stop(), 'started'),
          (err: Error) => err.message,
        );
      const gatewayBusy = await failure({ dir, env: { GATEWAY_PORT: String(port) } });
      const lines = gatewayBusy.split('\n').slice(1).filter(Boolean);
      expect(gatewayBusy).toMatch(/^the stack exited \(code 1\)/);
      expect(lines).toEqual([
        `npm start: port ${port} (GATEWAY_PORT) is already in use by another program: stop it or set GATEWAY_PORT to a free port`,
      ]);

      const pgBusy = await failure({ dir, pgPort: port });
      expect(pgBusy).toMatch(/^the stack exited \(code 1\)/);
      expect(pgBusy.split('\n').slice(1).filter(Boolean)).toEqual([
        `npm start: port ${port} (EMBEDDED_PG_PORT) is already in use by another program: stop it or set EMBEDDED_PG_PORT to a free port`,
      ]);
      expect(existsSync(path.join(dir, 'pg', 'postmaster.pid'))).toBe(false);
    } finally {
      await new Promise((r) => busy.close(r));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
