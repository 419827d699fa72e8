import type { QueryPlan } from '@apollo/query-planner';
import {
  getOperationAST,
  getVariableValues,
  Kind,
  NoSchemaIntrospectionCustomRule,
  parse,
  print,
  recommendedRules,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type ValidationRule,
  type VariableDefinitionNode,
} from 'graphql';
import { requestDigest } from '../platform/auth/principal.js';
import { MAX_TOKENS } from './operation-cost.js';
import { callSubgraph } from './http-fetcher.js';
import { forwardedHeaders, type GatewayContext } from './subgraph-data-source.js';

/** Decisions are cached by operation text; a full cache starts over rather than growing without bound. */
const MAX_CACHED = 1000;
/** A query one subgraph answers exactly as asked: its fetch, sent as the plan would send it. */
interface Shortcut {
  serviceName: string;
  operation: string;
  operationName?: string;
  variableUsages: string[];
  variableDefinitions: readonly VariableDefinitionNode[];
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
}

export interface GraphQLBody {
  query?: unknown;
  operationName?: unknown;
  variables?: unknown;
  extensions?: unknown;
}

/**
 * A query whose plan is one fetch from one subgraph, with the selection the client sent, is
 * answered by that subgraph as is: the gateway forwards the planned fetch (signed principal and
 * all, as its data source would) and returns the subgraph's `data`, skipping Apollo's per-request
 * pipeline, plan execution and result shaping. Only what cannot differ takes this way: a valid
 * query (validated once, with the same rules as Apollo's path), no fragments, a plan that is a
 * single fetch without `requires`, and the subgraph's selection printed the same as the client's.
 * Anything else, and any answer with errors (a query has no side effects, so running it again is
 * safe), goes through Apollo as before, which answers and formats errors as it always did.
 */
export class SingleFetchShortcut {
  private readonly decisions = new Map<string, Shortcut | null>();
  private schema?: GraphQLSchema;

  constructor(private readonly opts: SingleFetchOptions) {}

  /** The response body (JSON text), or null when Apollo must answer. */
  async run(body: GraphQLBody, context: GatewayContext): Promise<string | null> {
    if (typeof body.query !== 'string' || body.extensions !== undefined) return null;
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
    const scope = { audience: shortcut.serviceName, request: requestDigest(request) };
    const response = await callSubgraph(url, {
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...forwardedHeaders(context, this.opts.internalSecret, scope),
      },
      body: JSON.stringify(request),
    }).catch(() => null);
    if (response?.status !== 200) return null;
    let result: { data?: unknown; errors?: unknown };
    try {
      result = JSON.parse(response.text) as typeof result;
    } catch {
      return null;
    }
    if (result.errors !== undefined || !result.data || typeof result.data !== 'object') return null;
    return JSON.stringify({ data: result.data });
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
    if (document.definitions.some((d) => d.kind !== Kind.OPERATION_DEFINITION)) return null;
    const operation = getOperationAST(document, operationName);
    if (operation?.operation !== 'query') return null;
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
    const { node } = planning.plan(document, text, operationName);
    if (node?.kind !== 'Fetch' || node.requires?.length || node.inputRewrites?.length || node.outputRewrites?.length) return null;
    const fetched = getOperationAST(parse(node.operation), node.operationName);
    if (!fetched || print(fetched.selectionSet) !== print(operation.selectionSet)) return null;
    return {
      serviceName: node.serviceName,
      operation: node.operation,
      operationName: node.operationName,
      variableUsages: node.variableUsages ?? [],
      variableDefinitions: operation.variableDefinitions ?? [],
    };
  }
}
