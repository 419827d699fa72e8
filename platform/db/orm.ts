import 'reflect-metadata';
import { MikroORM, defineConfig, type EntityManager } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { ReflectMetadataProvider } from '@mikro-orm/decorators/legacy';
import { migrations } from './migrations/index.js';
import type { Logger } from '../logger.js';
import type { Keyring } from '../crypto/keyring.js';
import { SealedColumnsSubscriber } from '../crypto/sealed-columns.js';
import { Organization } from '../auth/organization.entity.js';
import { ApiClient } from '../auth/api-client.entity.js';
import { OutboxEvent } from '../events/outbox-event.entity.js';
import { Delivery, DeliveryAttempt, Webhook } from '../delivery/delivery.entity.js';

/** The platform's own tables, part of every service's EntityManager. */
export const PLATFORM_ENTITIES = [Organization, ApiClient, OutboxEvent, Webhook, Delivery, DeliveryAttempt];

export type { EntityManager };
export type Orm = MikroORM;

export interface OrmOptions {
  url: string;
  entities: Function[];
  logger?: Logger;
  poolSize?: number;
  /** Opens and seals the entities' encrypted columns (platform/crypto); required by entities that have some. */
  keyring?: Keyring;
}

export async function openOrm(opts: OrmOptions): Promise<Orm> {
  return MikroORM.init(
    defineConfig({
      clientUrl: opts.url,
      entities: [...PLATFORM_ENTITIES, ...opts.entities],
      metadataProvider: ReflectMetadataProvider,
      extensions: [Migrator],
      migrations: {
        migrationsList: migrations,
        tableName: 'mikro_orm_migrations',
        schema: 'platform',
        transactional: true,
        silent: true,
        snapshot: false,
      },
      pool: { min: 0, max: opts.poolSize ?? 10 },
      discovery: { warnWhenNoEntities: false },
      // the request-scoped EntityManager is explicit (em.fork() per request); never the global one
      allowGlobalContext: false,
      debug: false,
      subscribers: opts.keyring ? [new SealedColumnsSubscriber(opts.keyring)] : [],
    }),
  );
}

const MIGRATION_LOCK = 4_242_001;

/** Applies pending migrations; an advisory lock lets several instances start at once. */
export async function migrate(url: string): Promise<void> {
  const orm = await openOrm({ url, entities: [], poolSize: 1 });
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
