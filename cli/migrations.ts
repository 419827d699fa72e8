import { migrate } from '../platform/db/migrate.js';
import { platformMigrations } from '../platform/db/migrations/index.js';
import { verificationMigrations } from '../subgraphs/verification/migrations/index.js';
import { riskMigrations } from '../subgraphs/risk/migrations/index.js';
import { notifyMigrations } from '../subgraphs/notify/migrations/index.js';

/** Every service's migrations: each service owns its schema's, the platform its own. */
export const MIGRATIONS = [platformMigrations, verificationMigrations, riskMigrations, notifyMigrations];

/** Brings the database up to date (every schema: a process running one service reads the lists too). */
export function migrateDatabase(url: string): Promise<void> {
  return migrate(url, MIGRATIONS);
}
