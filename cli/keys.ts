import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { SYSTEM_ACTOR } from '../platform/audit/audit.js';
import { loadConfig } from '../platform/config.js';
import { KeyOperations } from '../platform/crypto/key-operations.js';
import { Keyring } from '../platform/crypto/keyring.js';
import { masterKeyProvider } from '../platform/crypto/master-key.js';
import { migrateDatabase } from './migrations.js';
import { isUuid } from '../platform/ids.js';
import { FileService, FolderBlobStore } from '../platform/storage/file-store.js';
import { commandDatabase } from './local-database.js';
// every service's entities: their sealed columns are what re-encryption walks
import './services.js';

const USAGE = `Usage: npm run keys -- <command>

Encryption keys of DATABASE_URL (else the embedded database of \`npm start\`), with the master key
of this environment (ENCRYPTION_MASTER_KEY; ENCRYPTION_PREVIOUS_MASTER_KEYS while rotating it).
  status                          which master key wraps how many data keys
  rewrap                          master key rotation: every data key wrapped by a previous master
                                  key is wrapped again by ENCRYPTION_MASTER_KEY (nothing else changes)
  rotate ORGANIZATION_ID          a new data key version for the organization, then re-encryption
                                  (--no-reencrypt: new data only; re-encrypt later)
  reencrypt ORGANIZATION_ID|--all stored values and files moved to each organization's newest data key
Every operation on an organization is recorded in its audit trail; reads go on meanwhile.`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { all: { type: 'boolean' }, 'no-reencrypt': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
});
const [command, organizationId] = positionals;
if (values.help || !['status', 'rewrap', 'rotate', 'reencrypt'].includes(command ?? '')) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 1);
}
if ((command === 'rotate' || (command === 'reencrypt' && !values.all)) && !isUuid(organizationId ?? '')) {
  console.error(`${command} needs an organization id${command === 'reencrypt' ? ' (or --all)' : ''}`);
  process.exit(1);
}

const config = loadConfig();
const database = await commandDatabase(config);
const pool = new pg.Pool({ connectionString: database.url, max: 2 });
// the embedded cluster stopping at the end closes what is left: not a failure
pool.on('error', () => undefined);
try {
  await migrateDatabase(database.url);
  const keyring = new Keyring(pool, masterKeyProvider(config));
  const keys = new KeyOperations(pool, keyring, new FileService(pool, new FolderBlobStore(path.resolve(config.STORAGE_DIR)), keyring));
  if (command === 'status' || command === 'rewrap') {
    if (command === 'rewrap') console.log(`rewrapped ${(await keyring.rewrap()).rewrapped} keys under ${keyring.provider.currentKeyId}`);
    for (const use of await keyring.masterKeyUse()) {
      console.log(`${use.masterKeyId}${use.masterKeyId === keyring.provider.currentKeyId ? ' (current)' : ''}: ${use.keys} keys`);
    }
  } else {
    if (command === 'rotate') console.log(`${organizationId}: data key version ${await keys.rotate(organizationId!, SYSTEM_ACTOR)}`);
    const organizations = values.all
      ? (await pool.query<{ organization_id: string }>(`select distinct organization_id from platform.data_keys`)).rows.map(
          (r) => r.organization_id,
        )
      : command === 'reencrypt' || !values['no-reencrypt']
        ? [organizationId!]
        : [];
    for (const id of organizations) {
      const done = await keys.reencrypt(id, SYSTEM_ACTOR);
      console.log(`${id}: ${done.values} values and ${done.files} files now under data key version ${done.keyVersion}`);
    }
  }
} catch (err) {
  console.error(`npm run keys: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await pool.end();
  await database.stop();
}
