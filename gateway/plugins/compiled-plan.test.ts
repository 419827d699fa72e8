import { composeServices } from '@apollo/composition';
import { operationFromDocument, Supergraph } from '@apollo/federation-internals';
import { buildOperationContext, executeQueryPlan, LocalGraphQLDataSource } from '@apollo/gateway';
import { QueryPlanner } from '@apollo/query-planner';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { getOperationAST, graphql, Kind, parse, type FragmentDefinitionNode, type GraphQLSchema } from 'graphql';
import { compileQuery, GiveUp, type FetchRunner } from './compiled-plan.js';

/**
 * The compiled plan against Apollo Gateway's own executor (`executeQueryPlan` + `computeResponse`)
 * on the same plans over the same subgraphs: the same answer, byte for byte, or GiveUp exactly
 * where Apollo answers errors.
 */
const LINK =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@shareable", "@external", "@provides", "@requires", "@inaccessible"])';

const users = [
  { id: '1', name: 'Ada', username: 'ada' },
  { id: '2', name: 'Grace', username: 'grace' },
];
const products = [
  { upc: '1', name: 'Table', price: 899, weight: 100, toString: 'a table' },
  { upc: '2', name: 'Couch', price: 1299, weight: 1000, toString: null },
  { upc: '3', name: 'Glass', price: 15, weight: 20, toString: 'glass' },
];
const reviews = [
  { id: '1', body: 'Love it', authorId: '1', upc: '1' },
  { id: '2', body: 'Too big', authorId: '1', upc: '2' },
  { id: '3', body: 'Hmm', authorId: '2', upc: '3' },
  { id: '4', body: 'Fine', authorId: '2', upc: '1' },
];
/** What the next requests meet: an unknown product in stock lists, an admin whose role the API hides. */
const state = { unknownProduct: false, hiddenRole: false };

const subgraphs = [
  {
    name: 'accounts',
    typeDefs: parse(`${LINK}
      type Query { me: User  users: [User!]!  node(id: ID!): Node  search(term: String!): [SearchResult]! }
      interface Node { id: ID! }
      enum Role { OWNER MEMBER HIDDEN @inaccessible }
      type User implements Node @key(fields: "id") { id: ID! name: String username: String @shareable }
      type Admin implements Node { id: ID! role: Role! }
      type Product @key(fields: "upc", resolvable: false) { upc: String! }
      union SearchResult = User | Product`),
    resolvers: {
      Query: {
        me: () => null,
        users: () => users,
        node: (_: unknown, { id }: { id: string }) =>
          id === 'a' ? { __typename: 'Admin', id, role: state.hiddenRole ? 'HIDDEN' : 'OWNER' } : users.find((u) => u.id === id),
        search: () => [{ __typename: 'User', ...users[1] }, null, { __typename: 'Product', upc: '3' }],
      },
      Node: { __resolveType: (node: { __typename?: string }) => node.__typename ?? 'User' },
      SearchResult: { __resolveType: (value: { __typename: string }) => value.__typename },
      User: { __resolveReference: (ref: { id: string }) => users.find((u) => u.id === ref.id) },
    },
  },
  {
    name: 'products',
    typeDefs: parse(`${LINK}
      type Query { topProducts(first: Int = 2): [Product] }
      type Product @key(fields: "upc") { upc: String! name: String price: Int weight: Int toString: String }`),
    resolvers: {
      Query: {
        topProducts: (_: unknown, { first }: { first: number }) => [
          ...products.slice(0, first),
          ...(state.unknownProduct ? [{ upc: '9', name: 'Ghost', price: 1, weight: 1 }] : []),
        ],
      },
      Product: { __resolveReference: (ref: { upc: string }) => products.find((p) => p.upc === ref.upc) },
    },
  },
  {
    name: 'inventory',
    typeDefs: parse(`${LINK}
      type Product @key(fields: "upc") {
        upc: String!  weight: Int @external  price: Int @external
        inStock: Boolean!  shippingEstimate: Int @requires(fields: "price weight")
      }`),
    resolvers: {
      Product: {
        // an unknown product: null, which Apollo answers with an error (inStock is non-null)
        __resolveReference: (ref: { upc: string; price?: number; weight?: number }) =>
          ref.upc === '9' ? null : { ...ref, inStock: ref.upc !== '2' },
        shippingEstimate: (p: { price: number; weight: number }) => (p.price > 1000 ? 0 : Math.round(p.weight / 2)),
      },
    },
  },
  {
    name: 'reviews',
    typeDefs: parse(`${LINK}
      type Review { id: ID! body: String author: User @provides(fields: "username") product: Product }
      type User @key(fields: "id") { id: ID! username: String @external reviews: [Review] }
      type Product @key(fields: "upc") { upc: String! reviews: [Review] }`),
    resolvers: {
      Review: {
        author: (r: { authorId: string }) => ({
          __typename: 'User',
          id: r.authorId,
          username: users.find((u) => u.id === r.authorId)!.username,
        }),
        product: (r: { upc: string }) => ({ __typename: 'Product', upc: r.upc }),
      },
      User: { reviews: (u: { id: string }) => reviews.filter((r) => r.authorId === u.id) },
      Product: { reviews: (p: { upc: string }) => reviews.filter((r) => r.upc === p.upc) },
    },
  },
];

