import { Migration20261122000000Init } from './Migration20261122000000Init.js';
import { Migration20261122010000Notify } from './Migration20261122010000Notify.js';

/** The one ordered migration history of the database (all schemas). Append, never edit. */
export const migrations = [
  { name: 'Migration20261122000000Init', class: Migration20261122000000Init },
  { name: 'Migration20261122010000Notify', class: Migration20261122010000Notify },
];
