import { counter, histogram, makeCounter, makeHistogram, secondsSince } from './metric.js';

/** The gateway: client operations (RED per operation name) and its calls to the subgraphs. */
export const GATEWAY_METRICS = {
  operations: counter(
    'gateway_operations_total',
    'GraphQL operations answered over HTTP (queries and mutations, REST calls included), by operation name, type and outcome (success, client_error, server_error)',
    ['operation', 'type', 'outcome'],
  ),
  duration: histogram('gateway_operation_duration_seconds', 'How long GraphQL operations took to answer, by operation name and type', [
    'operation',
    'type',
  ]),
  fetches: counter(
    'gateway_subgraph_fetches_total',
    "The gateway's calls to subgraphs, by subgraph and outcome (success, graphql_error, http_error, network_error)",
    ['subgraph', 'outcome'],
  ),
  fetchDuration: histogram('gateway_subgraph_fetch_duration_seconds', "How long the gateway's calls to a subgraph took", ['subgraph']),
};

export type OperationOutcome = 'success' | 'client_error' | 'server_error';
export type FetchOutcome = 'success' | 'graphql_error' | 'http_error' | 'network_error';
export const FETCH_OUTCOMES: readonly FetchOutcome[] = ['success', 'graphql_error', 'http_error', 'network_error'];

/** The one label value of operations without a name, that did not validate, or past the cap of names. */
export const OTHER_OPERATION = '(other)';
/** Distinct operation names a process labels before it counts new ones as `(other)`: clients choose names, the series must stay bounded. */
export const MAX_OPERATION_NAMES = 200;
/** Error codes that are the platform's fault, not the caller's. */
const SERVER_CODES = new Set(['INTERNAL', 'INTERNAL_SERVER_ERROR', 'UNAVAILABLE', 'DOWNSTREAM_SERVICE_ERROR']);

/** An operation's outcome from its HTTP status and its errors' `extensions.code`. */
export function operationOutcome(status: number, errors: ReadonlyArray<{ extensions?: { code?: unknown } }> | undefined): OperationOutcome {
  if (status >= 500 || errors?.some((e) => typeof e.extensions?.code !== 'string' || SERVER_CODES.has(e.extensions.code))) {
    return 'server_error';
  }
  return status >= 400 || errors?.length ? 'client_error' : 'success';
}

/** A valid GraphQL name (what a parsed document can carry), else null. */
const NAME = /^[_A-Za-z][_0-9A-Za-z]{0,99}$/;

export interface OperationSeen {
  /** The operation's name, once its document validated against the schema; absent otherwise. */
  name?: string | null;
  type?: 'query' | 'mutation' | 'subscription' | string;
}

/** RED per GraphQL operation at the gateway, with a bounded set of operation names. */
export class OperationMetrics {
  readonly operations = makeCounter(GATEWAY_METRICS.operations);
  readonly duration = makeHistogram(GATEWAY_METRICS.duration);
  readonly metrics = [this.operations, this.duration];
  private readonly names = new Set<string>();

  constructor(private readonly maxNames = MAX_OPERATION_NAMES) {}

  /** The label an operation is counted under: its name, or `(other)` (unnamed, invalid, or one name too many). */
  label(name: string | null | undefined): string {
    if (!name || !NAME.test(name)) return OTHER_OPERATION;
    if (this.names.has(name)) return name;
    if (this.names.size >= this.maxNames) return OTHER_OPERATION;
    this.names.add(name);
    return name;
  }

  observe(op: OperationSeen, outcome: OperationOutcome, seconds: number): void {
    const operation = this.label(op.name);
    const type = op.type === 'query' || op.type === 'mutation' || op.type === 'subscription' ? op.type : 'unknown';
    this.operations.inc({ operation, type, outcome });
    this.duration.observe({ operation, type }, seconds);
  }
}

/** RED per subgraph of the gateway's calls. */
export class SubgraphFetchMetrics {
  readonly fetches = makeCounter(GATEWAY_METRICS.fetches);
  readonly duration = makeHistogram(GATEWAY_METRICS.fetchDuration);
  readonly metrics = [this.fetches, this.duration];

  /** Every outcome of a subgraph starts at 0 (rates and ratios work from the first call). */
  known(subgraph: string): void {
    for (const outcome of FETCH_OUTCOMES) this.fetches.inc({ subgraph, outcome }, 0);
    this.duration.zero({ subgraph });
  }

  observe(subgraph: string, outcome: FetchOutcome, started: number): void {
    this.fetches.inc({ subgraph, outcome });
    this.duration.observe({ subgraph }, secondsSince(started));
  }
}

/** A subgraph call's outcome from what came back: no answer, its HTTP status, its body's errors. */
export function fetchOutcome(answer: { status: number; errors?: unknown } | null): FetchOutcome {
  if (!answer) return 'network_error';
  if (answer.status < 200 || answer.status >= 300) return 'http_error';
  return Array.isArray(answer.errors) && answer.errors.length ? 'graphql_error' : 'success';
}
