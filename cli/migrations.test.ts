import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { migrationHistory } from '../platform/db/migrate.js';
import { createTestDatabase } from '../test/support/database.js';
import { MIGRATIONS, migrateDatabase } from './migrations.js';

const root = path.resolve(import.meta.dirname, '..');

describe('the database’s migrations', () => {
  it('run in the order every database has run them', () => {
    // running databases hold these names in platform.mikro_orm_migrations: the order never changes
    expect(migrationHistory(MIGRATIONS).map((m) => m.name)).toEqual([
      'Migration20261122000000Init',
      'Migration20261122010000Notify',
      'Migration20261122020000Screening',
      'Migration20261122030000Intelligence',
      'Migration20261122040000Risk',
      'Migration20261124000000Deliveries',
      'Migration20261125000000KeyPrefixes',
      'Migration20261125010000RiskAccountUser',
      'Migration20261125020000AllServicesKeys',
      'Migration20261126000000WatchlistAlertCreatedAt',
      'Migration20261126010000Files',
      'Migration20261127000000Documents',
      'Migration20261127010000Liveness',
      'Migration20261127020000Biometrics',
      'Migration20261127030000CognitiveKyc',
      'Migration20261127040000IdentityProgress',
      'Migration20261128000000Otp',
      'Migration20261128020000MobileMoney',
      'Migration20261128030000Business',
      'Migration20261128040000Address',
      'Migration20261128050000NotifyChannels',
      'Migration20261129070000ListPublishedOn',
      'Migration20261201000000Privacy',
      'Migration20261201000000Encryption',
      'Migration20261201010000Audit',
      'Migration20261201020000LivenessPhotosDeleted',
      'Migration20261202010000RiskGraphOwners',
      'Migration20261202020000RiskCountersFromTransfers',
      'Migration20261204000000VerificationFlows',
      'Migration20261204010000TraceParents',
      'Migration20261205000000RiskProfileNotices',
      'Migration20261205010000NotifyDispatchQueue',
      'Migration20261206000000FaceCrowding',
    ]);
  });

  it.each([
    ['subgraphs/verification/migrations', ['verification', 'screening']],
    ['subgraphs/risk/migrations', ['risk']],
    ['subgraphs/notify/migrations', ['notify']],
  ])('in %s touch only the service’s own schemas', (folder, own) => {
    for (const file of readdirSync(path.join(root, folder)).filter((f) => f.startsWith('Migration'))) {
      const code = readFileSync(path.join(root, folder, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*/g, '');
      const schemas = [...code.matchAll(/\b(platform|verification|screening|risk|notify)\.\w+/g)].map((m) => m[1]);
      expect({ file, others: schemas.filter((s) => !own.includes(s)) }).toEqual({ file, others: [] });
    }
  });

  it('build every schema on an empty database, and a database up to date gains nothing', async () => {
    const tablesOf = async (url: string) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query(
          `select table_schema || '.' || table_name || '.' || column_name || ' ' || data_type as c from information_schema.columns
           where table_schema in ('platform', 'verification', 'screening', 'risk', 'notify') order by 1`,
        );
        return rows.map((r) => r.c as string);
      } finally {
        await client.end();
      }
    };
    const migrated = await createTestDatabase(); // the run's template: migrated once at the start
    const before = await tablesOf(migrated);
    await migrateDatabase(migrated);
    expect(await tablesOf(migrated)).toEqual(before);

    const empty = await createTestDatabase({ empty: true });
    await migrateDatabase(empty);
    // the template also holds the job queue's schema, outside these five
    expect(await tablesOf(empty)).toEqual(before);
    expect(before.some((c) => c.startsWith('risk.rules.'))).toBe(true);
  });
});
