import { mkdtempSync, mkdirSync, chmodSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { reachableDataDir, removeAbandonedClusters } from './embedded-postgres.js';

const asRoot = process.getuid?.() === 0 ? it : it.skip;

describe('reachableDataDir (running as root)', () => {
  asRoot('keeps a directory whose parents others can traverse, even when the directory itself is 0700', () => {
    const parent = mkdtempSync(path.join(tmpdir(), 'pgdir-'));
    try {
      chmodSync(parent, 0o755);
      const dir = path.join(parent, 'postgres');
      mkdirSync(dir, { mode: 0o700 });
      expect(reachableDataDir(dir)).toBe(dir);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  asRoot('moves under the temp directory when a parent is closed to others', () => {
    const closed = mkdtempSync(path.join(tmpdir(), 'pgclosed-'));
    try {
      chmodSync(closed, 0o700);
      const moved = reachableDataDir(path.join(closed, 'data', 'postgres'));
      expect(moved.startsWith(path.join(tmpdir(), 'afri-platform-pg'))).toBe(true);
    } finally {
      rmSync(closed, { recursive: true, force: true });
    }
  });
});

describe('removeAbandonedClusters', () => {
  /** The pid of a process that has ended. */
  const deadPid = () => {
    const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    return Number(child.stdout.toString());
  };

  it('removes the clusters whose owner ended, keeps those of running owners and of runs just starting', async () => {
    const parent = mkdtempSync(path.join(tmpdir(), 'clusters-'));
    try {
      const cluster = (name: string, owner: number | null) => {
        mkdirSync(path.join(parent, name, 'base'), { recursive: true });
        if (owner !== null) writeFileSync(path.join(parent, `${name}.owner`), `${owner}\n`);
      };
      cluster('run-killed', deadPid());
      cluster('run-going', process.ppid);
      cluster('run-starting', null);
      cluster('other-killed', deadPid());

      const removed = await removeAbandonedClusters(parent, 'run-');

      expect(removed).toEqual([path.join(parent, 'run-killed')]);
      expect(readdirSync(parent).sort()).toEqual(['other-killed', 'other-killed.owner', 'run-going', 'run-going.owner', 'run-starting']);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});
