import type { MigrationClass } from '../migrate.js';
import { Migration20261122000000Init } from './Migration20261122000000Init.js';
import { Migration20261124000000Deliveries } from './Migration20261124000000Deliveries.js';
import { Migration20261125000000KeyPrefixes } from './Migration20261125000000KeyPrefixes.js';
import { Migration20261125020000AllServicesKeys } from './Migration20261125020000AllServicesKeys.js';
import { Migration20261126010000Files } from './Migration20261126010000Files.js';
import { Migration20261201000000Privacy } from './Migration20261201000000Privacy.js';
import { Migration20261201000000Encryption } from './Migration20261201000000Encryption.js';
import { Migration20261201010000Audit } from './Migration20261201010000Audit.js';
import { Migration20261204010000TraceParents } from './Migration20261204010000TraceParents.js';

/**
 * The platform's own tables (schema `platform`: organizations, API clients, the outbox, webhooks
 * and deliveries, files, data keys, privacy, the audit trail). Append, never edit: a migration's
 * class name is its name in the history.
 *
 * Five of them also reach into the services' schemas: written before each service owned its
 * migrations, applied as they are on running databases, and moving data between schemas in one
 * transaction (Deliveries moves the webhooks out of `verification`), they stay whole. A new
 * migration touches one service's schema and lives with that service.
 */
export const platformMigrations: MigrationClass[] = [
  Migration20261122000000Init,
  Migration20261124000000Deliveries,
  Migration20261125000000KeyPrefixes,
  Migration20261125020000AllServicesKeys,
  Migration20261126010000Files,
  // Privacy ran before Encryption (same timestamp): the order stays
  Migration20261201000000Privacy,
  Migration20261201000000Encryption,
  Migration20261201010000Audit,
  Migration20261204010000TraceParents,
];
