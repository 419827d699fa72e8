import { ApolloGateway, IntrospectAndCompose, RemoteGraphQLDataSource } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import pg from 'pg';
import { startGateway } from '../../gateway/gateway.js';
import { createLogger } from '../../platform/logger.js';
import { startEdgeAuthenticator } from '../../platform/auth/authenticate.js';
import { postgresChannels } from '../../platform/db/listen.js';
import { startBenchSubgraphs } from './subgraphs.js';
import { principalHeaders, requestDigest, type Principal } from '../../platform/auth/principal.js';

/**
 * One process of the gateway benchmark (bench/gateway.bench.ts), so each side has its own event
 * loop: `subgraphs` (the four; `lean` or Apollo Server), `apollo` (stock @apollo/gateway + @apollo/server, defaults) or
 * `ours` (gateway/gateway.ts with its edge authentication, limits and plugins, keys in
 * PostgreSQL); `apollo-signed` (for bench/stack.bench.ts: stock @apollo/gateway + @apollo/server
 * over the platform's own subgraphs, composed from them, each call signed for one fixed principal
 * as our subgraphs require — no API key lookup, no limits). Argument 2: a JSON object of settings; prints one JSON line when listening.
 */
const role = process.argv[2];
const settings = JSON.parse(process.argv[3] ?? '{}') as {
  ports?: Record<string, number>;
  /** subgraphs: graphql-js behind node:http instead of Apollo Server (startBenchSubgraphs). */
  lean?: boolean;
  port?: number;
  supergraphSdl?: string;
  databaseUrl?: string;
  internalSecret?: string;
  reusePort?: boolean;
  /** Our gateway: identical subgraph queries in flight share one call (default true). */
  shareQueries?: boolean;
  /** apollo-signed: the subgraphs by name, and who every call is signed for. */
  subgraphs?: Array<{ name: string; url: string }>;
  principal?: Principal;
};
const ready = (info: Record<string, unknown>) => process.stdout.write(JSON.stringify(info) + '\n');

if (role === 'subgraphs') {
  ready({ urls: await startBenchSubgraphs(settings.ports ?? {}, settings.lean ?? false) });
} else if (role === 'apollo') {
  const server = new ApolloServer({ gateway: new ApolloGateway({ supergraphSdl: settings.supergraphSdl! }) });
  const { url } = await startStandaloneServer(server, { listen: { port: settings.port ?? 0, host: '127.0.0.1' } });
  ready({ url });
} else if (role === 'apollo-signed') {
  const { internalSecret, principal } = settings as Required<typeof settings>;
  const gateway = new ApolloGateway({
    supergraphSdl: new IntrospectAndCompose({ subgraphs: settings.subgraphs! }),
    buildService: ({ name, url }) =>
      new RemoteGraphQLDataSource({
        url,
        willSendRequest({ request }) {
          const headers = principalHeaders(principal, internalSecret, { audience: name, request: requestDigest(request) });
          for (const [header, value] of Object.entries(headers)) request.http?.headers.set(header, value);
        },
      }),
  });
  const server = new ApolloServer({ gateway });
  const { url } = await startStandaloneServer(server, { listen: { port: settings.port ?? 0, host: '127.0.0.1' } });
  ready({ url });
} else if (role === 'ours') {
  const logger = createLogger('bench-gateway', 'warn');
  const pool = new pg.Pool({ connectionString: settings.databaseUrl, max: 10 });
  const edge = await startEdgeAuthenticator({
    pool,
    events: postgresChannels(settings.databaseUrl!),
    adminSecret: 'bench-admin-secret-0123456789',
    internalSecret: settings.internalSecret!,
    organizationRateLimit: 1_000_000,
    logger,
  });
  const gateway = await startGateway({
    supergraphSdl: settings.supergraphSdl!,
    authenticate: edge.authenticate,
    internalSecret: settings.internalSecret!,
    logger,
    port: settings.port ?? 0,
    host: '127.0.0.1',
    reusePort: settings.reusePort,
    shareQueries: settings.shareQueries,
    production: true,
  });
  ready({ url: gateway.url });
} else {
  throw new Error(`unknown role ${role}`);
}
