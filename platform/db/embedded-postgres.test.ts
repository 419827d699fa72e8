import { mkdtempSync, mkdirSync, chmodSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { reachableDataDir } from './embedded-postgres.js';

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
