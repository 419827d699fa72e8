import type { HTTPGraphQLResponse } from '@apollo/server';

/** An express-style body limit ('2mb', '10mb') in bytes. */
export const limitBytes = (limit: string): number => Number(limit.replace(/mb$/i, '')) * 1024 * 1024;

/** The whole text of an answer from Apollo Server's `executeHTTPGraphQLRequest`. */
export async function responseText(response: HTTPGraphQLResponse): Promise<string> {
  if (response.body.kind === 'complete') return response.body.string;
  let text = '';
  for await (const chunk of response.body.asyncIterator) text += chunk;
  return text;
}