let supergraph: Supergraph;
let planner: QueryPlanner;
let apiSchema: GraphQLSchema;
const schemas = new Map<string, GraphQLSchema>();

beforeAll(() => {
  const composed = composeServices(subgraphs.map(({ name, typeDefs }) => ({ name, typeDefs, url: `http://${name}` })));
  if (composed.errors) throw new Error(composed.errors.map((e) => e.message).join('\n'));
  supergraph = Supergraph.build(composed.supergraphSdl);
  planner = new QueryPlanner(supergraph);
  apiSchema = supergraph.apiSchema().toGraphQLJSSchema();
  for (const s of subgraphs) schemas.set(s.name, buildSubgraphSchema([{ typeDefs: s.typeDefs, resolvers: s.resolvers as never }]));
});

beforeEach(() => {
  state.unknownProduct = false;
  state.hiddenRole = false;
});

/** Runs a planned fetch on the subgraph's schema in this process; its errors give up, as the shortcut's sender does. */
const fetchLocally =
  (sent: string[]): FetchRunner =>
  async (fetch, variables) => {
    sent.push(fetch.serviceName);
    const result = await graphql({ schema: schemas.get(fetch.serviceName)!, source: fetch.operation, variableValues: variables });
    if (result.errors) throw new GiveUp();
    return JSON.parse(JSON.stringify(result.data)) as Record<string, unknown>;
  };

async function both(query: string, variables: Record<string, unknown> = {}) {
  const document = parse(query);
  const plan = planner.buildQueryPlan(operationFromDocument(supergraph.apiSchema(), document));
  const operation = getOperationAST(document)!;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const compiled = compileQuery(apiSchema, plan, operation, fragments);

  const services = Object.fromEntries([...schemas].map(([name, schema]) => [name, new LocalGraphQLDataSource(schema)]));
  const requestContext = {
    request: { query, variables },
    context: {},
    document,
    logger: console,
    metrics: {},
  } as never;
  const operationContext = buildOperationContext({ schema: apiSchema, operationDocument: document });
  const apollo = await executeQueryPlan(
    plan,
    services,
    requestContext,
    operationContext,
    supergraph.schema.toGraphQLJSSchema(),
    supergraph.apiSchema(),
  );

  const sent: string[] = [];
  let ours: unknown;
  try {
    ours = compiled ? await compiled.run(variables, fetchLocally(sent)) : undefined;
  } catch (error) {
    if (!(error instanceof GiveUp)) throw error;
    ours = 'gave up';
  }
  return {
    plan,
    compiled: !!compiled,
    apollo: JSON.parse(JSON.stringify(apollo)) as { data?: unknown; errors?: unknown; extensions?: unknown },
    ours,
    sent,
  };
}

