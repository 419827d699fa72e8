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
  const plain =
    typeof body.query === 'string' &&
    (body.operationName === undefined || body.operationName === null || typeof body.operationName === 'string') &&
    (body.variables === undefined || body.variables === null || (typeof body.variables === 'object' && !Array.isArray(body.variables))) &&
    body.extensions === undefined;
  if (!plain) {
    const response = await apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: 'POST', headers: new HeaderMap([['content-type', 'application/json']]), search: '', body },
      context: async () => contextValue,
    });
    return { status: response.status ?? 200, headers: new Headers([...response.headers]), text: await responseText(response) };
  }
  const response = await apollo.executeOperation(
    {
      query: body.query as string,
      operationName: (body.operationName as string | null | undefined) ?? undefined,
      variables: (body.variables as Record<string, unknown> | null | undefined) ?? undefined,
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
