import type { EntityManager, EventArgs, EventSubscriber, FlushEventArgs } from '@mikro-orm/core';
import { sealedVersion, type Keyring, type OrganizationKeys } from './keyring.js';

/** A blind index kept beside a sealed column: its property and column, and the searched value taken from the plaintext. */
export interface BlindIndexSpec<P> {
  property: string;
  column: string;
  /** What `Keyring.blindIndex` digests, per organization (see `organizationIndex`) unless `global`. */
  scope: string;
  /** One index across organizations (a limit that counts every organization's codes to one number). */
  global?: boolean;
  /** The value searched for, normalized as searches normalize it; null: no index. */
  of(plain: P): string | null | undefined;
}

export interface SealedField<P = any> {
  /** The plaintext property (in memory only: `persist: false`). */
  plain: string;
  /** The persisted property holding `enc:v<version>:…` text. */
  sealed: string;
  /** Its column, for re-encryption and the legacy backfill. */
  column: string;
  /** The plaintext column rows written before encryption hold (emptied by the backfill). */
  legacyColumn?: string;
  /** The plaintext from the legacy column's value as `pg` reads it (default: as it is; jsonb arrives parsed). */
  fromLegacy?(value: unknown): P;
  indexes?: BlindIndexSpec<P>[];
}

/** A table with sealed columns; rows carry `organization_id` (whose data key seals them). */
export interface SealedTable {
  table: string;
  fields: SealedField[];
}

/** Every table with sealed columns, by the entity that maps it (re-encryption walks them all). */
const TABLES = new Map<Function | string, SealedTable>();

/** Declares an entity's sealed properties (call beside the entity class). */
export function sealedEntity(entity: Function, table: SealedTable): void {
  TABLES.set(entity, table);
}

/** Declares a table written with SQL (not an entity): its code seals and opens the columns itself (`Keyring.sealJson` / `openJson`). */
export function sealedTable(table: SealedTable): void {
  TABLES.set(table.table, table);
}

export const sealedTables = (): SealedTable[] => [...TABLES.values()];

/** The blind index of `value` in an organization's `scope` (indexes of two organizations never match). */
export const organizationIndex = (keyring: Keyring, organizationId: string, scope: string, value: string): Promise<string> =>
  keyring.blindIndex(`${scope}|${organizationId}`, value);

/** A column's blind index of `value`, as its spec says: per organization, or global. */
export const indexOf = (keyring: Keyring, organizationId: string, index: BlindIndexSpec<any>, value: string): Promise<string> =>
  index.global ? keyring.blindIndex(index.scope, value) : organizationIndex(keyring, organizationId, index.scope, value);

/** What was last opened or sealed per entity and field: plaintext JSON and the sealed text it matches. */
const memos = new WeakMap<object, Map<string, { json: string; sealed: string | null }>>();

const memoOf = (entity: object) => {
  let memo = memos.get(entity);
  if (!memo) memos.set(entity, (memo = new Map()));
  return memo;
};

type Row = Record<string, any> & { organizationId: string };

/**
 * Transparent column encryption for MikroORM entities: a sealed property is opened into its
 * plaintext property when the entity loads, and the plaintext is sealed (with its blind indexes)
 * before a flush whenever it changed — services and resolvers read and write plaintext, the
 * database only ever holds ciphertext. Registered on every EntityManager (`openOrm({ keyring })`).
 */
export class SealedColumnsSubscriber implements EventSubscriber {
  constructor(private readonly keyring: Keyring) {}

  getSubscribedEntities() {
    return [...TABLES.keys()].filter((k): k is Function => typeof k === 'function') as never[];
  }

  async onLoad({ entity, meta }: EventArgs<Row>): Promise<void> {
    const table = TABLES.get(meta.class);
    if (table) await this.open(entity, table);
  }

  async beforeFlush({ uow, em }: FlushEventArgs): Promise<void> {
    for (const [entityClass, table] of TABLES) {
      if (typeof entityClass !== 'function') continue;
      const meta = (em as EntityManager).getMetadata().find(entityClass as never);
      if (!meta) continue;
      const entities = new Set<Row>([
        ...(uow.getIdentityMap().getStore(meta).values() as Iterable<Row>),
        ...[...uow.getPersistStack()].filter((e): e is Row => e instanceof entityClass),
      ]);
      for (const entity of entities) await this.seal(entity, table);
    }
  }

  private async open(entity: Row, table: SealedTable): Promise<void> {
    let keys: OrganizationKeys | null = null;
    for (const field of table.fields) {
      const sealed = entity[field.sealed] as string | null | undefined;
      if (sealed === undefined) continue; // not loaded (partial select)
      keys ??= await this.keyring.keysOf(entity.organizationId);
      const value = sealed === null ? null : await this.openValue(keys, entity.organizationId, sealed);
      entity[field.plain] = value;
      memoOf(entity).set(field.plain, { json: JSON.stringify(value), sealed });
    }
  }

  private async seal(entity: Row, table: SealedTable): Promise<void> {
    for (const field of table.fields) {
      const memo = memoOf(entity).get(field.plain);
      const value = entity[field.plain] ?? null;
      const json = JSON.stringify(value);
      const sealed = (entity[field.sealed] as string | null | undefined) ?? null;
      if (memo && memo.sealed !== sealed && memo.json === json) {
        // reloaded (`refresh`) with a newer row while the plaintext was untouched: the row wins
        const fresh =
          sealed === null ? null : await this.openValue(await this.keyring.keysOf(entity.organizationId), entity.organizationId, sealed);
        entity[field.plain] = fresh;
        memoOf(entity).set(field.plain, { json: JSON.stringify(fresh), sealed });
        continue;
      }
      if (memo && memo.json === json) continue;
      if (!memo && value === null && sealed === null) {
        memoOf(entity).set(field.plain, { json, sealed });
        continue;
      }
      const next = value === null ? null : await this.keyring.seal(entity.organizationId, json);
      entity[field.sealed] = next;
      for (const index of field.indexes ?? []) {
        const searched = value === null ? null : index.of(value);
        entity[index.property] = searched ? await indexOf(this.keyring, entity.organizationId, index, searched) : null;
      }
      memoOf(entity).set(field.plain, { json, sealed: next });
    }
  }

  private async openValue(keys: OrganizationKeys, organizationId: string, sealed: string): Promise<unknown> {
    const text = keys.has(sealedVersion(sealed)) ? keys.open(sealed).toString('utf8') : await this.keyring.openText(organizationId, sealed);
    return JSON.parse(text) as unknown;
  }
}
