import { threadId } from 'node:worker_threads';
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, type Config } from '../config.js';
import type { Logger } from '../logger.js';
import { KEY_BYTES } from './aead.js';
import { LocalKeyProvider, parseMasterKey } from './key-provider.js';

/** Where a development master key is kept when none is configured: beside the embedded database's data. */
export function devMasterKeyFile(config: Config): string {
  return path.resolve(
    config.ENCRYPTION_MASTER_KEY_FILE ?? path.join(path.dirname(path.resolve(config.EMBEDDED_PG_DIR ?? '.data/postgres')), 'master.key'),
  );
}

/**
 * The master key provider of this process: ENCRYPTION_MASTER_KEY (and the previous keys a rotation
 * still needs); production refuses to start without it; elsewhere a key generated on first start
 * and kept in a file (mode 0600), so `npm start` works with zero configuration and data written
 * yesterday is readable today.
 */
export function masterKeyProvider(config: Config, logger?: Logger): LocalKeyProvider {
  const previous = (config.ENCRYPTION_PREVIOUS_MASTER_KEYS ?? []).map(parseMasterKey);
  if (config.ENCRYPTION_MASTER_KEY) return new LocalKeyProvider(parseMasterKey(config.ENCRYPTION_MASTER_KEY), previous);
  if (config.NODE_ENV === 'production') {
    throw new ConfigError('ENCRYPTION_MASTER_KEY is required in production (32 bytes in base64: `openssl rand -base64 32`)');
  }
  const file = devMasterKeyFile(config);
  mkdirSync(path.dirname(file), { recursive: true });
  // written aside, then linked into place: of two processes starting at once, one key wins and
  // neither reads a half-written file
  const draft = `${file}.${process.pid}.${threadId}.tmp`; // worker threads share the pid
  writeFileSync(draft, randomBytes(KEY_BYTES).toString('base64') + '\n', { mode: 0o600 });
  try {
    linkSync(draft, file);
    logger?.warn({ file }, 'generated a development master key (set ENCRYPTION_MASTER_KEY in production)');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    rmSync(draft, { force: true });
  }
  return new LocalKeyProvider(parseMasterKey(readFileSync(file, 'utf8')), previous);
}
