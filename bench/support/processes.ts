import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort, MOVED_DATA_DIRS, removeAbandonedClusters, startEmbeddedPostgres } from '../../platform/db/embedded-postgres.js';
import { generateApiKey, hashApiKey, publicKeyPrefix } from '../../platform/auth/api-keys.js';
import type { KeyService } from '../../platform/auth/principal.js';
import { migrateDatabase } from '../../cli/migrations.js';
import type { LoadResult, LoadSpec } from './load.js';

/** The compiled bench folder (dist/bench). */
export const BENCH_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface Spawned {
  child: ChildProcess;
  /** The first JSON line the process printed (what it listens on). */
  info: Record<string, any>;
  stop(): Promise<void>;
}

/** Runs `node script args…` and waits for its first JSON line on stdout (its stderr is passed on). */
export async function spawnNode(script: string, args: string[], env: Record<string, string> = {}, timeoutMs = 120_000): Promise<Spawned> {
  const child = spawn(process.execPath, [script, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const info = await new Promise<Record<string, any>>((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new Error(`${path.basename(script)} did not start within ${timeoutMs} ms`)), timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      for (const line of buffer.split('\n').slice(0, -1)) {
        try {
          const parsed = JSON.parse(line) as Record<string, any>;
          if (parsed && typeof parsed === 'object' && !('level' in parsed)) {
            clearTimeout(timer);
            resolve(parsed);
          }
        } catch {
          // a log line
        }
      }
      buffer = buffer.slice(buffer.lastIndexOf('\n') + 1);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${path.basename(script)} exited with ${code} before it was ready`));
    });
  });
  child.stdout!.resume();
  return {
    child,
    info,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 20_000).unref();
      }),
  };
}

/** One load run from a process of its own (bench/support/load.ts). */
export async function load(spec: LoadSpec): Promise<LoadResult> {
  const child = spawn(process.execPath, [path.join(BENCH_DIR, 'support', 'load.js'), JSON.stringify(spec)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`load generator exited with ${code}`);
  return JSON.parse(out.trim().split('\n').pop()!) as LoadResult;
}

export interface BenchDatabase {
  url: string;
  stop(): Promise<void>;
}

/** DATABASE_URL when set (migrated), else a throwaway embedded PostgreSQL. */
export async function benchDatabase(): Promise<BenchDatabase> {
  if (process.env.DATABASE_URL) {
    await migrateDatabase(process.env.DATABASE_URL);
    return { url: process.env.DATABASE_URL, stop: async () => undefined };
  }
  // what killed runs left (as root their clusters were moved: reachableDataDir)
  await removeAbandonedClusters(MOVED_DATA_DIRS, '_tmp_bench_pg_');
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-pg-'));
  const embedded = await startEmbeddedPostgres({ dir: path.join(dir, 'pg'), port: await freePort(), persistent: false });
  await migrateDatabase(embedded.url);
  return {
    url: embedded.url,
    stop: async () => {
      await embedded.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** An API client written straight to the table (what `createApiClient` stores); returns its key. */
export async function insertApiClient(databaseUrl: string, service: KeyService = 'verification', rateLimit = 1_000_000): Promise<string> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const organizationId = randomUUID();
    const apiKey = generateApiKey(service, 'live');
    await pool.query(`insert into platform.organizations (id, name) values ($1, 'bench')`, [organizationId]);
    await pool.query(
      `insert into platform.api_clients (id, organization_id, name, service, environment, key_prefix, key_hash, rate_limit)
       values ($1, $2, 'bench', $3, 'live', $4, $5, $6)`,
      [randomUUID(), organizationId, service, publicKeyPrefix(apiKey, service, 'live'), hashApiKey(apiKey), rateLimit],
    );
    return apiKey;
  } finally {
    await pool.end();
  }
}

export const f0 = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '—');
export const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '—');
export const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '—');

/** Prints rows as an aligned text table. */
export function table(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}
