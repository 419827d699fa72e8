import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { ApolloServer, HeaderMap } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import { GraphQLError } from 'graphql';
import { createLogger } from '../logger.js';
import { executeJsonPost, plainJsonPosts, responseText } from './apollo-http.js';
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

const BODIES: Array<[string, Record<string, unknown>]> = [
  ['an answer', { query: 'query Q($name: String!) { hello(name: $name) }', variables: { name: 'Ada' }, operationName: 'Q' }],
  ['a resolver error', { query: '{ broken }' }],
  ['an unexpected error beside data', { query: '{ both { ok failing } }', variables: null, operationName: null }],
  ['a variable of the wrong type', { query: 'query($n: Int!) { count(n: $n) }', variables: { n: 'three' } }],
  ['a missing variable', { query: 'query($n: Int!) { count(n: $n) }' }],
  ['a document that does not parse', { query: '{ hello(' }],
  ['a field that does not exist', { query: '{ nothing }' }],
  ['two operations, none named', { query: 'query A { count(n: 1) } query B { count(n: 2) }' }],
  ['an operation name that is not there', { query: 'query A { count(n: 1) }', operationName: 'B' }],
  ['a mutation sent as a query of none', { query: 'mutation { hello }' }],
];
/** Shapes Apollo's HTTP handling answers (executeJsonPost hands them to it; plainJsonPosts passes them on). */
const OTHER_SHAPES: Array<[string, Record<string, unknown>]> = [
  ['variables that are not an object (HTTP handling)', { query: '{ count(n: 1) }', variables: [1] }],
  ['no query (HTTP handling)', { variables: {} }],
  ['extensions (HTTP handling)', { query: '{ count(n: 1) }', extensions: { persistedQuery: { version: 1 } } }],
];

/** The schema above served as the subgraphs serve theirs (their error formatting, no stack traces). */
const testServer = () =>
  new ApolloServer<{ greeting: string }>({
    typeDefs,
    resolvers,
    formatError: formatError(createLogger('test', 'silent')),
    includeStacktraceInErrorResponses: false,
  });

describe('executeJsonPost', () => {
  const apollo = testServer();
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

  it.each([...BODIES, ...OTHER_SHAPES])('answers %s exactly as the JSON POST does', async (_, body) => {
    const answer = await executeJsonPost(apollo, body, { greeting: 'hi' });
    expect({ status: answer.status, contentType: answer.headers.get('content-type'), text: withoutIds(answer.text) }).toEqual(
      await overHttp(body),
    );
  });
});

describe('plainJsonPosts', () => {
  const apollo = testServer();
  /** Requests plainJsonPosts answered itself (it asked for their caller's context). */
  let answered = 0;
  const servers: http.Server[] = [];
  let direct = '';
  let shortcut = '';

  /** Apollo's express integration, with plainJsonPosts before it or not; callers are accepted when they say `x-caller: ok`. */
  async function serve(withShortcut: boolean): Promise<string> {
    const app = express();
    app.use(
      '/graphql',
      express.json(),
      ...(withShortcut
        ? [
            plainJsonPosts(apollo, (req) => {
              if (req.headers['x-caller'] !== 'ok') return null;
              answered++;
              return { greeting: 'hi' };
            }),
          ]
        : []),
      expressMiddleware(apollo, {
        context: async ({ req }) => {
          if (req.headers['x-caller'] !== 'ok')
            throw new GraphQLError('unsigned', { extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } } });
          return { greeting: 'hi' };
        },
      }),
    );
    const server = http.createServer(app);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  }

  beforeAll(async () => {
    await apollo.start();
    direct = await serve(false);
    shortcut = await serve(true);
  });
  afterAll(async () => {
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
    await apollo.stop();
  });

  async function post(url: string, body: string, headers: Record<string, string>) {
    const res = await fetch(url, { method: 'POST', headers, body });
    return { status: res.status, contentType: res.headers.get('content-type'), text: withoutIds(await res.text()) };
  }

  const JSON_HEADERS = { 'content-type': 'application/json', 'x-caller': 'ok' };
  it.each(BODIES)('answers %s itself, exactly as Apollo over HTTP does', async (_, body) => {
    const before = answered;
    const text = JSON.stringify(body);
    expect(await post(shortcut, text, JSON_HEADERS)).toEqual(await post(direct, text, JSON_HEADERS));
    expect(answered).toBe(before + 1);
  });

  it.each<[string, string, Record<string, string>]>([
    ...OTHER_SHAPES.map(([what, body]): [string, string, Record<string, string>] => [what, JSON.stringify(body), JSON_HEADERS]),
    ['an unsigned caller', JSON.stringify(BODIES[0][1]), { 'content-type': 'application/json' }],
    ['another answer type asked for', JSON.stringify(BODIES[0][1]), { ...JSON_HEADERS, accept: 'application/graphql-response+json' }],
    ['a body that is not JSON', '{"query": ', JSON_HEADERS],
    ['a body of another type', JSON.stringify(BODIES[0][1]), { 'content-type': 'text/plain', 'x-caller': 'ok' }],
  ])('passes %s on to Apollo', async (_, body, headers) => {
    const before = answered;
    expect(await post(shortcut, body, headers)).toEqual(await post(direct, body, headers));
    expect(answered).toBe(before);
  });
});
