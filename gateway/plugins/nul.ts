import { badInput, type AppError } from '../../platform/errors.js';
import { graphqlHasNulEscape, nulMessage, nulPath, urlHasNul } from '../../platform/http/nul.js';

/**
 * A NUL in the URL, a variable or the query text (as `\u0000`) is refused with a 400 here, rather
 * than a 500 from PostgreSQL deep in a subgraph. A file's bytes are not walked.
 */
export function nulRefusal(url: string, body: { query?: unknown }): AppError | null {
  const where = urlHasNul(url) ? 'the URL' : nulPath(body);
  if (where !== null || graphqlHasNulEscape(typeof body.query === 'string' ? body.query : ''))
    return badInput(nulMessage(where ?? 'query'));
  return null;
}
