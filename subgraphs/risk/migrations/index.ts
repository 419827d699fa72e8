import type { MigrationClass } from '../../../platform/db/migrate.js';
import { Migration20261122040000Risk } from './Migration20261122040000Risk.js';
import { Migration20261125010000RiskAccountUser } from './Migration20261125010000RiskAccountUser.js';
import { Migration20261202010000RiskGraphOwners } from './Migration20261202010000RiskGraphOwners.js';
import { Migration20261202020000RiskCountersFromTransfers } from './Migration20261202020000RiskCountersFromTransfers.js';
import { Migration20261205000000RiskProfileNotices } from './Migration20261205000000RiskProfileNotices.js';

/** The risk service's tables (schema `risk`). Append, never edit: a migration's class name is its name in the history. */
export const riskMigrations: MigrationClass[] = [
  Migration20261122040000Risk,
  Migration20261125010000RiskAccountUser,
  Migration20261202010000RiskGraphOwners,
  Migration20261202020000RiskCountersFromTransfers,
  Migration20261205000000RiskProfileNotices,
];
