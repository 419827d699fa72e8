import { raw, type EntityName, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { IsInt, Max, Min } from 'class-validator';
import { ArgsType, Directive, Field, Int, ObjectType, type ClassType } from 'type-graphql';
import { decodeCursor, DEFAULT_PAGE_SIZE, encodeCursor, MAX_PAGE_SIZE } from './cursor.js';
import { badInput } from '../errors.js';
import { isUuid } from '../ids.js';

/**
 * Relay connections for every list: `first` (at most MAX_PAGE_SIZE, declared in the schema with
 * `@listSize`) and `after`, newest first, in a stable order (creation time, then id) so paging
 * while new records arrive neither skips nor repeats one (docs/graphql-conventions.md).
 */

/** On every field returning a connection: its size is its `first` (Apollo demand control reads it). */
export const LIST_SIZE = '@listSize(slicingArguments: ["first"], sizedFields: ["edges", "nodes"], requireOneSlicingArgument: false)';

@ObjectType('PageInfo', { description: 'Where a page of a connection stands in the whole list' })
@Directive('@shareable')
export class PageInfo {
  @Field({ description: 'More records follow the last one of this page (ask with `after: endCursor`)' })
  hasNextPage!: boolean;

  @Field({ description: 'Records come before the first one of this page' })
  hasPreviousPage!: boolean;

  @Field(() => String, { nullable: true, description: 'Cursor of the first record of this page' })
  startCursor!: string | null;

  @Field(() => String, { nullable: true, description: 'Cursor of the last record of this page: pass it as `after` for the next page' })
  endCursor!: string | null;
}

@ArgsType()
export class ConnectionArgs {
  @Field(() => Int, {
    defaultValue: DEFAULT_PAGE_SIZE,
    description: `How many records, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE})`,
  })
  @IsInt()
  @Min(1, { message: 'first must be at least 1' })
  @Max(MAX_PAGE_SIZE, { message: `first must be at most ${MAX_PAGE_SIZE}` })
  first: number = DEFAULT_PAGE_SIZE;

  @Field(() => String, { nullable: true, description: 'The `endCursor` of the previous page; absent for the first page' })
  after?: string | null;
}

export interface Edge<T> {
  cursor: string;
  node: T;
}

export interface Connection<T> {
  edges: Edge<T>[];
  nodes: T[];
  pageInfo: PageInfo;
  totalCount: number;
}

/** `XConnection` and `XEdge` object types for a node type; `whats` is the plural when it is not `what` + s, `order` how the list is sorted. */
export function ConnectionType<T extends object>(
  name: string,
  node: ClassType<T>,
  what: string,
  whats = `${what}s`,
  order = 'newest first',
) {
  @ObjectType(`${name}Edge`, { description: `One ${what} in a page, with its cursor` })
  class EdgeType {
    @Field({ description: 'Opaque position of this record in the list' })
    cursor!: string;

    @Field(() => node, { description: `The ${what}` })
    node!: T;
  }

  @ObjectType(`${name}Connection`, { description: `A page of ${whats}, ${order}` })
  class ConnectionObject {
    @Field(() => [EdgeType], { description: `The ${whats} of this page with their cursors` })
    edges!: Edge<T>[];

    @Field(() => [node], { description: `The ${whats} of this page` })
    nodes!: T[];

    @Field(() => PageInfo, { description: 'Cursors and whether more pages follow' })
    pageInfo!: PageInfo;

    @Field(() => Int, { description: `How many ${whats} the whole list holds` })
    totalCount!: number;
  }
  return ConnectionObject;
}

interface Keyed {
  id: string;
  createdAt: Date;
}

// creation to the millisecond: a JavaScript Date's precision, so a cursor names its record exactly
const createdMs = (alias: string, column = 'created_at') => `date_trunc('milliseconds', ${alias}.${column})`;

/**
 * One page of `entity` rows matching `where`, newest first, as a connection. `createdColumn`: the
 * column of the entity's `createdAt` when it is not `created_at` (a table whose creation time has
 * its own name, e.g. `checked_at`).
 */
export async function paginate<E extends Keyed, N = E>(
  em: EntityManager,
  entity: EntityName<E>,
  where: FilterQuery<E>,
  args: ConnectionArgs,
  toNode: (row: E) => N = (row) => row as unknown as N,
  createdColumn = 'created_at',
): Promise<Connection<N>> {
  const cursor = args.after ? decodeCursor(args.after) : null;
  // a cursor's id must be one this list could hold (a uuid column refuses anything else as a fault)
  const meta = em.getMetadata().find(entity);
  const uuidKeyed = meta?.primaryKeys.every((key) => meta.properties[key]?.columnTypes?.[0] === 'uuid') ?? false;
  if (cursor && 'k' in cursor && uuidKeyed && !isUuid(cursor.k[1])) throw badInput('after is not a cursor of this list');
  const keyset =
    cursor && 'k' in cursor
      ? { [raw((alias: string) => `(${createdMs(alias, createdColumn)}, ${alias}.id) < (?::timestamptz, ?)`, cursor.k)]: [] }
      : {};
  const offset = cursor && 'o' in cursor ? cursor.o + 1 : 0;
  const [rows, totalCount] = await Promise.all([
    em.find(entity, { $and: [where, keyset] } as FilterQuery<E>, {
      orderBy: [{ [raw((alias: string) => createdMs(alias, createdColumn))]: 'desc' }, { id: 'desc' }] as never,
      limit: args.first + 1,
      offset,
    }),
    em.count(entity, where),
  ]);
  const page = rows.slice(0, args.first);
  const edges = page.map((row) => ({ cursor: encodeCursor({ k: [row.createdAt.toISOString(), row.id] }), node: toNode(row) }));
  return {
    edges,
    nodes: edges.map((edge) => edge.node),
    totalCount,
    pageInfo: {
      hasNextPage: rows.length > args.first,
      hasPreviousPage: cursor !== null,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}

/**
 * One page of a list whose members and order never change once written (a batch's subjects in
 * submission order, the changes of a list version), with offset cursors: `fetch` returns up to
 * `limit` nodes from `offset` in the list's own order, and the list's size.
 */
export async function paginateOffset<N>(
  args: ConnectionArgs,
  fetch: (offset: number, limit: number) => Promise<{ nodes: N[]; totalCount: number }>,
): Promise<Connection<N>> {
  const cursor = args.after ? decodeCursor(args.after) : null;
  if (cursor && !('o' in cursor)) throw badInput('after is not a cursor of this list');
  const offset = cursor ? cursor.o + 1 : 0;
  const { nodes, totalCount } = await fetch(offset, args.first + 1);
  const edges = nodes.slice(0, args.first).map((node, i) => ({ cursor: encodeCursor({ o: offset + i }), node }));
  return {
    edges,
    nodes: edges.map((edge) => edge.node),
    totalCount,
    pageInfo: {
      hasNextPage: nodes.length > args.first,
      hasPreviousPage: cursor !== null,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}
