import pg from 'pg';
import { logDatabaseError } from '../../../../platform/db/connection-errors.js';
import type { RiskCapability } from '../risk.shared.js';
import { GraphQueryExecutor } from './cypher/cypher.executor.js';
import { GraphQueryResolver, type GraphDeps } from './cypher/cypher.resolver.js';

/** The transaction graph, read with read-only Cypher. */
export const graphCapability: RiskCapability<GraphDeps & { graphPool: pg.Pool }> = {
  name: 'graph',
  resolvers: [GraphQueryResolver],
  deps: (shared) => {
    const c = shared.config;
    // graph queries are slow by nature: a small pool of their own, so they cannot hold the
    // connections evaluations and everything else in this process need
    const graphPool = new pg.Pool({
      connectionString: shared.databaseUrl,
      max: c.GRAPH_QUERY_POOL_SIZE,
      connectionTimeoutMillis: c.GRAPH_QUERY_TIMEOUT_MS,
    });
    graphPool.on('error', (err) => logDatabaseError(shared.logger, err, 'graph query pool'));
    graphPool.on('connect', (client) => client.on('error', (err) => logDatabaseError(shared.logger, err, 'graph query client')));
    const graphQuery = new GraphQueryExecutor({
      pool: graphPool,
      timeoutMs: c.GRAPH_QUERY_TIMEOUT_MS,
      maxRows: c.GRAPH_QUERY_MAX_ROWS,
      maxHops: c.GRAPH_QUERY_MAX_HOPS,
      logger: shared.logger,
    });
    return { graphPool, graphQuery };
  },
  workers: (deps) => [{ start: () => {}, stop: () => deps.graphPool.end() }],
};
