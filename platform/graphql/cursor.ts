import { badInput } from '../errors.js';

/** Page sizes of every list (connections, and the REST adapter's pages). */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/**
 * Cursors are opaque to clients: `k` = position after a record (creation millisecond and id),
 * `o` = an offset (the REST adapter's `page`/`limit`, see offsetCursor).
 */
export type Cursor = { k: [string, string] } | { o: number };

export const encodeCursor = (cursor: Cursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url');

/** The cursor of the `offset`th record (0-based): REST pages map onto connections with it. */
export const offsetCursor = (offset: number): string | null => (offset > 0 ? encodeCursor({ o: offset - 1 }) : null);

export function decodeCursor(after: string): Cursor {
  try {
    const cursor = JSON.parse(Buffer.from(after, 'base64url').toString('utf8')) as Cursor;
    if (
      'k' in cursor &&
      Array.isArray(cursor.k) &&
      cursor.k.every((part) => typeof part === 'string') &&
      !Number.isNaN(Date.parse(cursor.k[0]))
    )
      return cursor;
    if ('o' in cursor && Number.isInteger(cursor.o) && cursor.o >= 0) return cursor;
  } catch {
    // not ours: said below
  }
  throw badInput('after is not a cursor of this list');
}
