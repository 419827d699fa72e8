import { MikroORM, defineConfig } from '@mikro-orm/postgresql';
import { Migration, Migrator } from '@mikro-orm/migrations';

export type MigrationClass = new (...args: ConstructorParameters<typeof Migration>) => Migration;

/** A migration's name is its class's, prefixed by the time it was written: `Migration20261122000000Init`. */
const writtenAt = (migration: MigrationClass) => /^Migration(\d{14})/.exec(migration.name)?.[1] ?? '';

/**
 * The database's one history from each service's own migrations: in the order they were written
 * (their timestamps; the order given where two share one), which is the order they ran on every
 * database so far. One history table (`platform.mikro_orm_migrations`): a name runs once.
 */
export function migrationHistory(lists: readonly (readonly MigrationClass[])[]): { name: string; class: MigrationClass }[] {
  const all = lists.flat();
  for (const migration of all) {
    if (!writtenAt(migration)) throw new Error(`${migration.name}: a migration is named Migration<yyyyMMddHHmmss><What>`);
  }
  const names = all.map((m) => m.name);
  const repeated = names.find((name, i) => names.indexOf(name) !== i);
  if (repeated) throw new Error(`${repeated} is listed twice`);
  return all
    .map((migration, order) => ({ migration, order }))
    .sort((a, b) => writtenAt(a.migration).localeCompare(writtenAt(b.migration)) || a.order - b.order)
    .map(({ migration }) => ({ name: migration.name, class: migration }));
}

const MIGRATION_LOCK = 4_242_001;

/**
 * Applies the pending migrations of the given lists (each service's, the platform's first); an
 * advisory lock lets several instances start at once.
 */
export async function migrate(url: string, lists: readonly (readonly MigrationClass[])[]): Promise<void> {
  const orm = await MikroORM.init(
    defineConfig({
      clientUrl: url,
      entities: [],
      extensions: [Migrator],
      migrations: {
        migrationsList: migrationHistory(lists),
        tableName: 'mikro_orm_migrations',
        schema: 'platform',
        transactional: true,
        silent: true,
        snapshot: false,
      },
      pool: { min: 0, max: 1 },
      discovery: { warnWhenNoEntities: false },
      debug: false,
    }),
  );
  try {
    const conn = orm.em.getConnection();
    // locked first: two services creating the schema at once on a fresh database collide
    // (a unique violation in pg_namespace), `if not exists` notwithstanding
    await conn.execute(`select pg_advisory_lock(${MIGRATION_LOCK})`);
    try {
      await conn.execute('create schema if not exists platform');
      await orm.migrator.up();
    } finally {
      await conn.execute(`select pg_advisory_unlock(${MIGRATION_LOCK})`);
    }
  } finally {
    await orm.close(true);
  }
}
