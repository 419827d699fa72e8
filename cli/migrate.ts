import { loadConfig } from '../platform/config.js';
import { migrateDatabase } from './migrations.js';

/** `npm run migrate`: applies pending migrations to DATABASE_URL. */
const config = loadConfig();
if (!config.DATABASE_URL) {
  console.error('DATABASE_URL is required');
  process.exit(1);
}
await migrateDatabase(config.DATABASE_URL);
console.log('migrations applied');
