import type { Opt } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { ListKind } from '../../../../screening/index.js';

/**
 * A version of a screening list, as the graph lists them (read only: imports write snapshots
 * through the screening library's store, `screening/lists/store.ts`).
 */
@Entity({ schema: 'screening', tableName: 'list_snapshots', readonly: true })
export class ListSnapshot {
  @PrimaryKey({ type: 'uuid' })
  id!: string;

  @Property({ type: 'text' })
  source!: string;

  @Property({ type: 'integer' })
  seq!: number;

  @Property({ type: 'text' })
  version!: string;

  @Property({ type: 'text' })
  kind!: ListKind;

  @Property({ type: 'text', nullable: true })
  format?: string | null;

  @Property({ type: 'integer' })
  total!: number;

  @Property({ type: 'integer' })
  added!: number;

  @Property({ type: 'integer' })
  removed!: number;

  @Property({ type: 'integer' })
  changed!: number;

  @Property({ type: 'text', nullable: true })
  importedBy?: string | null;

  /** YYYY-MM-DD, as the list's authority dated it */
  @Property({ type: 'date', nullable: true })
  publishedOn?: string | null;

  @Property({ type: 'datetime' })
  createdAt!: Date & Opt;
}
