import { composeServices } from '@apollo/composition';
import { operationFromDocument, Supergraph } from '@apollo/federation-internals';
import { QueryPlanner } from '@apollo/query-planner';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse, type DocumentNode } from 'graphql';
import { readPrincipal, requestDigest, type Principal } from '../../platform/auth/principal.js';
import { PlanShortcut } from './plan-shortcut.js';
import type { GatewayContext } from '../subgraph-data-source.js';

const LINK = 'extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])';
const SECRET = 'single-fetch-secret-0123456789';

describe('PlanShortcut', () => {
  let server: Server;
  let url: string;
  /** What the fake `people` subgraph received, and what it answers next. */
  const received: Array<{ body: any; principal: Principal | null }> = [];
  let answer: unknown = { data: { person: { id: '1', name: 'Ada' } } };
  /** What the `pets` subgraph answers (entity fetches), or undefined: unreachable. */
  let pets: unknown;
  let shortcut: PlanShortcut;
  const context: GatewayContext = {
    principal: { kind: 'client', organizationId: 'o', clientId: 'c', service: 'all', environment: 'live', permissions: [] },
    requestId: 'r-1',
  };

  beforeAll(async () => {
    const composed = composeServices([
      {
        name: 'people',
        url: 'http://people',
        typeDefs: parse(
          `${LINK} type Query { person(id: ID!): Person  people: [Person]  named: Named }
           type Mutation { rename(id: ID!, name: String!): Person  forget(id: ID!): Boolean }
           interface Named { name: String }
           type Person implements Named @key(fields: "id") { id: ID! name: String }`,
        ),
      },
      { name: 'pets', url: 'http://pets', typeDefs: parse(`${LINK} type Person @key(fields: "id") { id: ID! pets: [String] }`) },
    ]);
    const supergraph = Supergraph.build(composed.supergraphSdl!);
    const planner = new QueryPlanner(supergraph);
    const apiSchema = supergraph.apiSchema().toGraphQLJSSchema();
    server = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk) => (text += chunk));
      req.on('end', () => {
        const body = JSON.parse(text);
        const audience = req.url === '/pets' ? 'pets' : 'people';
        received.push({ body, principal: readPrincipal(req.headers, SECRET, { audience, request: requestDigest(body) }) });
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(audience === 'pets' ? pets : answer));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
    shortcut = new PlanShortcut({
      planning: () => ({
        apiSchema,
        plan: (document: DocumentNode, _text: string, operationName?: string) =>
          planner.buildQueryPlan(operationFromDocument(supergraph.apiSchema(), document, { operationName })),
      }),
      url: (name) => (name === 'people' ? url : name === 'pets' && pets !== undefined ? url.replace('/graphql', '/pets') : undefined),
      internalSecret: SECRET,
      validationRules: [],
      production: true,
      formatError: (formatted) => ({ message: formatted.message, path: formatted.path, extensions: { code: formatted.extensions?.code } }),
    });
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => {
    received.length = 0;
    answer = { data: { person: { id: '1', name: 'Ada' } } };
    pets = undefined;
  });

  it("forwards a one-subgraph query with a principal signed for that subgraph and request, and returns the subgraph's data", async () => {
    const body = { query: 'query P($id: ID!) { person(id: $id) { id name } }', variables: { id: '1', unused: 2 } };
    expect(await shortcut.run(body, context)).toEqual({ data: { person: { id: '1', name: 'Ada' } } });
    expect(received).toHaveLength(1);
    expect(received[0].body.variables).toEqual({ id: '1' });
    expect(received[0].principal).toEqual(context.principal);
  });

  it('writes out fragments spread in their own type (as the REST adapter sends them) and compares the selection', async () => {
    const body = {
      query: 'query P($id: ID!) { person(id: $id) { ...F } } fragment F on Person { id ... on Person { name } }',
      variables: { id: '1' },
    };
    expect(await shortcut.run(body, context)).toEqual({ data: { person: { id: '1', name: 'Ada' } } });
    expect(received).toHaveLength(1);
  });

  it('forwards a mutation of one root field once; its errors are answered formatted, never by sending it again', async () => {
    answer = { data: { rename: { id: '1', name: 'Grace' } } };
    const body = {
      query: 'mutation R($id: ID!) { rename(id: $id, name: "Grace") { ...F } } fragment F on Person { id name }',
      variables: { id: '1' },
    };
    expect(await shortcut.run(body, context)).toEqual({ data: { rename: { id: '1', name: 'Grace' } } });
    answer = {
      data: { rename: null },
      errors: [{ message: 'Person 1 was not found', path: ['rename'], extensions: { code: 'NOT_FOUND' } }],
    };
    expect(await shortcut.run(body, context)).toEqual({
      errors: [{ message: 'Person 1 was not found', path: ['rename'], extensions: { code: 'NOT_FOUND' } }],
      data: { rename: null },
    });
    // an error without a code is the subgraph's failure, as Apollo Gateway names it
    answer = { data: null, errors: [{ message: 'boom' }] };
    expect((await shortcut.run(body, context))!.errors![0].extensions!.code).toBe('DOWNSTREAM_SERVICE_ERROR');
    expect(received).toHaveLength(3);
    expect(received[0].principal).toEqual(context.principal);
  });

  it('sends identical queries in flight for the same caller once, each caller its own copy; other callers and mutations are sent each', async () => {
    const query = { query: '{ people { id name } }' };
    const other: GatewayContext = { ...context, principal: { ...context.principal, clientId: 'd' } };
    answer = { data: { people: [{ id: '1', name: 'Ada' }] } };
    const answers = await Promise.all([shortcut.run(query, context), shortcut.run(query, context), shortcut.run(query, other)]);
    expect(answers).toEqual(Array(3).fill(answer));
    expect(answers[0]).not.toBe(answers[1]);
    expect(received.map((r) => r.principal?.clientId)).toEqual(['c', 'd']);

    received.length = 0;
    answer = { data: { forget: true } };
    const mutation = { query: 'mutation F($id: ID!) { forget(id: $id) }', variables: { id: '1' } };
    await Promise.all([shortcut.run(mutation, context), shortcut.run(mutation, context)]);
    expect(received).toHaveLength(2);
    // once answered, the same query is sent again
    received.length = 0;
    answer = { data: { people: [] } };
    expect(await shortcut.run(query, context)).toEqual(answer);
    expect(received).toHaveLength(1);
  });

  it('runs the compiled plan of a query over several subgraphs, each fetch signed for its subgraph; a subgraph it cannot reach hands it to Apollo', async () => {
    const query = { query: '{ person(id: "1") { ... on Named { name } pets } }' };
    answer = { data: { person: { __typename: 'Person', name: 'Ada', id: '1' } } };
    pets = { data: { _entities: [{ pets: ['cat'] }] } };
    expect(await shortcut.run(query, context)).toEqual({ data: { person: { name: 'Ada', pets: ['cat'] } } });
    expect(received.map((r) => r.body.variables)).toEqual([{}, { representations: [{ __typename: 'Person', id: '1' }] }]);
    expect(received.map((r) => r.principal)).toEqual([context.principal, context.principal]);

    received.length = 0;
    pets = { data: null, errors: [{ message: 'boom' }] };
    expect(await shortcut.run(query, context)).toBeNull();
    pets = undefined;
    expect(await shortcut.run(query, context)).toBeNull();
    expect(received).toHaveLength(3);
  });

  it('leaves to Apollo what it must answer: mutations of several fields, invalid documents or variables', async () => {
    const refused = [
      { query: 'mutation { a: forget(id: "1") b: forget(id: "2") }' },
      { query: '{ person(id: "1") { nope } }' },
      { query: 'query P($id: ID!) { person(id: $id) { id } }', variables: { id: { not: 'an id' } } },
      { query: 'query P($id: ID!) { person(id: $id) { id } }' },
      { query: '{ person(id: "1") { id } }', operationName: 'Other' },
      { query: '{ person(id: "1") { id } }', extensions: { persistedQuery: {} } },
      { query: 'mutation { person }' },
    ];
    for (const body of refused) expect(await shortcut.run(body, context)).toBeNull();
    expect(received).toHaveLength(0);
  });

  it('falls back to Apollo when the subgraph answers errors (a query may run twice; it changes nothing)', async () => {
    answer = { data: { person: null }, errors: [{ message: 'boom' }] };
    expect(await shortcut.run({ query: '{ people { id } }' }, context)).toBeNull();
    expect(received).toHaveLength(1);
  });
});
