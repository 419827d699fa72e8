import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import { composeServices } from '@apollo/composition';
import { buildSubgraphSchema, type GraphQLResolverMap } from '@apollo/subgraph';
import express from 'express';
import { parse } from 'graphql';
import { graphqlUploadExpress, Upload } from 'graphql-upload-minimal';
import { useServer } from 'graphql-ws/use/ws';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { connectionScope, readPrincipal, requestDigest, type Principal } from '../../platform/auth/principal.js';
import { REQUEST_ID_HEADER } from '../../platform/logger.js';
import { PushIterator } from '../../platform/events/push-iterator.js';

/** What a test subgraph's resolvers see: the principal it verified and the raw request headers. */
export interface TestSubgraphContext {
  principal: Principal | null;
  headers: Record<string, unknown>;
}

export interface TestSubgraphDefinition {
  name: string;
  typeDefs: string;
  resolvers: GraphQLResolverMap<TestSubgraphContext>;
}

export interface TestSubgraph {
  name: string;
  typeDefs: string;
  /** HTTP URL; graphql-ws is served on the same path. */
  url: string;
  /** Headers of every HTTP request and connectionParams of every graphql-ws connection, in order. */
  received: Array<Record<string, unknown>>;
  /** The principal each of those requests or connections carried, as verified (null: refused). */
  principals: Array<Principal | null>;
  /** graphql-ws connections opened so far. */
  sockets(): number;
  stop(): Promise<void>;
}

/**
 * A federated subgraph the way the platform's run: Apollo Server + graphql-upload-minimal over HTTP,
 * graphql-ws on the same path, trusting only principals signed with `internalSecret`.
 */
export async function startTestSubgraph(def: TestSubgraphDefinition, internalSecret: string): Promise<TestSubgraph> {
  const schema = buildSubgraphSchema([{ typeDefs: parse(def.typeDefs), resolvers: def.resolvers }]);
  const received: Array<Record<string, unknown>> = [];
  const principals: Array<Principal | null> = [];
  const wsPrincipals = new WeakMap<object, Principal | null>();
  let sockets = 0;
  const context = (headers: Record<string, unknown>, principal: Principal | null): TestSubgraphContext => {
    received.push(headers);
    principals.push(principal);
    return { principal, headers };
  };

  const app = express();
  const server = createServer(app);
  const apollo = new ApolloServer<TestSubgraphContext>({ schema, plugins: [ApolloServerPluginInlineTraceDisabled()] });
  await apollo.start();
  app.use(
    '/graphql',
    graphqlUploadExpress({ maxFileSize: 10 * 1024 * 1024 }),
    express.json(),
    expressMiddleware(apollo, {
      context: async ({ req }) => {
        const headers = req.headers as IncomingHttpHeaders as Record<string, unknown>;
        const request = requestDigest(req.body ?? {}, (value) => value instanceof Upload);
        return context(headers, readPrincipal(headers, internalSecret, { audience: def.name, request }));
      },
    }),
  );
  const wss = new WebSocketServer({ server, path: '/graphql' });
  const ws = useServer(
    {
      schema,
      onConnect: (ctx) => {
        sockets++;
        const principal = readPrincipal(
          ctx.connectionParams,
          internalSecret,
          connectionScope(def.name, ctx.connectionParams?.[REQUEST_ID_HEADER]),
        );
        wsPrincipals.set(ctx, principal);
        return principal !== null;
      },
      context: (ctx) => context(ctx.connectionParams ?? {}, wsPrincipals.get(ctx) ?? null),
    },
    wss,
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  let stopping: Promise<void> | undefined;
  return {
    name: def.name,
    typeDefs: def.typeDefs,
    url: `http://127.0.0.1:${port}/graphql`,
    received,
    principals,
    sockets: () => sockets,
    stop() {
      stopping ??= (async () => {
        await ws.dispose();
        await apollo.stop();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      })();
      return stopping;
    },
  };
}

/**
 * The supergraph of the given subgraphs, composed as the build does (@apollo/composition), with
 * the deployment's URLs (`http://<name>.invalid/graphql`) that the gateway's `subgraphUrls` must override.
 */
export function composeSupergraph(subgraphs: TestSubgraph[]): string {
  const result = composeServices(
    subgraphs.map((s) => ({ name: s.name, typeDefs: parse(s.typeDefs), url: `http://${s.name}.invalid/graphql` })),
  );
  if (result.errors) throw new Error(result.errors.map((e) => e.message).join('\n'));
  return result.supergraphSdl;
}

/** In-memory pub/sub for test subscriptions; counts live subscribers so tests can see upstream closes. */
export class TestPubSub {
  private readonly topics = new Map<string, Set<PushIterator<unknown>>>();

  subscribe(topic: string): AsyncIterableIterator<unknown> {
    const subscribers = this.topics.get(topic) ?? new Set();
    this.topics.set(topic, subscribers);
    const iterator: PushIterator<unknown> = new PushIterator(() => subscribers.delete(iterator));
    subscribers.add(iterator);
    return iterator;
  }

  publish(topic: string, payload: unknown): void {
    for (const subscriber of this.topics.get(topic) ?? []) subscriber.push(payload);
  }

  /** Subscribers of one topic, or of all. */
  subscriberCount(topic?: string): number {
    if (topic === undefined) return [...this.topics.values()].reduce((n, subscribers) => n + subscribers.size, 0);
    return this.topics.get(topic)?.size ?? 0;
  }
}
