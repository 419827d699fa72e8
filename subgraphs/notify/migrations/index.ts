import type { MigrationClass } from '../../../platform/db/migrate.js';
import { Migration20261122010000Notify } from './Migration20261122010000Notify.js';
import { Migration20261128050000NotifyChannels } from './Migration20261128050000NotifyChannels.js';
import { Migration20261205010000NotifyDispatchQueue } from './Migration20261205010000NotifyDispatchQueue.js';

/** The notify service's tables (schema `notify`). Append, never edit: a migration's class name is its name in the history. */
export const notifyMigrations: MigrationClass[] = [
  Migration20261122010000Notify,
  Migration20261128050000NotifyChannels,
  Migration20261205010000NotifyDispatchQueue,
];
