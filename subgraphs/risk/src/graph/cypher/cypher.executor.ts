import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { inTransaction } from '../../../../../platform/db/transaction.js';
import { AppError, badInput } from '../../../../../platform/errors.js';
import type { Logger } from '../../../../../platform/logger.js';
import type { Tenant } from '../../../../../platform/auth/tenant.js';
import { compileCypher, type CompiledQuery } from './cypher.compiler.js';
import { CypherError } from './cypher.error.js';
import { MAX_QUERY_LENGTH, parseCypher } from './cypher.parser.js';
import { GRAPH_TABLES } from './cypher.schema.js';

export interface GraphQueryOptions {
  pool: pg.Pool;
  timeoutMs: number;
  maxRows: number;
  maxHops: number;
  logger: Logger;
}

export interface GraphQueryResult {
  results: Record<string, unknown>[];
  columns: string[];
  /** Rows of the graph tables (nodes and relationships) the database read for this query. */
  nodesScanned: number;
  latencyMs: number;
  /** More rows matched than the row cap; `results` holds the first ones. */
  truncated: boolean;
}

/** Rows read so far by this backend from the graph tables and their indexes (constant SQL). */
const GRAPH_READS_SQL = `select coalesce(sum(pg_stat_get_xact_tuples_returned(c.oid)), 0)::bigint as n from pg_class c
  where c.oid in (
    select t.oid from pg_class t where t.relnamespace = 'risk'::regnamespace and t.relname in (${GRAPH_TABLES.map((t) => `'${t}'`).join(', ')})
    union all
    select i.indexrelid from pg_index i join pg_class t on t.oid = i.indrelid
    where t.relnamespace = 'risk'::regnamespace and t.relname in (${GRAPH_TABLES.map((t) => `'${t}'`).join(', ')}))`;

const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MAX_PARAMS_BYTES = 65_536;

/** PostgreSQL errors caused by the query's values or types: the caller's fault (400). */
const CLIENT_SQLSTATES = new Set(['42804', '42883', '42P18', '21000', '2201E', '2201F']);

/**
 * POST /v1/graph/query: parse → compile → run in a READ ONLY transaction with a statement
 * timeout (the database itself refuses writes and long queries), at most `maxRows` rows.
 * `nodes_scanned` comes from PostgreSQL's per-transaction table and index statistics
 * (pg_stat_get_xact_tuples_returned) over the graph tables: rows read, whatever the plan.
 */
export class GraphQueryExecutor {
  constructor(private readonly opts: GraphQueryOptions) {}

  compile(tenant: Tenant, query: unknown, params: unknown): CompiledQuery {
    if (typeof query !== 'string' || !query.trim()) throw badInput('query must be a non-empty string');
    if (query.length > MAX_QUERY_LENGTH) throw badInput(`query must be at most ${MAX_QUERY_LENGTH} characters`);
    if (params !== undefined && params !== null && (typeof params !== 'object' || Array.isArray(params)))
      throw badInput('params must be an object');
    const p = (params ?? {}) as Record<string, unknown>;
    const badNames = Object.keys(p).filter((k) => !PARAM_NAME.test(k));
    if (badNames.length) throw badInput(`params names must be identifiers (invalid: ${badNames.join(', ')})`);
    if (Buffer.byteLength(JSON.stringify(p)) > MAX_PARAMS_BYTES) throw badInput(`params must be at most ${MAX_PARAMS_BYTES} bytes of JSON`);
    try {
      return compileCypher(parseCypher(query), {
        organizationId: tenant.organizationId,
        environment: tenant.environment,
        params: p,
        maxRows: this.opts.maxRows,
        maxHops: this.opts.maxHops,
      });
    } catch (err) {
      if (err instanceof CypherError) {
        throw new AppError(
          'BAD_USER_INPUT',
          err.message,
          err.position ? { position: err.position, reason: err.kind } : { reason: err.kind },
        );
      }
      throw err;
    }
  }

  async run(tenant: Tenant, query: unknown, params: unknown): Promise<GraphQueryResult> {
    const started = performance.now();
    const compiled = this.compile(tenant, query, params);
    try {
      return await inTransaction(
        this.opts.pool,
        async (client, opened) => {
          // the backend's not-yet-flushed statistics may hold earlier transactions' reads: measure
          // before (read with the begin, one round trip) and after, inside the transaction (they are
          // flushed only when it ends)
          const before = Number((opened as pg.QueryResult<{ n: string }>[])[3].rows[0].n);
          const res = await client.query({ text: compiled.sql, values: compiled.values, rowMode: 'array' });
          const { rows } = await client.query<{ n: string }>(GRAPH_READS_SQL);
          const truncated = res.rows.length > this.opts.maxRows;
          const results = res.rows
            .slice(0, this.opts.maxRows)
            .map((row) => Object.fromEntries(compiled.columns.map((c, i) => [c, row[i]])));
          return {
            results,
            columns: compiled.columns,
            nodesScanned: Number(rows[0].n) - before,
            latencyMs: Math.round((performance.now() - started) * 100) / 100,
            truncated,
          };
        },
        {
          begin:
            `begin transaction isolation level repeatable read read only; ` +
            `set local statement_timeout = ${Math.trunc(this.opts.timeoutMs)}; ` +
            // parallel workers' reads would not show in this backend's statistics
            `set local max_parallel_workers_per_gather = 0; ` +
            GRAPH_READS_SQL,
          // a graph query only reads: nothing to keep
          end: 'rollback',
        },
      );
    } catch (err) {
      throw this.translate(err);
    }
  }

  private translate(err: unknown): unknown {
    const code = (err as { code?: string })?.code;
    const message = (err as Error)?.message ?? String(err);
    if (code === '57014')
      return badInput(
        `Query cancelled: it exceeded the statement timeout of ${this.opts.timeoutMs} ms (narrow it with labels, property maps, shorter variable-length bounds or LIMIT)`,
      );
    if (code === '25006') return badInput('Graph queries are read-only');
    // pg-pool: every graph-query connection stayed busy for the whole timeout
    if (!code && /timeout exceeded when trying to connect/.test(message)) {
      return new AppError('UNAVAILABLE', 'Every graph query slot is busy; retry shortly', { retryAfter: 1 });
    }
    if (code && (code.startsWith('22') || CLIENT_SQLSTATES.has(code))) return badInput(`Query failed: ${message}`);
    if (code) this.opts.logger.error({ err, code }, 'graph query failed in the database');
    return err;
  }
}
