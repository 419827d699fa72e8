import type { Request, RequestHandler } from 'express';
import { HeaderMap, type ApolloServer, type BaseContext, type HTTPGraphQLResponse } from '@apollo/server';

/** An express-style body limit ('2mb', '10mb') in bytes. */
export const limitBytes = (limit: string): number => Number(limit.replace(/mb$/i, '')) * 1024 * 1024;

/** The whole text of an answer from Apollo Server's `executeHTTPGraphQLRequest`. */
export async function responseText(response: HTTPGraphQLResponse): Promise<string> {
  if (response.body.kind === 'complete') return response.body.string;
  let text = '';
  for await (const chunk of response.body.asyncIterator) text += chunk;
  return text;
}

/** A GraphQL request body as the gateway of this process sends it. */
interface OperationBody {
  query?: unknown;
  operationName?: unknown;
  variables?: unknown;
  extensions?: unknown;
}

interface PlainOperation {
  query: string;
  operationName?: string | null;
  variables?: Record<string, unknown> | null;
}

/** A body of the plain shape: a query, perhaps an operation name and variables, nothing else Apollo would look at. */
function isPlainOperation(body: unknown): body is PlainOperation {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const { query, operationName, variables, extensions } = body as OperationBody;
  return (
    typeof query === 'string' &&
    (operationName === undefined || operationName === null || typeof operationName === 'string') &&
    (variables === undefined || variables === null || (typeof variables === 'object' && !Array.isArray(variables))) &&
    extensions === undefined
  );
}

/**
 * An operation run by Apollo Server as `executeHTTPGraphQLRequest` would run a JSON POST of it (the
 * same pipeline, plugins, status and body), without its HTTP steps (the body's checks, content
 * negotiation, CSRF prevention: ≈ 4 % of a record read in `npm start`'s one loop). Only a body of
 * the plain shape takes this way; anything else goes through Apollo's HTTP handling.
 */
export async function executeJsonPost<TContext extends BaseContext>(
  apollo: ApolloServer<TContext>,
  body: OperationBody,
  contextValue: TContext,
): Promise<{ status: number; headers: Headers; text: string }> {
  if (!isPlainOperation(body)) {
    const response = await apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: 'POST', headers: new HeaderMap([['content-type', 'application/json']]), search: '', body },
      context: async () => contextValue,
    });
    return { status: response.status ?? 200, headers: new Headers([...response.headers]), text: await responseText(response) };
  }
  const response = await apollo.executeOperation(
    {
      query: body.query,
      operationName: body.operationName ?? undefined,
      variables: body.variables ?? undefined,
    },
    { contextValue },
  );
  if (response.body.kind !== 'single') throw new Error('incremental delivery is not answered in-process');
  const headers = new Headers([...response.http.headers]);
  if (!headers.has('content-type')) headers.set('content-type', 'application/json; charset=utf-8');
  const { errors, data, extensions } = response.body.singleResult;
  // as Apollo writes a single result: errors, data, extensions, and a new line
  return { status: response.http.status ?? 200, headers, text: JSON.stringify({ errors, data, extensions }) + '\n' };
}

/**
 * Express, after the JSON body parser: a POST of one plain operation asking for JSON, whose caller
 * `contextOf` accepts, is answered by `executeJsonPost` — without Apollo's HTTP integration and
 * what follows it (URL parsing, header maps, content negotiation, the ETag's hash of the answer:
 * ≈ 10 % of the risk process's CPU per evaluation, BENCHMARKS.md). Anything else (refused callers
 * included) goes on to the next handler, which answers it as always.
 */
export function plainJsonPosts<TContext extends BaseContext>(
  apollo: ApolloServer<TContext>,
  contextOf: (req: Request) => TContext | null,
): RequestHandler {
  return (req, res, next) => {
    const { accept } = req.headers;
    // Apollo answers these with JSON; other accept headers are negotiated there
    const json = accept === undefined || accept === 'application/json' || accept === '*/*';
    if (req.method !== 'POST' || !json || !isPlainOperation(req.body) || !req.is('application/json')) return next();
    const context = contextOf(req);
    if (!context) return next();
    executeJsonPost(apollo, req.body, context).then((answer) => {
      res.status(answer.status);
      answer.headers.forEach((value, key) => res.setHeader(key, value));
      res.end(answer.text);
    }, next);
  };
}
