import type { FetchNode, QueryPlan } from '@apollo/query-planner';
import {
  getNamedType,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  NoSchemaIntrospectionCustomRule,
  parse,
  print,
  recommendedRules,
  specifiedRules,
  validate,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type SelectionNode,
  type SelectionSetNode,
  type ValidationRule,
  type VariableDefinitionNode,
} from 'graphql';
import { requestDigestOfJson } from '../../platform/auth/principal.js';
import { MAX_TOKENS } from '../operation-cost.js';
import { joinOrCall } from '../http-fetcher.js';
import { callerIdentity, forwardedHeaders, type GatewayContext } from '../subgraph-data-source.js';
import type { ErrorFormatter } from '../format-error.js';
import {
  fetchOutcome,
  operationOutcome,
  type OperationMetrics,
  type OperationSeen,
  type SubgraphFetchMetrics,
} from '../../platform/metrics/graphql.js';
import { secondsSince } from '../../platform/metrics/metric.js';
import type { Logger } from '../../platform/logger.js';
import { compileQuery, GiveUp, type CompiledQuery } from './compiled-plan.js';

/** Decisions are cached by operation text; a full cache starts over rather than growing without bound. */
const MAX_CACHED = 1000;
/** A query one subgraph answers exactly as asked: its fetch, sent as the plan would send it. */
interface SingleFetch {
  kind: 'single';
  /** A mutation runs once, whatever it answers: its errors are answered here, as Apollo would. */
  mutation: boolean;
  /** The response key of a mutation's one root field. */
  rootKey: string;
  serviceName: string;
  prepared: PreparedOperation;
  variableUsages: string[];
  variableDefinitions: readonly VariableDefinitionNode[];
  /** The client's operation, as the gateway's metrics count it. */
  client: OperationSeen;
}

/** A query over several fetches (or one that reshapes), its plan and answer compiled (compiled-plan.ts). */
interface CompiledPlan {
  kind: 'compiled';
  query: CompiledQuery;
  variableDefinitions: readonly VariableDefinitionNode[];
  client: OperationSeen;
}

type Shortcut = SingleFetch | CompiledPlan;

/** A planned fetch's document and operation name as JSON text (or `null`), serialised once per plan. */
interface PreparedOperation {
  query: string;
  operationName: string;
}
const preparedFetches = new WeakMap<FetchNode, PreparedOperation>();
function prepared(fetch: FetchNode): PreparedOperation {
  let operation = preparedFetches.get(fetch);
  if (!operation) {
    operation = { query: JSON.stringify(fetch.operation), operationName: JSON.stringify(fetch.operationName ?? null) };
    preparedFetches.set(fetch, operation);
  }
  return operation;
}

export interface PlanShortcutOptions {
  /** The current API schema and planner (SubscriptionRouter.planning). */
  planning(): { apiSchema: GraphQLSchema; plan(document: DocumentNode, text: string, operationName?: string): QueryPlan } | undefined;
  /** Subgraph URL by name. */
  url(serviceName: string): string | undefined;
  internalSecret: string;
  /** graphql-armor's rules, as on Apollo's path. */
  validationRules: ValidationRule[];
  production: boolean;
  /** The gateway's error formatter (a mutation's errors). */
  formatError: ErrorFormatter;
  /** Identical queries in flight for the same caller share one call (default true). */
  shareQueries?: boolean;
  /** The gateway's RED per operation and per subgraph call (what this answers is counted here, not by Apollo's plugin). */
  operations?: OperationMetrics;
  fetches?: SubgraphFetchMetrics;
  /** Where a compiled plan's unforeseen failure is told (the query is then Apollo's, as on GiveUp). */
  logger?: Logger;
}

type Planning = NonNullable<ReturnType<PlanShortcutOptions['planning']>>;

/** A GraphQL response body as a value (the caller writes it, or reads it without parsing when in this process). */
export interface GraphqlResult {
  errors?: GraphQLFormattedError[];
  data?: unknown;
}

export interface GraphQLBody {
  query?: unknown;
  operationName?: unknown;
  variables?: unknown;
  extensions?: unknown;
}

