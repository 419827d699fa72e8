import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { composeServices } from '@apollo/composition';
import { execute, parse, validate, type DocumentNode, type GraphQLError } from 'graphql';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The four subgraphs of The Guild's public graphql-gateways-benchmark (accounts, inventory,
 * products, reviews), written for Node from its schema and data: a static data set, no I/O, so
 * what is measured is the gateway. Federation 2 SDL (the original is Federation 1).
 */

const LINK =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@shareable", "@external", "@provides", "@requires"])';

interface User {
  id: string;
  name: string;
  username: string;
  birthday: number;
}
const USERS: User[] = [
  ['1', 'Uri Goldshtein', 'urigo'],
  ['2', 'Dotan Simha', 'dotansimha'],
  ['3', 'Kamil Kisiela', 'kamilkisiela'],
  ['4', 'Arda Tanrikulu', 'ardatan'],
  ['5', 'Gil Gardosh', 'gilgardosh'],
  ['6', 'Laurin Quast', 'laurin'],
].map(([id, name, username]) => ({ id, name, username, birthday: 1234567890 }));

interface Product {
  upc: string;
  name: string;
  price: number;
  weight: number;
}
const PRODUCTS: Product[] = (
  [
    ['1', 'Table', 899, 100],
    ['2', 'Couch', 1299, 1000],
    ['3', 'Glass', 15, 20],
    ['4', 'Chair', 499, 100],
    ['5', 'TV', 1299, 1000],
    ['6', 'Lamp', 6999, 300],
    ['7', 'Grill', 3999, 2000],
    ['8', 'Fridge', 100000, 6000],
    ['9', 'Sofa', 9999, 800],
  ] as const
).map(([upc, name, price, weight]) => ({ upc, name, price, weight }));
const IN_STOCK = new Set(['1', '5', '6', '7', '9']);

const LOREM = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.';
interface Review {
  id: string;
  body: string;
  upc: string;
}
// eleven reviews over products 1–4, bodies of the original's lengths (about 140 to 900 characters)
const REVIEWS: Review[] = (
  [
    ['1', 3, '1'],
    ['2', 2, '1'],
    ['3', 2, '1'],
    ['4', 1, '1'],
    ['5', 3, '2'],
    ['6', 2, '2'],
    ['7', 2, '2'],
    ['8', 1, '2'],
    ['9', 1, '3'],
    ['10', 1, '4'],
    ['11', 7, '4'],
  ] as const
).map(([id, repeat, upc]) => ({ id, body: LOREM.repeat(repeat), upc }));

export const BENCH_SUBGRAPHS: Array<{ name: string; typeDefs: DocumentNode; resolvers: Record<string, any> }> = [
  {
    name: 'accounts',
    typeDefs: parse(`${LINK}
      type Query { me: User  user(id: ID!): User  users: [User] }
      type User @key(fields: "id") { id: ID!  name: String  username: String @shareable  birthday: Int }`),
    resolvers: {
      Query: { me: () => USERS[0], user: (_: unknown, { id }: { id: string }) => USERS.find((u) => u.id === id), users: () => USERS },
      User: { __resolveReference: (ref: { id: string }) => USERS.find((u) => u.id === ref.id) },
    },
  },
  {
    name: 'inventory',
    typeDefs: parse(`${LINK}
      type Product @key(fields: "upc") {
        upc: String!  weight: Int @external  price: Int @external  inStock: Boolean
        shippingEstimate: Int @requires(fields: "price weight")
      }`),
    resolvers: {
      Product: {
        __resolveReference: (ref: { upc: string; price?: number; weight?: number }) => ({ ...ref, inStock: IN_STOCK.has(ref.upc) }),
        shippingEstimate: (p: { price?: number; weight?: number }) =>
          p.price == null ? null : p.price > 1000 ? 0 : p.weight == null ? null : Math.floor(p.weight / 2),
      },
    },
  },
  {
    name: 'products',
    typeDefs: parse(`${LINK}
      type Query { topProducts(first: Int = 5): [Product] }
      type Product @key(fields: "upc") { upc: String!  name: String  price: Int  weight: Int }`),
    resolvers: {
      Query: { topProducts: (_: unknown, { first }: { first: number }) => PRODUCTS.slice(0, first) },
      Product: { __resolveReference: (ref: { upc: string }) => PRODUCTS.find((p) => p.upc === ref.upc) },
    },
  },
  {
    name: 'reviews',
    typeDefs: parse(`${LINK}
      type Review @key(fields: "id") { id: ID!  body: String  product: Product  author: User @provides(fields: "username") }
      type User @key(fields: "id") { id: ID!  username: String @external  reviews: [Review] }
      type Product @key(fields: "upc") { upc: String!  reviews: [Review] }`),
    resolvers: {
      Review: {
        __resolveReference: (ref: { id: string }) => REVIEWS.find((r) => r.id === ref.id),
        product: (r: Review) => ({ upc: r.upc }),
        // as in the original: every review's author is the first user, with the username provided
        author: () => ({ id: '1', username: 'urigo' }),
      },
      User: { __resolveReference: (ref: { id: string }) => ({ id: ref.id }), reviews: () => REVIEWS.slice(0, 2) },
      Product: {
        __resolveReference: (ref: { upc: string }) => ref,
        reviews: (p: { upc: string }) => REVIEWS.filter((r) => r.upc === p.upc),
      },
    },
  },
];

