import { badInput } from '../errors.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, offsetCursor } from '../graphql/cursor.js';
import type { Field, RouteInput } from './route.js';

/**
 * The specs' lists take `page` and `limit` and answer `{ data, total, page, limit }`; the graph's
 * are connections (`first`, `after`, `nodes`, `totalCount`). A page is the connection slice after
 * an offset cursor.
 */

export const PAGE_QUERY: readonly Field[] = [
  { name: 'page', type: 'integer', description: 'Default 1' },
  { name: 'limit', type: 'integer', description: `Default ${DEFAULT_PAGE_SIZE}, at most ${MAX_PAGE_SIZE}` },
];

function pageOf(query: RouteInput['query']): { page: number; limit: number } {
  const page = Number(query.page ?? 1);
  const limit = Number(query.limit ?? DEFAULT_PAGE_SIZE);
  const errors = [
    ...(page < 1 ? ['page must be at least 1'] : []),
    ...(limit < 1 ? ['limit must be at least 1'] : []),
    ...(limit > MAX_PAGE_SIZE ? [`limit must be at most ${MAX_PAGE_SIZE}`] : []),
  ];
  // out of range is a bad request (400) on every list, verification's as risk's and notify's
  if (errors.length) throw badInput(errors);
  return { page, limit };
}

/** `first` and `after` of the page the query names. */
export function connectionSlice(query: RouteInput['query']): { first: number; after: string | null } {
  const { page, limit } = pageOf(query);
  return { first: limit, after: offsetCursor((page - 1) * limit) };
}

/** A connection (`nodes`, `totalCount`) as the specs' page body. */
export function pageBody(connection: { nodes: unknown[]; totalCount: number }, query: RouteInput['query']) {
  const { page, limit } = pageOf(query);
  return { data: connection.nodes, total: connection.totalCount, page, limit };
}

/** A page whose records the spec shows under a name of their own (`{ rules: [...] }`), with the page's place beside them. */
export function keyedPageBody(key: string, connection: { nodes: unknown[]; totalCount: number }, query: RouteInput['query']) {
  const { data, ...place } = pageBody(connection, query);
  return { [key]: data, ...place };
}