/**
 * Queries and single-field mutations answered without Apollo's per-request pipeline, decided once
 * per operation text (validated with the same rules as Apollo's path, then planned):
 * - **one fetch as asked**: a plan that is a single fetch without `requires`, whose selection is
 *   the client's (fragments spread in their own type written out before comparing), is forwarded
 *   as the plan would send it (signed principal and all, as the data source would) and the
 *   subgraph's `data` is the answer as is. A mutation is never sent twice: its errors are formatted
 *   here as Apollo Gateway formats a subgraph's errors (`serviceName` added, then the gateway's
 *   formatter), and only an answer other than 200 (refused before it ran) goes to Apollo.
 * - **any other query** whose plan compiles (compiled-plan.ts): its fetches run as Apollo's
 *   executor runs them, the answer shaped from their data.
 * A query answered with errors, or whose data Apollo would answer with errors, goes through Apollo
 * again (a query has no side effects, so running it again is safe), which answers and formats
 * errors as it always did. Anything not decided here goes through Apollo as before.
 */
export class PlanShortcut {
  private readonly decisions = new Map<string, Shortcut | null>();
  private schema?: GraphQLSchema;

  constructor(private readonly opts: PlanShortcutOptions) {}

  /** The response body, or null when Apollo must answer. */
  async run(body: GraphQLBody, context: GatewayContext): Promise<GraphqlResult | null> {
    const started = performance.now();
    const answered = await this.forward(body, context);
    if (answered) this.opts.operations?.observe(answered.client, operationOutcome(200, answered.result.errors), secondsSince(started));
    return answered?.result ?? null;
  }

  private async forward(body: GraphQLBody, context: GatewayContext): Promise<{ result: GraphqlResult; client: OperationSeen } | null> {
    // files travel as multipart, which Apollo's path sends (UploadDataSource)
    if (typeof body.query !== 'string' || body.extensions !== undefined || context.uploads) return null;
    if (body.operationName != null && typeof body.operationName !== 'string') return null;
    const variables = body.variables ?? {};
    if (typeof variables !== 'object' || variables === null || Array.isArray(variables)) return null;
    const planning = this.opts.planning();
    if (!planning) return null;
    const shortcut = this.decide(planning, body.query, body.operationName ?? undefined);
    if (!shortcut) return null;
    if (getVariableValues(planning.apiSchema, shortcut.variableDefinitions, variables as Record<string, unknown>).errors) return null;
    return shortcut.kind === 'single'
      ? this.forwardSingle(shortcut, variables as Record<string, unknown>, context)
      : this.runCompiled(shortcut, variables as Record<string, unknown>, context);
  }

  /** A compiled plan's answer, or null when Apollo must answer (GiveUp: errors on the way). */
  private async runCompiled(
    shortcut: CompiledPlan,
    variables: Record<string, unknown>,
    context: GatewayContext,
  ): Promise<{ result: GraphqlResult; client: OperationSeen } | null> {
    try {
      const data = await shortcut.query.run(variables, async (fetch, sent) => {
        const { result } = await this.send(fetch.serviceName, prepared(fetch), sent, false, context);
        if (!result || result.errors !== undefined || (result.data !== null && typeof result.data !== 'object')) throw new GiveUp();
        return (result.data as Record<string, unknown> | null) ?? null;
      });
      return { result: { data }, client: shortcut.client };
    } catch (error) {
      // GiveUp, or anything unforeseen: Apollo answers it as it always did
      if (!(error instanceof GiveUp))
        this.opts.logger?.warn({ err: error, operation: shortcut.client.name }, 'compiled plan failed; Apollo runs it');
      return null;
    }
  }