describe('compiled query plans answer as Apollo Gateway does', () => {
  const same: Array<{ name: string; query: string; variables?: Record<string, unknown> }> = [
    {
      name: 'nested entity fetches four subgraphs deep (TestQuery-like), @provides and @requires',
      query: `fragment U on User { id username name }
       fragment P on Product { inStock name price shippingEstimate upc weight }
       query T {
         users { ...U reviews { id body product { ...P reviews { id author { ...U reviews { body product { ...P } } } } } } }
         topProducts { ...P reviews { body author { ...U } } }
       }`,
    },
    {
      name: 'aliases, a field selected twice, fragments merged in first-seen order',
      query: '{ a: topProducts(first: 1) { upc n: name } b: topProducts { ...P name upc } } fragment P on Product { price inStock upc }',
    },
    {
      name: '__typename at the root and nested, aliased, and fields named like Object.prototype keys',
      query: '{ __typename t: __typename topProducts { __typename kind: __typename toString upc } }',
    },
    {
      name: 'a union across subgraphs with a null member',
      query: '{ search(term: "x") { __typename ... on User { name reviews { body } } ... on Product { upc name shippingEstimate } } }',
    },
    {
      name: 'an interface, fragments on the interface and on its members',
      query: '{ node(id: "1") { id ... on User { username } ... on Node { __typename } } admin: node(id: "a") { ... on Admin { role } } }',
    },
    { name: 'variables and a default', query: 'query Q($first: Int) { topProducts(first: $first) { upc name } }', variables: { first: 3 } },
    { name: 'no variable: the default applies', query: 'query Q($first: Int) { topProducts(first: $first) { upc } }' },
    { name: 'a null root field and an empty selection of entities', query: '{ me { id name reviews { body } } }' },
    { name: 'only __typename: no fetch at all', query: '{ __typename }' },
    ...[
      { inc: true, skip: false },
      { inc: false, skip: false },
      { inc: true, skip: true },
      { inc: false, skip: true },
    ].map((variables) => ({
      name: `@include / @skip on fields, fragments and other subgraphs' fields (plan conditions), ${JSON.stringify(variables)}`,
      query: `query C($inc: Boolean!, $skip: Boolean = false, $other: Boolean = true) {
        topProducts { upc name @include(if: $inc) ...P @skip(if: $skip) n: name @skip(if: $skip) inStock @include(if: $inc)
          reviews @include(if: $other) { body author @skip(if: $skip) { username } } }
        users @include(if: true) { id ... on User @include(if: $inc) { name } reviews @skip(if: $inc) { id } }
      } fragment P on Product { price shippingEstimate @include(if: $inc) }`,
      variables,
    })),
    {
      name: 'a condition variable left to its default',
      query: 'query D($inc: Boolean = false) { topProducts { upc inStock @include(if: $inc) name @skip(if: $inc) } }',
    },
  ];
  it.each(same)('$name', async ({ query, variables }) => {
    const { compiled, apollo, ours, sent, plan } = await both(query, variables);
    expect(compiled).toBe(true);
    // the conditions of other subgraphs' fields are the plan's own nodes
    if (query.includes('$other')) expect(JSON.stringify(plan)).toContain('"kind":"Condition"');
    expect(apollo.errors).toBeUndefined();
    expect(apollo.extensions).toBeUndefined();
    expect(JSON.stringify(ours)).toBe(JSON.stringify(apollo.data));
    if (query !== '{ __typename }') expect(sent.length).toBeGreaterThan(0);
  });

  it('gives up where Apollo answers errors: an entity a subgraph does not know (a non-null field missing), an enum value the API hides', async () => {
    state.unknownProduct = true;
    const unknown = await both('{ topProducts { upc inStock } }');
    expect(unknown.apollo.extensions).toBeDefined();
    expect(unknown.ours).toBe('gave up');

    state.hiddenRole = true;
    const hidden = await both('{ node(id: "a") { ... on Admin { role } } }');
    expect(hidden.apollo.extensions ?? hidden.apollo.errors).toBeDefined();
    expect(hidden.ours).toBe('gave up');
  });

  it('is not compiled for what Apollo must run: introspection', async () => {
    for (const query of ['{ __schema { queryType { name } } }', '{ __type(name: "User") { name } }']) {
      expect((await both(query)).compiled).toBe(false);
    }
  });
});
