import { ApolloServer, HeaderMap } from '@apollo/server';
import { GraphQLError } from 'graphql';
import { createLogger } from '../logger.js';
import { executeJsonPost, responseText } from './apollo-http.js';
import { formatError } from './format-error.js';

const typeDefs = `
  type Query { hello(name: String!): String!, count(n: Int!): Int!, broken: String, both: Both }
  type Both { ok: String!, failing: String }
`;
const resolvers = {
  Query: {
    hello: (_: unknown, { name }: { name: string }, ctx: { greeting: string }) => `${ctx.greeting} ${name}`,
    count: (_: unknown, { n }: { n: number }) => n,
    broken: () => {
      throw new GraphQLError('not found', { extensions: { code: 'NOT_FOUND' } });
    },
    both: () => ({ ok: 'yes', failing: () => Promise.reject(new Error('secret internals')) }),
  },
};

/** An internal error's id differs between two runs of the same request. */
const withoutIds = (text: string) => text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>');

describe('executeJsonPost', () => {
  const apollo = new ApolloServer<{ greeting: string }>({
    typeDefs,
    resolvers,
    formatError: formatError(createLogger('test', 'silent')),
    includeStacktraceInErrorResponses: false,
  });
  beforeAll(() => apollo.start());
  afterAll(() => apollo.stop());

  /** What Apollo answers a JSON POST of `body` over its HTTP handling. */
  async function overHttp(body: unknown) {
    const response = await apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: 'POST', headers: new HeaderMap([['content-type', 'application/json']]), search: '', body },
      context: async () => ({ greeting: 'hi' }),
    });
    return {
      status: response.status ?? 200,
      contentType: response.headers.get('content-type'),
      text: withoutIds(await responseText(response)),
    };
  }

  it.each([
    ['an answer', { query: 'query Q($name: String!) { hello(name: $name) }', variables: { name: 'Ada' }, operationName: 'Q' }],
    ['a resolver error', { query: '{ broken }' }],
    ['an unexpected error beside data', { query: '{ both { ok failing } }', variables: null, operationName: null }],
    ['a variable of the wrong type', { query: 'query($n: Int!) { count(n: $n) }', variables: { n: 'three' } }],
    ['a missing variable', { query: 'query($n: Int!) { count(n: $n) }' }],
    ['a document that does not parse', { query: '{ hello(' }],
    ['a field that does not exist', { query: '{ nothing }' }],
    ['two operations, none named', { query: 'query A { count(n: 1) } query B { count(n: 2) }' }],
    ['variables that are not an object (HTTP handling)', { query: '{ count(n: 1) }', variables: [1] }],
    ['no query (HTTP handling)', { variables: {} }],
    ['extensions (HTTP handling)', { query: '{ count(n: 1) }', extensions: { persistedQuery: { version: 1 } } }],
  ])('answers %s exactly as the JSON POST does', async (_, body) => {
    const answer = await executeJsonPost(apollo, body, { greeting: 'hi' });
    expect({ status: answer.status, contentType: answer.headers.get('content-type'), text: withoutIds(answer.text) }).toEqual(
      await overHttp(body),
    );
  });
});
