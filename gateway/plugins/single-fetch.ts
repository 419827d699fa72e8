import type { QueryPlan } from '@apollo/query-planner';
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
import { requestDigest } from '../../platform/auth/principal.js';
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

/** Decisions are cached by operation text; a full cache starts over rather than growing without bound. */
const MAX_CACHED = 1000;
/** A query one subgraph answers exactly as asked: its fetch, sent as the plan would send it. */
interface Shortcut {
  /** A mutation runs once, whatever it answers: its errors are answered here, as Apollo would. */
  mutation: boolean;
  /** The response key of a mutation's one root field. */
  rootKey: string;
  serviceName: string;
  operation: string;
  operationName?: string;
  variableUsages: string[];
  variableDefinitions: readonly VariableDefinitionNode[];
  /** The client's operation, as the gateway's metrics count it. */
  client: OperationSeen;
}

export interface SingleFetchOptions {
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
}

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
 * An operation whose plan is one fetch from one subgraph, with the selection the client sent, is
 * answered by that subgraph as is: the gateway forwards the planned fetch (signed principal and
 * all, as its data source would) and returns the subgraph's `data`, skipping Apollo's per-request
 * pipeline, plan execution and result shaping. Only what cannot differ takes this way: a valid
 * query, or a mutation of one root field (validated once, with the same rules as Apollo's path),
 * whose fragments apply to the type they are spread in (they are flattened before comparing), a
 * plan that is a single fetch without `requires`, and the subgraph's selection the same as the
 * client's. Anything else goes through Apollo as before. A query answered with errors goes through
 * Apollo again (a query has no side effects, so running it again is safe), which answers and
 * formats errors as it always did; a mutation is never sent twice: its errors are formatted here as
 * Apollo Gateway formats a subgraph's errors (`serviceName` added, then the gateway's formatter),
 * and only an answer other than 200 (refused before it ran: authentication, a document the
 * subgraph rejects) goes to Apollo.
 */
export class SingleFetchShortcut {
  private readonly decisions = new Map<string, Shortcut | null>();
  private schema?: GraphQLSchema;

  constructor(private readonly opts: SingleFetchOptions) {}

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

    const url = this.opts.url(shortcut.serviceName);
    if (!url) return null;
    const request = {
      query: shortcut.operation,
      operationName: shortcut.operationName,
      variables: Object.fromEntries(
        shortcut.variableUsages.filter((name) => name in variables).map((name) => [name, (variables as Record<string, unknown>)[name]]),
      ),
    };
    const text = JSON.stringify(request);
    const sharedAs = this.opts.shareQueries !== false && !shortcut.mutation ? callerIdentity(context) : undefined;
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
          signed ? { audience: shortcut.serviceName, request: requestDigest(request) } : null,
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
      shortcut.serviceName,
      fetchOutcome(response ? { status: response.status, errors: result?.errors } : null),
      fetchStarted,
    );
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

  private decide(planning: NonNullable<ReturnType<SingleFetchOptions['planning']>>, text: string, operationName?: string): Shortcut | null {
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

  private eligible(
    planning: NonNullable<ReturnType<SingleFetchOptions['planning']>>,
    text: string,
    operationName?: string,
  ): Shortcut | null {
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
    const root = operation.operation === 'query' ? planning.apiSchema.getQueryType() : planning.apiSchema.getMutationType();
    const selection = root && flatten(operation.selectionSet, root, fragments);
    if (!selection) return null;
    const mutation = operation.operation === 'mutation';
    // a mutation's root fields beyond the first are charged by Apollo's path (chargeMutationFields)
    if (mutation && selection.length !== 1) return null;
    const { node } = planning.plan(document, text, operationName);
    if (node?.kind !== 'Fetch' || node.requires?.length || node.inputRewrites?.length || node.outputRewrites?.length) return null;
    const fetchedDocument = parse(node.operation);
    const fetched = getOperationAST(fetchedDocument, node.operationName);
    const fetchedFragments = new Map<string, FragmentDefinitionNode>();
    for (const d of fetchedDocument.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fetchedFragments.set(d.name.value, d);
    const fetchedSelection = fetched && flatten(fetched.selectionSet, root, fetchedFragments);
    if (!fetchedSelection || printSelections(fetchedSelection) !== printSelections(selection)) return null;
    const first = selection[0] as { alias?: { value: string }; name: { value: string } };
    return {
      mutation,
      rootKey: (first.alias ?? first.name).value,
      serviceName: node.serviceName,
      operation: node.operation,
      operationName: node.operationName,
      variableUsages: node.variableUsages ?? [],
      variableDefinitions: operation.variableDefinitions ?? [],
      client: { name: operation.name?.value, type: operation.operation },
    };
  }
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