  /**
   * One subgraph call as the data sources make it: its answer (none: unreachable) and its parsed
   * body (none: not a 200 with JSON). The body and the principal's digest share one serialisation.
   */
  private async send(
    serviceName: string,
    operation: PreparedOperation,
    variables: Record<string, unknown>,
    mutation: boolean,
    context: GatewayContext,
  ): Promise<{ response?: { status: number }; result?: { data?: unknown; errors?: unknown }; failure?: unknown }> {
    const url = this.opts.url(serviceName);
    if (!url) return { failure: new Error(`no subgraph ${serviceName}`) };
    const variablesJson = JSON.stringify(variables);
    const text = `{"query":${operation.query},${operation.operationName === 'null' ? '' : `"operationName":${operation.operationName},`}"variables":${variablesJson}}`;
    const sharedAs = this.opts.shareQueries !== false && !mutation ? callerIdentity(context) : undefined;
    let failure: unknown;
    const fetchStarted = performance.now();
    const response = await joinOrCall(
      url,
      text,
      sharedAs,
      (signed) => ({
        'content-type': 'application/json',
        accept: 'application/json',
        ...forwardedHeaders(
          context,
          this.opts.internalSecret,
          signed ? { audience: serviceName, request: requestDigestOfJson(operation.query, operation.operationName, variablesJson) } : null,
        ),
      }),
      context.principal,
    ).catch((err: unknown) => void (failure = err));
    let result: { data?: unknown; errors?: unknown } | undefined;
    try {
      if (response?.status === 200) result = JSON.parse(response.text) as typeof result;
    } catch {
      result = undefined;
    }
    this.opts.fetches?.observe(
      serviceName,
      fetchOutcome(response ? { status: response.status, errors: result?.errors } : null),
      fetchStarted,
    );
    return { response: response ?? undefined, result, failure };
  }

  private async forwardSingle(
    shortcut: SingleFetch,
    variables: Record<string, unknown>,
    context: GatewayContext,
  ): Promise<{ result: GraphqlResult; client: OperationSeen } | null> {
    if (!this.opts.url(shortcut.serviceName)) return null;
    const sent = Object.fromEntries(shortcut.variableUsages.filter((name) => name in variables).map((name) => [name, variables[name]]));
    const { response, result, failure } = await this.send(shortcut.serviceName, shortcut.prepared, sent, shortcut.mutation, context);
    const client = shortcut.client;
    if (!response) {
      // it may have run: say so as Apollo would (the formatter names an unreachable subgraph)
      if (!shortcut.mutation) return null;
      const message = `Error while fetching subquery from service "${shortcut.serviceName}"`;
      return this.answer(client, null, [
        new GraphQLError(message, {
          path: [shortcut.rootKey],
          originalError: failure as Error,
          extensions: { code: 'DOWNSTREAM_SERVICE_ERROR', serviceName: shortcut.serviceName },
        }),
      ]);
    }
    if (!result) return null;
    if (result.errors === undefined && result.data && typeof result.data === 'object') return { result: { data: result.data }, client };
    if (!shortcut.mutation || !Array.isArray(result.errors)) return null;
    const errors = (result.errors as Array<{ message?: string; path?: Array<string | number>; extensions?: Record<string, unknown> }>).map(
      (e) =>
        new GraphQLError(e.message || `Error while fetching subquery from service "${shortcut.serviceName}"`, {
          path: e.path,
          extensions: { code: 'DOWNSTREAM_SERVICE_ERROR', ...e.extensions, serviceName: shortcut.serviceName },
        }),
    );
    return this.answer(client, result.data && typeof result.data === 'object' ? result.data : null, errors);
  }

  /** An answer with errors, formatted as the gateway formats Apollo's. */
  private answer(client: OperationSeen, data: unknown, errors: GraphQLError[]) {
    return { result: { errors: errors.map((e) => this.opts.formatError(e.toJSON(), e)), data }, client };
  }

  private decide(planning: Planning, text: string, operationName?: string): Shortcut | null {
    if (this.schema !== planning.apiSchema) {
      // a new supergraph: decide everything again
      this.decisions.clear();
      this.schema = planning.apiSchema;
    }
    const key = `${operationName ?? ''}\n${text}`;
    let decision = this.decisions.get(key);
    if (decision === undefined) {
      decision = this.eligible(planning, text, operationName);
      if (this.decisions.size >= MAX_CACHED) this.decisions.clear();
      this.decisions.set(key, decision);
    }
    return decision;
  }