/** The benchmark's nested query, across the four subgraphs. */
export const TEST_QUERY = `
fragment User on User { id username name }
fragment Review on Review { id body }
fragment Product on Product { inStock name price shippingEstimate upc weight }
query TestQuery {
  users { ...User reviews { ...Review product { ...Product reviews { ...Review author { ...User reviews { ...Review product { ...Product } } } } } } }
  topProducts { ...Product reviews { ...Review author { ...User reviews { ...Review product { ...Product } } } } }
}`;

/** A query one subgraph (products) answers alone: the gateway against that subgraph called directly. */
export const SINGLE_SUBGRAPH_QUERY = 'query TopProducts { topProducts(first: 5) { upc name price weight } }';

/** The supergraph of the four, composed with @apollo/composition (subgraph URLs by name). */
export function benchSupergraph(urls: Record<string, string>): string {
  const result = composeServices(BENCH_SUBGRAPHS.map((s) => ({ name: s.name, typeDefs: s.typeDefs, url: urls[s.name] })));
  if (result.errors) throw new Error(result.errors.map((e) => e.message).join('\n'));
  return result.supergraphSdl;
}

/**
 * Starts the four subgraphs on the given ports; their URLs by name. `lean`: each is graphql-js
 * itself behind node:http — a document parsed and validated once, executed per request — as cheap
 * beside a gateway as The Guild's Rust subgraphs are (under Apollo Server the one process all four
 * share cost about 6 ms of CPU per TestQuery and bounded every side). Otherwise Apollo Server with
 * its defaults, as a subgraph of this platform costs.
 */
export async function startBenchSubgraphs(ports: Record<string, number>, lean: boolean): Promise<Record<string, string>> {
  const urls: Record<string, string> = {};
  for (const subgraph of BENCH_SUBGRAPHS) {
    if (!lean) {
      const server = new ApolloServer({ schema: buildSubgraphSchema([{ typeDefs: subgraph.typeDefs, resolvers: subgraph.resolvers }]) });
      const { url } = await startStandaloneServer(server, { listen: { port: ports[subgraph.name] ?? 0, host: '127.0.0.1' } });
      urls[subgraph.name] = url;
      continue;
    }
    const schema = buildSubgraphSchema([{ typeDefs: subgraph.typeDefs, resolvers: subgraph.resolvers }]);
    const documents = new Map<string, DocumentNode | readonly GraphQLError[]>();
    const server = createServer((req, res) => {
      let text = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (text += chunk));
      req.on('end', async () => {
        let answer: unknown;
        try {
          const { query, variables, operationName } = JSON.parse(text) as {
            query: string;
            variables?: Record<string, unknown>;
            operationName?: string;
          };
          let document = documents.get(query);
          if (!document) {
            const parsed = parse(query);
            const errors = validate(schema, parsed);
            document = errors.length ? errors : parsed;
            documents.set(query, document);
          }
          answer =
            'kind' in document ? await execute({ schema, document, variableValues: variables, operationName }) : { errors: document };
        } catch (error) {
          answer = { errors: [{ message: (error as Error).message }] };
        }
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((resolve) => server.listen(ports[subgraph.name] ?? 0, '127.0.0.1', resolve));
    urls[subgraph.name] = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  }
  return urls;
}
