import { Migration20261122000000Init } from './Migration20261122000000Init.js';

/** The one ordered migration history of the database (all schemas). Append, never edit. */
export const migrations = [{ name: 'Migration20261122000000Init', class: Migration20261122000000Init }];
