import 'reflect-metadata';
import { MikroORM, defineConfig, type EntityManager } from '@mikro-orm/postgresql';
import { ReflectMetadataProvider } from '@mikro-orm/decorators/legacy';
import type { Logger } from '../logger.js';
import type { Keyring } from '../crypto/keyring.js';
import { SealedColumnsSubscriber } from '../crypto/sealed-columns.js';

export type { EntityManager };
export type Orm = MikroORM;

export interface OrmOptions {
  url: string;
  /** The entities this EntityManager reaches: the service's own, and the platform's it uses (`PLATFORM_ENTITIES`). */
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
      entities: opts.entities,
      metadataProvider: ReflectMetadataProvider,
      pool: { min: 0, max: opts.poolSize ?? 10 },
      discovery: { warnWhenNoEntities: false },
      // the request-scoped EntityManager is explicit (em.fork() per request); never the global one
      allowGlobalContext: false,
      debug: false,
      // the entities have no relations to propagate: plain properties, not an accessor pair defined
      // on each loaded entity per property (≈ a tenth of a record read's CPU, BENCHMARKS.md)
      propagationOnPrototype: false,
      subscribers: opts.keyring ? [new SealedColumnsSubscriber(opts.keyring)] : [],
    }),
  );
}