  private eligible(planning: Planning, text: string, operationName?: string): Shortcut | null {
    let document: DocumentNode;
    try {
      document = parse(text, { maxTokens: MAX_TOKENS });
    } catch {
      return null;
    }
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const d of document.definitions) {
      if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
      else if (d.kind !== Kind.OPERATION_DEFINITION) return null;
    }
    const operation = getOperationAST(document, operationName);
    if (operation?.operation !== 'query' && operation?.operation !== 'mutation') return null;
    const rules = [
      ...specifiedRules,
      ...recommendedRules,
      ...this.opts.validationRules,
      ...(this.opts.production ? [NoSchemaIntrospectionCustomRule] : []),
    ];
    try {
      if (validate(planning.apiSchema, document, rules).length) return null;
    } catch {
      return null;
    }
    const mutation = operation.operation === 'mutation';
    const root = mutation ? planning.apiSchema.getMutationType() : planning.apiSchema.getQueryType();
    if (!root) return null;
    const selection = flatten(operation.selectionSet, root, fragments);
    // a mutation's root fields beyond the first are charged by Apollo's path (chargeMutationFields)
    if (mutation && selection?.length !== 1) return null;
    const plan = planning.plan(document, text, operationName);
    const client = { name: operation.name?.value, type: operation.operation };
    const variableDefinitions = operation.variableDefinitions ?? [];
    const single = selection && singleFetch(plan, root, selection);
    if (single) return { kind: 'single', mutation, ...single, variableDefinitions, client };
    const query = mutation ? null : compileQuery(planning.apiSchema, plan, operation, fragments);
    return query && { kind: 'compiled', query, variableDefinitions, client };
  }
}

/** The plan's one fetch when it asks its subgraph exactly the client's selection. */
function singleFetch(plan: QueryPlan, root: GraphQLCompositeType, selection: SelectionNode[]) {
  const { node } = plan;
  if (node?.kind !== 'Fetch' || node.requires?.length || node.inputRewrites?.length || node.outputRewrites?.length) return null;
  const fetchedDocument = parse(node.operation);
  const fetched = getOperationAST(fetchedDocument, node.operationName);
  const fetchedFragments = new Map<string, FragmentDefinitionNode>();
  for (const d of fetchedDocument.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fetchedFragments.set(d.name.value, d);
  const fetchedSelection = fetched && flatten(fetched.selectionSet, root, fetchedFragments);
  if (!fetchedSelection || printSelections(fetchedSelection) !== printSelections(selection)) return null;
  const first = selection[0] as { alias?: { value: string }; name: { value: string } };
  return {
    rootKey: (first.alias ?? first.name).value,
    serviceName: node.serviceName,
    prepared: prepared(node),
    variableUsages: node.variableUsages ?? [],
  };
}

/**
 * The selection with every fragment written out: null when a fragment applies to another type than
 * the one it is spread in (an interface or union's members: kept for Apollo), or carries directives.
 */
function flatten(
  set: SelectionSetNode,
  parent: GraphQLCompositeType,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  depth = 0,
): SelectionNode[] | null {
  if (depth > 50) return null;
  const out: SelectionNode[] = [];
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      if (!selection.selectionSet) {
        out.push(selection);
        continue;
      }
      const field = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[selection.name.value] : undefined;
      const type = field && getNamedType(field.type);
      if (!type || !isCompositeType(type)) return null;
      const inner = flatten(selection.selectionSet, type, fragments, depth + 1);
      if (!inner) return null;
      out.push({ ...selection, selectionSet: { kind: Kind.SELECTION_SET, selections: inner } });
      continue;
    }
    const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? fragments.get(selection.name.value) : selection;
    if (!fragment || selection.directives?.length || fragment.directives?.length) return null;
    if (fragment.typeCondition && fragment.typeCondition.name.value !== parent.name) return null;
    const inner = flatten(fragment.selectionSet, parent, fragments, depth + 1);
    if (!inner) return null;
    out.push(...inner);
  }
  return out;
}

const printSelections = (selections: SelectionNode[]) => print({ kind: Kind.SELECTION_SET, selections });
